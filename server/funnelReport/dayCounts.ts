import { sql, type Kysely, type RawBuilder } from 'kysely';
import { addDays } from '../clicks/utcDay';
import type { Schema } from '../db/schema';

const maxDay = (a: string, b: string) => (a > b ? a : b);

/**
 * Views and clicks counted per UTC day and per value of a dimension: the shape of daily_counts, which a
 * closed day keeps (server/jobs/closeDays.ts) and which a report reads for closed days, adding raw rows
 * only for the days after the last closed one. A visitor is a daily hash, so a day's distinct visitors
 * are exact and summing them over days is what the report has always done.
 */
export type Dimension = 'all' | 'placement' | 'source' | 'page' | 'device' | 'referrer';
export const dimensions: readonly Dimension[] = ['all', 'placement', 'source', 'page', 'device', 'referrer'];

export interface DayCount {
  day: string;
  value: string;
  views: number;
  /** Distinct visitors who viewed a page. */
  visitors: number;
  clicks: number;
  /** Distinct visitors who clicked. */
  clickers: number;
  /** 1, or for the row holding a day's values past the cap (othersValue), how many values it holds. */
  distinctValues: number;
}

/**
 * A closed day keeps at most this many values of a dimension, those with most visitors and clicks; the
 * rest are added up into one row, othersValue. So a flood of made-up sources costs one row, not millions.
 */
export const maxValuesPerDay = 1000;

/** The value of the row that holds a day's values past the cap: a control character, which no recorded value has. */
export const othersValue = '\u0001others';

/** The column of views and of clicks that holds each dimension's value; '' for the one value of 'all', absent where a table has none. */
const valueColumns: Record<Dimension, { views?: string; clicks?: string }> = {
  all: { views: '', clicks: '' },
  placement: { clicks: 'placement' },
  source: { views: 'source', clicks: 'source' },
  page: { views: 'page', clicks: 'page' },
  device: { views: 'device', clicks: 'device' },
  referrer: { views: 'referrer_host', clicks: 'referrer_host' },
};

const valueOf = (column: string): RawBuilder<string> => (column === '' ? sql<string>`''` : sql<string>`coalesce(${sql.ref(column)}, '')`);
/** PostgreSQL refuses a constant in GROUP BY, so the one value of 'all' is not grouped by. */
const groupByValue = (column: string): RawBuilder<unknown> => (column === '' ? sql`` : sql`, ${valueOf(column)}`);

/**
 * Raw views and clicks of days from..to as rows of (day, value, views, visitors, clicks, clickers); a day
 * and value may have two rows (views, clicks). One lower bound on day, so the index range starts there.
 */
function rawRows(dimension: Dimension, from: string, to: string): RawBuilder<unknown> {
  const { views, clicks } = valueColumns[dimension];
  const parts: RawBuilder<unknown>[] = [];
  if (views !== undefined) {
    parts.push(sql`select day, ${valueOf(views)} as value, count(*) as views, count(distinct visitor) as visitors, 0 as clicks, 0 as clickers, 1 as distinct_values
      from views where day >= ${from} and day <= ${to} group by day${groupByValue(views)}`);
  }
  if (clicks !== undefined) {
    parts.push(sql`select day, ${valueOf(clicks)} as value, 0 as views, 0 as visitors, count(*) as clicks, count(distinct visitor) as clickers, 1 as distinct_values
      from clicks where day >= ${from} and day <= ${to} group by day${groupByValue(clicks)}`);
  }
  return sql.join(parts, sql` union all `);
}

/** Which days are closed: every day up to lastClosed (closing goes day by day, in order). */
export interface ClosedSpan {
  /** The last closed day; '' when no day is closed yet. */
  lastClosed: string;
}

/**
 * Every (day, value) of a dimension in from..to, one row each: closed days from daily_counts, the days
 * after the last closed one from raw rows. A subquery for the report's and the closing job's aggregates.
 */
export function dayValueRows(dimension: Dimension, from: string, to: string, { lastClosed }: ClosedSpan): RawBuilder<unknown> {
  const closedTo = lastClosed < to ? lastClosed : to;
  const closed = sql`select day, value, views, visitors, clicks, clickers, distinct_values
    from daily_counts where dimension = ${dimension} and day >= ${from} and day <= ${closedTo}`;
  // Raw rows of closed days are never read: the raw tables' day index is entered at the first open day
  // (with two lower bounds, SQLite entered it at the report's first day and walked a year of rows).
  const firstOpen = lastClosed === '' ? from : maxDay(from, addDays(lastClosed, 1));
  const raw = sql`select day, value, sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers, max(distinct_values) as distinct_values
    from (${rawRows(dimension, firstOpen, to)}) as raw group by day, value`;
  return sql`${closed} union all ${raw}`;
}

/** PostgreSQL hands back bigint sums as text (or as numbers through our type parser); SQLite as numbers. */
export function toDayCount(row: Record<string, unknown>): DayCount {
  return {
    day: String(row.day ?? ''),
    value: String(row.value ?? ''),
    views: Number(row.views ?? 0),
    visitors: Number(row.visitors ?? 0),
    clicks: Number(row.clicks ?? 0),
    clickers: Number(row.clickers ?? 0),
    distinctValues: Number(row.distinct_values ?? 1),
  };
}

/** The order of values within a dimension: most visitors, then most clicks, the unknown value '' after named ones, then by name. */
export const valueOrder = sql`visitors desc, clicks desc, case when value = '' then 1 else 0 end, value`;

/** The latest closed day, '' when none is. */
export async function readLastClosedDay(db: Kysely<Schema>): Promise<ClosedSpan> {
  const row = await db.selectFrom('closed_days').select((eb) => eb.fn.max('day').as('day')).executeTakeFirst();
  return { lastClosed: row?.day ?? '' };
}

/**
 * One day's counts from its raw rows, every dimension, at most maxValuesPerDay values each plus one
 * othersValue row with the rest: what closing the day writes into daily_counts.
 */
export async function readRawDayCounts(db: Kysely<Schema>, day: string): Promise<Map<Dimension, DayCount[]>> {
  const counts = new Map<Dimension, DayCount[]>();
  for (const dimension of dimensions) {
    const rows = sql`select value, sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers
      from (${rawRows(dimension, day, day)}) as raw group by value`;
    const top = (await sql<Record<string, unknown>>`select * from (${rows}) as byValue order by ${valueOrder} limit ${maxValuesPerDay}`.execute(db)).rows.map(toDayCount);
    const kept: DayCount[] = top.map((row) => ({ ...row, day }));
    if (top.length === maxValuesPerDay) {
      const [all] = (await sql<Record<string, unknown>>`select count(*) as distinct_values, sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers from (${rows}) as byValue`.execute(db)).rows.map(toDayCount);
      const rest = all!.distinctValues - top.length;
      if (rest > 0) {
        const sum = (key: 'views' | 'visitors' | 'clicks' | 'clickers') => all![key] - top.reduce((total, row) => total + row[key], 0);
        kept.push({ day, value: othersValue, views: sum('views'), visitors: sum('visitors'), clicks: sum('clicks'), clickers: sum('clickers'), distinctValues: rest });
      }
    }
    counts.set(dimension, kept);
  }
  return counts;
}
