import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { splitAtWholeMonths, type DaySpan } from '../lib/utcDay';
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

/**
 * A sum per day (conversion_days, conversion_source_days) over the range, in day order, rows at zero left
 * out (as currencySums leaves them): each row made once, by `make`, for the few hundred rows a month holds.
 */
async function readDaySums<Sum>(
  db: Kysely<Schema>,
  table: 'conversion_days' | 'conversion_source_days',
  key: 'placement' | 'source',
  { from, to }: ReportRange,
  make: (day: string, value: string, currency: string, conversions: number, micros: number) => Sum,
): Promise<Sum[]> {
  const found = await sql<Record<string, unknown>>`select day, ${sql.ref(key)} as key, currency, conversions, payout_micros as micros
    from ${sql.table(table)} where day >= ${from} and day <= ${to} order by day`.execute(db);
  const sums: Sum[] = [];
  for (const row of found.rows) {
    const conversions = Number(row.conversions);
    const micros = Number(row.micros);
    if (conversions !== 0 || micros !== 0) sums.push(make(String(row.day), String(row.key), String(row.currency).trim(), conversions, micros));
  }
  return sums;
}

/** Every day of the range with conversions, per placement and currency, in day order. */
export function readPlacementDaySums(db: Kysely<Schema>, range: ReportRange): Promise<PlacementDaySum[]> {
  return readDaySums(db, 'conversion_days', 'placement', range, (day, placement, currency, conversions, micros) => ({ day, currency, conversions, micros, placement }));
}

/** Each day's conversions per source and currency, for the days whose sources a report lists, in day order. */
export function readSourceDaySums(db: Kysely<Schema>, range: ReportRange): Promise<SourceDaySum[]> {
  return readDaySums(db, 'conversion_source_days', 'source', range, (day, source, currency, conversions, micros) => ({ day, currency, conversions, micros, source }));
}

/** Each source's conversions per currency over the range: its whole months from their sums, the days around them from the days'. */
export async function readSourceSums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<SourceSum[]> {
  const daysIn = (span: DaySpan) => sql`select source, currency, conversions, payout_micros from conversion_source_days where day >= ${span.from} and day <= ${span.to}`;
  const split = splitAtWholeMonths(from, to);
  const rows = split
    ? sql`${daysIn(split.before)}
        union all select source, currency, conversions, payout_micros from conversion_source_months where month >= ${split.months.first} and month <= ${split.months.last}
        union all ${daysIn(split.after)}`
    : daysIn({ from, to });
  const found = await sql<Record<string, unknown>>`select source, currency, sum(conversions) as conversions, sum(payout_micros) as micros from (${rows}) as sums
    group by source, currency`.execute(db);
  return currencySums(found.rows).map(({ source, currency, conversions, micros }) => ({ source: String(source), currency, conversions, micros }));
}
