import { sql, type Kysely } from 'kysely';
import type { Schema } from '../../db/schema';
import { saleHistory, type SaleHistory } from '../../costs/saleHistory';
import { addDays, dayMs, dayStart, utcDay } from '../../lib/utcDay';

/**
 * The site's sale history the losing-money alert reads (server/costs/saleHistory.ts): read once per UTC
 * day and database, since it moves slowly and its reads are the rule's largest.
 */

/** Delays are read for clicks at least this old, so that a delay up to it had the time to be seen. */
export const delaySeenDays = 30;
/** …and at most this old: the site's recent habits. */
export const delayHistoryDays = 120;
/** Refunds are read for sales at least this old (most refunds and chargebacks come within two months)… */
export const refundSeenDays = 60;
/** …and at most this old. */
export const refundHistoryDays = 240;
/** The most rows each read takes: enough for the figures, bounded on a busy site. */
export const historyRows = 5000;

/** The history's raw reads at `now`, in `currency` (the report's main one). */
export async function readSaleHistory(db: Kysely<Schema>, currency: string, now: number): Promise<SaleHistory> {
  const today = utcDay(new Date(now));
  const clickDay = sql<string>`coalesce(click_day, day)`;
  const [delayRows, refundRow] = await Promise.all([
    db
      .selectFrom('conversions')
      .select(['received_at', 'click_day', 'payout_micros'])
      .where('reversed_at', 'is', null)
      .where('currency', '=', currency)
      .where(clickDay, '>=', addDays(today, -delayHistoryDays))
      .where(clickDay, '<=', addDays(today, -delaySeenDays))
      .limit(historyRows)
      .execute(),
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('conversions')
          .select('reversed_at')
          .where('day', '>=', addDays(today, -refundHistoryDays))
          .where('day', '<=', addDays(today, -refundSeenDays))
          .limit(historyRows)
          .as('sales'),
      )
      .select((eb) => [eb.fn.countAll<number>().as('sales'), eb.fn.count<number>('reversed_at').as('refunded')])
      .executeTakeFirst(),
  ]);
  const halfDay = dayMs / 2;
  // A click's moment is known to the day only: the middle of its day.
  const delaysDays = delayRows.flatMap((row) => (row.click_day === null ? [] : [(Number(row.received_at) - dayStart(row.click_day) - halfDay) / dayMs]));
  return saleHistory({
    payoutsMicros: delayRows.map((row) => Number(row.payout_micros)),
    delaysDays: delaysDays.map((delay) => Math.max(0, delay)),
    sales: Number(refundRow?.sales ?? 0),
    refunded: Number(refundRow?.refunded ?? 0),
  });
}

const remembered = new WeakMap<Kysely<Schema>, { key: string; history: Promise<SaleHistory> }>();

/** readSaleHistory, read at most once per UTC day, database and currency; a failed read is not kept. */
export function saleHistoryOf(db: Kysely<Schema>, currency: string, now: number): Promise<SaleHistory> {
  const key = `${utcDay(new Date(now))} ${currency}`;
  const known = remembered.get(db);
  if (known?.key === key) return known.history;
  const history = readSaleHistory(db, currency, now);
  remembered.set(db, { key, history });
  history.catch(() => remembered.delete(db));
  return history;
}
