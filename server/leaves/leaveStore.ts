import { sql, type Kysely } from 'kysely';
import type { DeviceClass } from '../beacons/requestKind';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import { utcDay } from '../lib/utcDay';

export interface Leave {
  at: Date;
  page: string;
  device: DeviceClass;
  visitor: string;
  variants: string;
  /** Section ids and placements in page order (pageLayout.ts). */
  sections: readonly string[];
  seen: readonly string[];
  engagedSeconds: number;
}

/** What became of a leave report: counted, or refused because its visitor viewed no such page that day, or every view of it has its leave already. */
export type LeaveOutcome = 'recorded' | 'no-view' | 'repeat';

export interface LeaveStore {
  /** Writes one leave report when a view of its page by its visitor that day still lacks one; when 'recorded' resolves, it is committed. */
  record(leave: Leave): Promise<LeaveOutcome>;
}

/** The first key of PostgreSQL's two-key advisory locks that a visitor's leave reports take in turn (the second is the visitor's hash). */
const leaveWritersLock = 29;

/**
 * The leaves table of either engine. The check and the write are one statement in one transaction, which
 * on PostgreSQL first takes a lock of the visitor's own: two reports of one visitor arriving together at
 * two instances cannot both pass as the one leave a view has left. SQLite writes one at a time anyway.
 */
export function createLeaveStore(db: Kysely<Schema>): LeaveStore {
  const postgres = engineOf(db) === 'postgres';
  return {
    record: (leave) =>
      db.transaction().execute(async (trx) => {
        const day = utcDay(leave.at);
        const { page, visitor } = leave;
        if (postgres) await sql`select pg_advisory_xact_lock(${sql.lit(leaveWritersLock)}, hashtext(${visitor}))`.execute(trx);
        const views = trx.selectFrom('views').select((eb) => eb.fn.countAll().as('n')).where('day', '=', day).where('visitor', '=', visitor).where('page', '=', page);
        const leaves = trx.selectFrom('leaves').select((eb) => eb.fn.countAll().as('n')).where('day', '=', day).where('visitor', '=', visitor).where('page', '=', page);
        const row = await trx
          .selectNoFrom((eb) => [eb.fn.coalesce(views, sql<number>`0`).as('views'), eb.fn.coalesce(leaves, sql<number>`0`).as('leaves')])
          .executeTakeFirstOrThrow();
        if (Number(row.views) === 0) return 'no-view';
        if (Number(row.leaves) >= Number(row.views)) return 'repeat';
        await trx
          .insertInto('leaves')
          .values({
            at: leave.at.getTime(),
            day,
            page,
            device: leave.device,
            visitor,
            variants: leave.variants,
            sections: leave.sections.join(' '),
            seen: leave.seen.join(' '),
            engaged_seconds: leave.engagedSeconds,
          })
          .execute();
        return 'recorded';
      }),
  };
}
