import { sql, type Kysely } from 'kysely';
import type { DeviceClass } from '../beacons/requestKind';
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
  /** The placements whose link was followed, each among `seen`. */
  clicked: readonly string[];
  engagedSeconds: number;
}

/** What became of a leave report: counted, or refused because its visitor viewed no such page that day, or every view of it has its leave already. */
export type LeaveOutcome = 'recorded' | 'no-view' | 'repeat';

export interface LeaveStore {
  /** Writes one leave report when a view of its page by its visitor that day still lacks one; when 'recorded' resolves, it is committed. */
  record(leave: Leave): Promise<LeaveOutcome>;
}

/**
 * The leaves table of either engine. Each of a visitor's leaves of a page in a day has its ordinal (1 for
 * the first), unique with the day, visitor and page; a leave is written as the next ordinal, and only while
 * the views of that page by that visitor that day outnumber their leaves. That is one statement, on its own
 * commit, whatever the engine: two reports of one view arriving at two instances at once both ask for the
 * same ordinal, and the unique index keeps one (the other does nothing and is a repeat), so no lock and no
 * transaction of several round trips is needed. (Two reports of two views of one page arriving in the same
 * instant can do the same: the second is refused, never counted twice.)
 */
export function createLeaveStore(db: Kysely<Schema>): LeaveStore {
  return {
    async record(leave) {
      const day = utcDay(leave.at);
      const { page, visitor } = leave;
      const count = (table: 'views' | 'leaves') =>
        sql<number>`(select count(*) from ${sql.table(table)} where day = ${day} and visitor = ${visitor} and page = ${page})`;
      const written = await db
        .insertInto('leaves')
        .columns(['at', 'day', 'page', 'device', 'visitor', 'variants', 'sections', 'seen', 'clicked', 'engaged_seconds', 'ordinal'])
        .expression(
          db
            .selectNoFrom([
              sql<number>`${leave.at.getTime()}`.as('at'),
              sql<string>`${day}`.as('day'),
              sql<string>`${page}`.as('page'),
              sql<string>`${leave.device}`.as('device'),
              sql<string>`${visitor}`.as('visitor'),
              sql<string>`${leave.variants}`.as('variants'),
              sql<string>`${leave.sections.join(' ')}`.as('sections'),
              sql<string>`${leave.seen.join(' ')}`.as('seen'),
              sql<string>`${leave.clicked.join(' ')}`.as('clicked'),
              sql<number>`${leave.engagedSeconds}`.as('engaged_seconds'),
              sql<number>`${count('leaves')} + 1`.as('ordinal'),
            ])
            // SQLite reads `insert … select … on conflict` only when the select has a where clause; this one does.
            .where(count('views'), '>', count('leaves')),
        )
        .onConflict((conflict) => conflict.columns(['day', 'visitor', 'page', 'ordinal']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (written) return 'recorded';
      // Refused: tell the two reasons apart (the rare path, a read of its own).
      const row = await db.selectNoFrom(count('views').as('views')).executeTakeFirstOrThrow();
      return Number(row.views) === 0 ? 'no-view' : 'repeat';
    },
  };
}
