import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { addDays, utcDay } from '../clicks/utcDay';
import type { DeviceClass } from '../clicks/clickStore';
import { addToDailySources } from '../db/dailySources';
import type { Schema } from '../db/schema';

export interface View {
  at: Date;
  page: string;
  referrerHost: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  device: DeviceClass;
  visitor: string;
}

export interface ViewStore {
  /** Writes one page view; when the promise resolves, it is committed. */
  record(view: View): Promise<void>;
  /** Folds raw views from before the retention period into daily_sources; resolves to how many were folded. */
  foldOldViews(now?: Date): Promise<number>;
}

/** The views table of either engine. */
export function createViewStore(db: Kysely<Schema>, { retentionDays }: { retentionDays: number }): ViewStore {
  return {
    async record(view) {
      await db
        .insertInto('views')
        .values({
          at: view.at.getTime(),
          day: utcDay(view.at),
          page: view.page,
          referrer_host: view.referrerHost,
          source: view.source,
          medium: view.medium,
          campaign: view.campaign,
          device: view.device,
          visitor: view.visitor,
        })
        .execute();
    },

    foldOldViews(now = new Date()) {
      const cutoff = addDays(utcDay(now), -retentionDays);
      return db.transaction().execute(async (trx) => {
        const old = trx.selectFrom('views').where('day', '<', cutoff);
        const perSource = await old
          .groupBy(['day', 'source'])
          .select((eb) => ['day', eb.fn.coalesce('source', sql.lit('')).as('source'), eb.fn.countAll<number>().as('views'), eb.fn.count<number>('visitor').distinct().as('visitors')])
          .execute();
        // Visitors cannot be summed across sources, so each day also gets an all-sources row, '*'.
        const perDay = await old
          .groupBy('day')
          .select((eb) => ['day', eb.fn.countAll<number>().as('views'), eb.fn.count<number>('visitor').distinct().as('visitors')])
          .execute();
        for (const row of [...perSource, ...perDay.map((row) => ({ ...row, source: '*' }))]) {
          await addToDailySources(trx, { day: row.day, source: row.source, views: Number(row.views), visitors: Number(row.visitors), clicks: 0, clickers: 0 });
        }
        const deleted = await trx.deleteFrom('views').where('day', '<', cutoff).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      });
    },
  };
}
