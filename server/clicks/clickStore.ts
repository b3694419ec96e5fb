import { sql, type Kysely } from 'kysely';
import { addToDailySources } from '../db/dailySources';
import { addDays, utcDay } from './utcDay';
import type { Schema } from '../db/schema';

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';
/** How the click reached us: JavaScript's sendBeacon, or the link's own ping attribute without it. */
export type ClickChannel = 'beacon' | 'ping';

export interface Click {
  at: Date;
  placement: string;
  page: string;
  referrerHost: string | null;
  device: DeviceClass;
  visitor: string;
  via: ClickChannel;
  /** The click ID put into the sub-ID (shared/affiliate.ts), lower case; absent or null without one. */
  clickId?: string | null;
  /** What brought the visitor (see shared/trafficSource.ts); absent or null when not known. */
  source?: string | null;
}

export interface ClickStore {
  /** Writes one click; when the promise resolves, the click is committed. */
  record(click: Click): Promise<void>;
  /** Folds raw clicks from before the retention period into daily totals; resolves to how many rows were folded. */
  foldOldClicks(now?: Date): Promise<number>;
}

/** The clicks table of either engine. The database is opened and closed by whoever made it (server/main.ts). */
export function createClickStore(db: Kysely<Schema>, { retentionDays }: { retentionDays: number }): ClickStore {
  return {
    async record(click) {
      await db
        .insertInto('clicks')
        .values({
          at: click.at.getTime(),
          day: utcDay(click.at),
          placement: click.placement,
          page: click.page,
          referrer_host: click.referrerHost,
          device: click.device,
          visitor: click.visitor,
          via: click.via,
          click_id: click.clickId ?? null,
          source: click.source ?? null,
        })
        .execute();
    },

    foldOldClicks(now = new Date()) {
      const cutoff = addDays(utcDay(now), -retentionDays);
      return db.transaction().execute(async (trx) => {
        const perPlacement = await trx
          .selectFrom('clicks')
          .where('day', '<', cutoff)
          .groupBy(['day', 'placement'])
          .select((eb) => ['day', 'placement', eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('visitors')])
          .execute();
        // Unique visitors cannot be summed across placements, so each day also gets an all-placements row, '*'.
        const perDay = await trx
          .selectFrom('clicks')
          .where('day', '<', cutoff)
          .groupBy('day')
          .select((eb) => ['day', eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('visitors')])
          .execute();
        const rows = [...perPlacement, ...perDay.map((row) => ({ ...row, placement: '*' }))];
        for (const row of rows) {
          await trx
            .insertInto('daily_totals')
            .values({ day: row.day, placement: row.placement, clicks: Number(row.clicks), visitors: Number(row.visitors) })
            .onConflict((conflict) =>
              conflict.columns(['day', 'placement']).doUpdateSet((eb) => ({
                clicks: eb('daily_totals.clicks', '+', eb.ref('excluded.clicks')),
                visitors: eb('daily_totals.visitors', '+', eb.ref('excluded.visitors')),
              })),
            )
            .execute();
        }
        // Per source too, for the funnel's source table (views are added by the view store's fold).
        const perSource = await trx
          .selectFrom('clicks')
          .where('day', '<', cutoff)
          .groupBy(['day', 'source'])
          .select((eb) => ['day', eb.fn.coalesce('source', sql.lit('')).as('source'), eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('clickers')])
          .execute();
        for (const row of perSource) await addToDailySources(trx, { day: row.day, source: row.source, views: 0, visitors: 0, clicks: Number(row.clicks), clickers: Number(row.clickers) });
        const deleted = await trx.deleteFrom('clicks').where('day', '<', cutoff).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      });
    },
  };
}
