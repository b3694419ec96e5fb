import { sql, type Kysely, type RawBuilder } from 'kysely';
import { addDays, lastWholeMonthTo, lastWholeWeekTo, splitIntoSums, utcDay } from '../lib/utcDay';
import type { Engine } from '../db/databaseSettings';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import type { DayCountRow, Dimension } from './dimensions';
import type { OpenDayCounter } from './openDays';
import { readRawDayCounts, type DayCountsByDimension } from './rawDayCounts';

/**
 * The day counts a report of a range reads, split once so that every query of it splits the range at the
 * same day: every day up to lastClosed is closed (closing goes day by day, in order) and its counts are
 * read from daily_counts; the days after it are counted from their raw rows once, here, for every
 * dimension. One day's counts of one value are a DayCountRow (dimensions.ts).
 */
export interface DayCounts {
  /** The last closed day; '' when no day is closed yet. */
  lastClosed: string;
  /** The last month summed into monthly_counts (YYYY-MM, server/jobs/closeMonths.ts); '' when none is. */
  lastClosedMonth: string;
  /** The last week of the month summed into weekly_counts (its first day, server/jobs/closeMonths.ts); '' when none is. */
  lastClosedWeek: string;
  /** Every day after lastClosed up to the range's end, counted from raw rows. */
  open: DayCountsByDimension;
  engine: Engine;
}

/** The latest closed day, '' when none is. */
export async function readLastClosedDay(db: Kysely<Schema>): Promise<string> {
  const row = await db.selectFrom('closed_days').select((eb) => eb.fn.max('day').as('day')).executeTakeFirst();
  return row?.day ?? '';
}

/** The latest month summed into monthly_counts, '' when none is. */
export async function readLastClosedMonth(db: Kysely<Schema>): Promise<string> {
  const row = await db.selectFrom('closed_months').select((eb) => eb.fn.max('month').as('month')).executeTakeFirst();
  return row?.month ?? '';
}

/** The latest week summed into weekly_counts, '' when none is. */
export async function readLastClosedWeek(db: Kysely<Schema>): Promise<string> {
  const row = await db.selectFrom('closed_weeks').select((eb) => eb.fn.max('week').as('week')).executeTakeFirst();
  return row?.week ?? '';
}

/**
 * The latest closed day, month and week in one statement: one round trip before every report's reads
 * rather than three, and the three from one snapshot ('' for each none is).
 */
async function readLastClosed(db: Kysely<Schema>): Promise<Pick<DayCounts, 'lastClosed' | 'lastClosedMonth' | 'lastClosedWeek'>> {
  const { rows } = await sql<{ day: string | null; month: string | null; week: string | null }>`select
      (select max(day) from closed_days) as day, (select max(month) from closed_months) as month, (select max(week) from closed_weeks) as week`.execute(db);
  const [row] = rows;
  return { lastClosed: row?.day ?? '', lastClosedMonth: row?.month ?? '', lastClosedWeek: row?.week ?? '' };
}

/**
 * The last closed day, week and month, and the raw rows of the range's days after it counted: by the counter
 * given, which keeps its counts between reports (openDays.ts), else in one read (rawDayCounts.ts).
 */
export async function readDayCounts(db: Kysely<Schema>, from: string, to: string, counter?: OpenDayCounter): Promise<DayCounts> {
  const { lastClosed, lastClosedMonth, lastClosedWeek } = await readLastClosed(db);
  const firstOpen = lastClosed === '' ? from : addDays(lastClosed, 1);
  const parts: DayCountsByDimension[] = [];
  if (firstOpen <= to) {
    // Every open day, not only the range's: the experiments' report reads each experiment's whole life.
    // Those before yesterday one at a time, see olderOpenDays; the recent ones together, as the counter keeps them.
    const recentStart = maxDay(firstOpen, addDays(utcDay(new Date()), -1));
    const olderTo = counter ? addDays(recentStart, -1) : minDay(to, addDays(recentStart, -1));
    for (let day = await firstRawDay(db, maxDay(firstOpen, from), olderTo); day !== undefined; day = await firstRawDay(db, addDays(day, 1), olderTo)) {
      parts.push(await readRawDayCounts(db, day));
    }
    if (counter) parts.push(await counter.read(db, recentStart));
    else if (recentStart <= to) parts.push(await readRawDayCounts(db, recentStart, to));
  }
  return { lastClosed, lastClosedMonth, lastClosedWeek, open: joinDays(parts), engine: engineOf(db) };
}

/*
 * olderOpenDays: a day is closed five minutes after it ends, so the open days are today and at most
 * yesterday. After an upgrade, a db:copy or a long outage, closing may have months to catch up at
 * start-up; counting those days together held every one's distinct-visitor counts at once (113 days of
 * the volume bench grew the report worker past 256 MB, and the kernel killed the site). Each is counted
 * alone and only its rows kept, a few thousand at most, and only the range's: a report meanwhile reads
 * them again, slower, in the same memory as a day (the alert rules' two weeks no longer read the months
 * closing has yet to reach). Until closing has caught up, an experiment's days before the range that are
 * still open are left out of its report.
 */

/**
 * The first day from..to with a raw view or click, by the day indexes (each a look-up, not a scan): the
 * older open days are read only where there are rows, not day by day across a range of years with none.
 */
async function firstRawDay(db: Kysely<Schema>, from: string, to: string): Promise<string | undefined> {
  if (from > to) return undefined;
  const found = await Promise.all(
    (['views', 'clicks'] as const).map((table) => db.selectFrom(table).select((eb) => eb.fn.min('day').as('day')).where('day', '>=', from).where('day', '<=', to).executeTakeFirst()),
  );
  return found.map((row) => row?.day).filter((day): day is string => typeof day === 'string').sort()[0];
}

/** Day counts of disjoint days, each part's days in order and the parts in day order, as one. */
function joinDays(parts: readonly DayCountsByDimension[]): DayCountsByDimension {
  if (parts.length === 1) return parts[0]!;
  const joined: DayCountsByDimension = new Map();
  for (const part of parts) {
    for (const [dimension, rows] of part) {
      let all = joined.get(dimension);
      if (!all) joined.set(dimension, (all = []));
      for (const row of rows) all.push(row);
    }
  }
  return joined;
}

const maxDay = (a: string, b: string) => (a > b ? a : b);
const minDay = (a: string, b: string) => (a < b ? a : b);

/**
 * A text column of the day counts as the reports sort it: by its bytes, as SQLite orders text, also on
 * PostgreSQL, whose database collation (C.UTF-8, en_US.UTF-8) both orders some values otherwise and costs
 * more: each day's top sources, 2,000 rows ranked within their days, sorted in 3.5 ms under "C" against
 * 5.3 under C.UTF-8. Every branch of a union carries it, so the reads' windows and orders use it.
 */
const inBytes = (engine: Engine, column: 'day' | 'value' | 'month' | 'week'): RawBuilder<unknown> => (engine === 'postgres' ? sql`${sql.ref(column)} collate "C"` : sql.ref(column));

/**
 * Counted rows as a table of (day, value, views, visitors, clicks, clickers, distinct_values), passed as
 * one JSON parameter: a day's rows are at most maxValuesPerDay + 1 per dimension, which as separate
 * parameters could pass either engine's limit. Each engine has its own JSON table function; PostgreSQL's
 * reads it as jsonb, parsed once, where json is parsed again by every ->> (300 rows: 0.7 ms against 1.4-2.1).
 */
function countedTable(engine: Engine, rows: readonly DayCountRow[]): RawBuilder<unknown> {
  const json = JSON.stringify(rows.map((row) => [row.day, row.value, row.views, row.visitors, row.clicks, row.clickers, row.distinctValues]));
  if (engine === 'postgres') {
    const number = (index: number) => sql`(e ->> ${sql.lit(index)})::bigint`;
    return sql`select (e ->> 0) collate "C" as day, (e ->> 1) collate "C" as value, ${number(2)} as views, ${number(3)} as visitors, ${number(4)} as clicks, ${number(5)} as clickers, ${number(6)} as distinct_values
      from jsonb_array_elements(${json}::jsonb) as e`;
  }
  return sql`select e.value ->> 0 as day, e.value ->> 1 as value, e.value ->> 2 as views, e.value ->> 3 as visitors, e.value ->> 4 as clicks, e.value ->> 5 as clickers, e.value ->> 6 as distinct_values
    from json_each(${json}) as e`;
}

/** daily_counts' rows of a dimension in from..to, one a day and value (none when from is after to). */
const dailyRows = (dimension: Dimension, from: string, to: string, engine: Engine) =>
  sql`select ${inBytes(engine, 'day')} as day, ${inBytes(engine, 'value')} as value, views, visitors, clicks, clickers, distinct_values
    from daily_counts where dimension = ${dimension} and day >= ${from} and day <= ${to}`;

/** The closed days' rows of a dimension in from..to, as daily_counts holds them; undefined when no day of from..to is closed. */
export function closedDayRows(dimension: Dimension, from: string, to: string, { lastClosed, engine }: DayCounts): RawBuilder<unknown> | undefined {
  const closedTo = lastClosed < to ? lastClosed : to;
  return from > closedTo ? undefined : dailyRows(dimension, from, closedTo, engine);
}

/** The open days' rows of a dimension in from..to, as counted (rawDayCounts.ts): read already, so never sent to the database for a read that needs them alone. */
export function openDayRows(dimension: Dimension, from: string, to: string, { open }: DayCounts): DayCountRow[] {
  return (open.get(dimension) ?? []).filter((row) => row.day >= from && row.day <= to);
}

/**
 * Every (day, value) of a dimension in from..to, one row each: closed days from daily_counts, the days
 * after the last closed one as the open counts hold them. A subquery for reads that sum over the days.
 */
export function dayValueRows(dimension: Dimension, from: string, to: string, dayCounts: DayCounts): RawBuilder<unknown> {
  const { lastClosed, engine } = dayCounts;
  const closed = dailyRows(dimension, from, lastClosed < to ? lastClosed : to, engine);
  const openRows = openDayRows(dimension, from, to, dayCounts);
  return openRows.length === 0 ? closed : sql`${closed} union all ${countedTable(engine, openRows)}`;
}

/**
 * The rows of a dimension in from..to for a report that sums each value over the range, as dayValueRows
 * but with the range's whole closed months read from monthly_counts and the whole closed weeks around
 * them from weekly_counts (one row a value and month or week, its days summed; `day` holds the month or
 * the week's first day there): a year of 200 campaigns is some 2,400 rows rather than 73,000, and 30 days
 * of 300 ads some 3,000 rather than 9,000. The sums are the same either way, the othersValue rows'
 * distinct_values included.
 */
export function rangeValueRows(dimension: Dimension, from: string, to: string, dayCounts: DayCounts): RawBuilder<unknown> {
  const { lastClosed, lastClosedMonth, lastClosedWeek, engine } = dayCounts;
  if (lastClosed === '') return dayValueRows(dimension, from, to, dayCounts);
  // Only months and weeks whose every day is closed, and summed already.
  const closedTo = lastClosed < to ? lastClosed : to;
  const wholeMonth = lastWholeMonthTo(closedTo);
  const wholeWeek = lastWholeWeekTo(closedTo);
  const { days, weeks, months } = splitIntoSums(from, to, {
    month: lastClosedMonth < wholeMonth ? lastClosedMonth : wholeMonth,
    week: lastClosedWeek < wholeWeek ? lastClosedWeek : wholeWeek,
  });
  const parts = [
    ...(months ? [sql`select ${inBytes(engine, 'month')} as day, ${inBytes(engine, 'value')} as value, views, visitors, clicks, clickers, distinct_values
      from monthly_counts where dimension = ${dimension} and month >= ${months.first} and month <= ${months.last}`] : []),
    ...weeks.map((span) => sql`select ${inBytes(engine, 'week')} as day, ${inBytes(engine, 'value')} as value, views, visitors, clicks, clickers, distinct_values
      from weekly_counts where dimension = ${dimension} and week >= ${span.first} and week <= ${span.last}`),
    // The days around them: closed ones from daily_counts, the open days after the last closed one counted.
    ...days.map((span) => dayValueRows(dimension, span.from, span.to, dayCounts)),
  ];
  // An empty range (from after to) has no parts: its one empty read.
  return parts.length === 0 ? dayValueRows(dimension, from, to, dayCounts) : sql.join(parts, sql` union all `);
}

/** PostgreSQL hands back bigint sums as text (or as numbers through our type parser); SQLite as numbers. */
export function toDayCountRow(row: Record<string, unknown>): DayCountRow {
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
