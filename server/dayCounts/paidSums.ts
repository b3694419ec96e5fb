import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { ReportRange } from './reportRange';

/**
 * The sales paid above 0 among a range's counted conversions (attributed to the click's day, not
 * reversed), per currency: how many, their payouts' sum in micros and the sum of their squares in units²,
 * for the spread of payouts /admin's verdict reckons with (server/costs/payoutSpread.ts). A lead paid 0 is
 * counted by the report's conversions but is no sale here.
 *
 * Read from the conversions themselves, at most `paidSampleRows` of them: the sums kept ahead (migration
 * 14) count conversions and payouts but not which were paid, nor their squares. A sample of that size
 * gives the spread to a few percent, and bounds the read on a busy site. Conversions folded past retention
 * have lost their payouts one by one and are not in it.
 */

/** The most conversions the read takes. */
export const paidSampleRows = 5000;

export interface PaidSum {
  currency: string;
  sales: number;
  micros: number;
  squares: number;
}

export async function readPaidSums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<PaidSum[]> {
  const { rows } = await sql<Record<string, unknown>>`select currency, count(*) as sales, sum(payout_micros) as micros,
      sum((payout_micros / 1000000.0) * (payout_micros / 1000000.0)) as squares
    from (select trim(currency) as currency, payout_micros from conversions
      where reversed_at is null and payout_micros > 0 and coalesce(click_day, day) >= ${from} and coalesce(click_day, day) <= ${to}
      limit ${paidSampleRows}) as paid
    group by currency`.execute(db);
  // char(3) may come back padded, and sums as text from PostgreSQL.
  return rows.map((row) => ({ currency: String(row.currency).trim(), sales: Number(row.sales), micros: Number(row.micros), squares: Number(row.squares) }));
}
