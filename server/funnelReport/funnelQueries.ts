import { sql, type Kysely } from 'kysely';
import { countedConversions } from '../conversions/conversionStore';
import type { Schema } from '../db/schema';
import { dayValueRows, othersValue, readLastClosedDay, toDayCount, valueOrder, type ClosedSpan, type DayCount, type Dimension } from './dayCounts';
import type { ReportRange } from './reportRange';

/**
 * The funnel's reads of a range, on either engine. Views and clicks come from the closed days' totals
 * (daily_counts) and, after the last closed day, from raw rows: so a year costs what its days and values
 * cost, not what its traffic does. Every query aggregates in the database and hands back rows bounded by
 * days times values shown. Conversions are few (a sale per hundreds of clicks) and are read raw, with
 * those folded past retention.
 */

/** Counted conversions of one attributed day, placement, source and currency; '' for a placement or source not known. */
export interface ConversionCount {
  day: string;
  placement: string;
  source: string;
  currency: string;
  conversions: number;
  /** Payouts summed in whole millionths of the currency unit. */
  micros: number;
}

/** How many values a dimension's range or day rows hold beyond those listed, and their counts added up. */
export interface OthersCount extends Omit<DayCount, 'value' | 'distinctValues'> {
  /** How many values (sources) the row holds. */
  values: number;
}

/** How many values of a dimension a report lists; 'all' lists every one. */
export type ValueLimit = number | 'all';

const limitClause = (limit: ValueLimit) => (limit === 'all' ? sql`` : sql`limit ${limit}`);
const sums = sql`sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers`;
/** How many distinct values rows hold: the othersValue row of a capped day holds distinct_values of them. */
const valueCount = sql`count(distinct case when value <> ${othersValue} then value end)
  + coalesce(sum(case when value = ${othersValue} then distinct_values else 0 end), 0) as distinct_values`;

async function rows(db: Kysely<Schema>, query: ReturnType<typeof sql>): Promise<DayCount[]> {
  return (await sql<Record<string, unknown>>`${query}`.execute(db)).rows.map(toDayCount);
}

/** A dimension's counts per day and value (one row each), for the dimensions with few values (all, placement). */
export function readPerDay(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, span: ClosedSpan): Promise<DayCount[]> {
  return rows(db, sql`select day, value, ${sums} from (${dayValueRows(dimension, from, to, span)}) as counts group by day, value`);
}

/** A dimension's values over the range, in valueOrder, at most `limit` of them (the othersValue row is never listed). */
export function readTopValues(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, span: ClosedSpan, limit: ValueLimit, order = valueOrder): Promise<DayCount[]> {
  return rows(
    db,
    sql`select value, ${sums} from (${dayValueRows(dimension, from, to, span)}) as counts where value <> ${othersValue}
      group by value order by ${order} ${limitClause(limit)}`,
  );
}

/** Every value of a dimension over the range added up: how many values there were, and their counts summed. */
export async function readValueTotals(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, span: ClosedSpan): Promise<DayCount> {
  // A value folded into a capped day's othersValue row may also be listed on another day: then it counts twice.
  const [total] = await rows(db, sql`select ${valueCount}, ${sums} from (${dayValueRows(dimension, from, to, span)}) as counts`);
  return total!;
}

/** Each day's values of a dimension, at most `limit` a day, in valueOrder within the day. */
export function readTopValuesPerDay(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, span: ClosedSpan, limit: ValueLimit): Promise<DayCount[]> {
  const counts = dayValueRows(dimension, from, to, span);
  if (limit === 'all') return rows(db, sql`select * from (${counts}) as counts where value <> ${othersValue}`);
  return rows(
    db,
    sql`select * from (
      select day, value, views, visitors, clicks, clickers, row_number() over (partition by day order by ${valueOrder}) as position
      from (${counts}) as counts where value <> ${othersValue}
    ) as ranked where position <= ${limit}`,
  );
}

/** Each day's values of a dimension added up (value counted as in readValueTotals). */
export function readValueTotalsPerDay(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, span: ClosedSpan): Promise<DayCount[]> {
  return rows(db, sql`select day, ${valueCount}, ${sums} from (${dayValueRows(dimension, from, to, span)}) as counts group by day`);
}

/** Which days are closed, read once per report so every query of it splits the range at the same day. */
export const readClosedSpan = readLastClosedDay;

/**
 * Conversions not reversed, under the day of their click (a cohort: what the range's clicks earned), or
 * the day received when no click matched; the folded ones are kept under that same day.
 */
export async function readConversionCounts(db: Kysely<Schema>, { from, to }: ReportRange): Promise<ConversionCount[]> {
  const [raw, folded] = await Promise.all([
    countedConversions(db)
      .where((eb) => eb.between(eb.fn.coalesce('click_day', 'day'), from, to))
      .execute(),
    db
      .selectFrom('daily_conversions')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .select(['day', 'placement', 'source', 'currency', 'conversions', 'payout_micros as micros'])
      .execute(),
  ]);
  // char(3) may come back padded; a sum of bigints comes back from PostgreSQL as text.
  return [...raw, ...folded].map((row) => ({
    day: row.day,
    placement: row.placement,
    source: row.source,
    currency: row.currency.trim(),
    conversions: Number(row.conversions),
    micros: Number(row.micros),
  }));
}
