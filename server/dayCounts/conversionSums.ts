import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { addDays, firstDayOf, firstWholeMonthFrom, lastDayOf, lastWholeMonthTo } from '../lib/utcDay';
import type { ReportRange } from './reportRange';

/*
 * The funnel report's reads of conversions, from their sums (migration 14, kept by triggers): what a
 * range's clicks earned, counted as countedConversions.ts counts them (under the day of the click, not
 * reversed, folded ones included), at the grains the report shows. A year is some 2,500 rows per
 * placement and day and a few hundred per source, whatever the number of conversions behind them.
 */

/** Conversions and their payouts (whole millionths) in one currency. */
export interface CurrencySum {
  currency: string;
  conversions: number;
  micros: number;
}

/** One attributed day's conversions of a placement ('' when not known) in one currency. */
export interface PlacementDaySum extends CurrencySum {
  day: string;
  placement: string;
}

/** A source's conversions ('' when not known) in one currency, over a range. */
export interface SourceSum extends CurrencySum {
  source: string;
}

/** One attributed day's conversions of a source in one currency. */
export interface SourceDaySum extends SourceSum {
  day: string;
}

/**
 * char(3) may come back padded and bigints as text from PostgreSQL. A row whose conversions were all
 * reversed stays in the sums at zero, and is left out here as if it had never been.
 */
function currencySums<Row extends Record<string, unknown>>(rows: readonly Row[]): (Row & CurrencySum)[] {
  const sums: (Row & CurrencySum)[] = [];
  for (const row of rows) {
    const conversions = Number(row.conversions);
    const micros = Number(row.micros);
    if (conversions !== 0 || micros !== 0) sums.push({ ...row, currency: String(row.currency).trim(), conversions, micros });
  }
  return sums;
}

/** Every day of the range with conversions, per placement and currency, in day order. */
export async function readPlacementDaySums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<PlacementDaySum[]> {
  const rows = await db
    .selectFrom('conversion_days')
    .where('day', '>=', from)
    .where('day', '<=', to)
    .select(['day', 'placement', 'currency', 'conversions', 'payout_micros as micros'])
    .orderBy('day')
    .execute();
  return currencySums(rows);
}

/** Each day's conversions per source and currency, for the days whose sources a report lists, in day order. */
export async function readSourceDaySums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<SourceDaySum[]> {
  const rows = await db
    .selectFrom('conversion_source_days')
    .where('day', '>=', from)
    .where('day', '<=', to)
    .select(['day', 'source', 'currency', 'conversions', 'payout_micros as micros'])
    .orderBy('day')
    .execute();
  return currencySums(rows);
}

/** Each source's conversions per currency over the range: its whole months from their sums, the days around them from the days'. */
export async function readSourceSums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<SourceSum[]> {
  const firstMonth = firstWholeMonthFrom(from);
  const lastMonth = lastWholeMonthTo(to);
  const daysIn = (first: string, last: string) => sql`select source, currency, conversions, payout_micros from conversion_source_days where day >= ${first} and day <= ${last}`;
  const rows =
    firstMonth > lastMonth
      ? daysIn(from, to)
      : sql`${daysIn(from, addDays(firstDayOf(firstMonth), -1))}
        union all select source, currency, conversions, payout_micros from conversion_source_months where month >= ${firstMonth} and month <= ${lastMonth}
        union all ${daysIn(addDays(lastDayOf(lastMonth), 1), to)}`;
  const found = await sql<Record<string, unknown>>`select source, currency, sum(conversions) as conversions, sum(payout_micros) as micros from (${rows}) as sums
    group by source, currency`.execute(db);
  return currencySums(found.rows).map(({ source, currency, conversions, micros }) => ({ source: String(source), currency, conversions, micros }));
}
