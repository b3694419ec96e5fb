import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { adValue, byValueOrder, campaignValue, dimensions, leaveDimensions, maxValuesPerDay, othersValue, rowDimensions, type DayCountRow, type Dimension, type RowDimension } from './dimensions';
import { leaveValues, type LeaveRow } from './leaveDimensions';
import { DistinctCount, hash32, valuePrecision, wholePrecision } from './distinctCount';

/** Day counts per dimension, as raw rows count to: one row per day and value, at most maxValuesPerDay values a day plus one othersValue row. */
export type DayCountsByDimension = Map<Dimension, DayCountRow[]>;

/** What a raw view or click row says, with the columns a table lacks as undefined. */
export interface RawRow {
  day: string;
  visitor: string;
  placement?: string;
  source: string | null;
  page: string;
  device: string;
  referrer_host: string | null;
  /** The variants the page showed, formatted (shared/experiments/experiment.ts); '' for none. */
  variants: string;
  /** utm_campaign and utm_content of the visit's landing (schema 11); null or absent when none. */
  campaign?: string | null;
  content?: string | null;
}

/**
 * Each dimension's values in a raw row: one, except a row's variants (one per experiment its page
 * showed, none outside them); none where the row's table has no such column (views have no placement).
 */
const valuesOf: Record<RowDimension, (row: RawRow) => readonly string[]> = {
  all: () => [''],
  placement: (row) => (row.placement === undefined ? [] : [row.placement]),
  source: (row) => [row.source ?? ''],
  page: (row) => [row.page],
  device: (row) => [row.device],
  referrer: (row) => [row.referrer_host ?? ''],
  variant: (row) => (row.variants === '' ? [] : row.variants.split(',')),
  campaign: (row) => (row.campaign ? [campaignValue(row.source, row.campaign)] : []),
  ad: (row) => (row.content ? [adValue(row.source, row.campaign ?? '', row.content)] : []),
};

interface Tally {
  views: number;
  visitors: DistinctCount;
  clicks: number;
  clickers: DistinctCount;
}

/** The dimensions with a few values whose visitors are the figures read first: counted more closely (distinctCount.ts). */
const wholeDayDimensions: ReadonlySet<Dimension> = new Set(['all', 'device']);

const emptyTally = (dimension?: Dimension): Tally => {
  const precision = dimension && wholeDayDimensions.has(dimension) ? wholePrecision : valuePrecision;
  return { views: 0, visitors: new DistinctCount(precision), clicks: 0, clickers: new DistinctCount(precision) };
};

/**
 * A day keeps at most this many values of a dimension apart while it is tallied: twice what a closed day
 * keeps, so the order of the values it keeps is right for all but the last-come of a flood. A value first
 * seen after them is tallied in the day's othersValue row, with how many such values there were (a count
 * of them, as visitors are). With at most 4 KB a distinct count, two counts a value, this bounds what a
 * day's tallies hold whatever the traffic: see docs/funnel.md#reports-at-volume.
 */
export const maxValuesTallied = 2 * maxValuesPerDay;

/**
 * How many of a day's values past maxValuesTallied are told apart exactly (their hashes in a set, 16 bytes
 * each, one set a dimension and day), so the "N other sources" of all but a flood are exact.
 */
export const exactOverflowValues = 20_000;

/** A day's values past maxValuesTallied, tallied together. */
interface Overflow {
  tally: Tally;
  values: DistinctCount;
}

/** Dimension, then day, then value. */
type TallyMap = Map<Dimension, Map<string, Map<string, Tally>>>;

/**
 * Views and clicks tallied per dimension, day and value, with the distinct visitors behind each (a
 * DistinctCount: exact while few, a 4 KB sketch past that): what a day's raw rows count to, built from
 * rows in any order and in any number of reads.
 */
export class Tallies {
  private readonly byDimension: TallyMap = new Map(dimensions.map((dimension) => [dimension, new Map()]));
  /** Per dimension and day, the values past maxValuesTallied. */
  private readonly overflow = new Map<string, Overflow>();
  /**
   * Each day's dimensions as counts() last made them from these tallies alone, until a row of that day is
   * added: a day flooded with a hundred thousand values is sorted again only when it changes.
   */
  private readonly made = new Map<string, Map<Dimension, DayCountRow[]>>();

  /** Adds a raw row of views (kind 'view') or of clicks. */
  add(row: RawRow, kind: 'view' | 'click'): void {
    // Hashed once for the row's ten or so counts: hashing was most of what closing a busy day cost.
    const visitor = hash32(row.visitor);
    for (const dimension of rowDimensions) {
      for (const value of valuesOf[dimension](row)) this.count(dimension, row.day, value, visitor, kind === 'view' ? 'view' : 'click');
    }
    // Every row counts in the 'all' dimension, so a row changes each dimension's day: made is kept per day.
    this.made.delete(row.day);
  }

  /** Adds a leave report (leaveDimensions.ts): a view of each of its values, and a click too where it followed that placement's link. */
  addLeave(row: LeaveRow): void {
    const visitor = hash32(row.visitor);
    for (const dimension of leaveDimensions) {
      for (const [value, clicked] of leaveValues(dimension, row)) this.count(dimension, row.day, value, visitor, clicked ? 'both' : 'view');
    }
    this.made.delete(row.day);
  }

  private count(dimension: Dimension, day: string, value: string, visitor: number, what: 'view' | 'click' | 'both'): void {
    const days = this.byDimension.get(dimension)!;
    let values = days.get(day);
    if (!values) days.set(day, (values = new Map()));
    let tally = values.get(value);
    if (!tally && values.size >= maxValuesTallied) tally = this.overflowOf(dimension, day, value);
    else if (!tally) values.set(value, (tally = emptyTally(dimension)));
    if (what !== 'click') {
      tally.views++;
      tally.visitors.addHash(visitor);
    }
    if (what !== 'view') {
      tally.clicks++;
      tally.clickers.addHash(visitor);
    }
  }

  /** The tally of a day's values past maxValuesTallied, counting `value` among them. */
  private overflowOf(dimension: Dimension, day: string, value: string): Tally {
    const key = `${dimension} ${day}`;
    let overflow = this.overflow.get(key);
    if (!overflow) this.overflow.set(key, (overflow = { tally: emptyTally(dimension), values: new DistinctCount(valuePrecision, exactOverflowValues) }));
    overflow.values.add(value);
    return overflow.tally;
  }

  /** Forgets the days before `day` (closed since they were tallied). */
  forgetDaysBefore(day: string): void {
    for (const [dimension, days] of this.byDimension) {
      for (const tallied of [...days.keys()]) {
        if (tallied >= day) continue;
        days.delete(tallied);
        this.made.delete(tallied);
        this.overflow.delete(`${dimension} ${tallied}`);
      }
    }
  }

  /**
   * Each dimension's days, oldest first, each day's values in valueOrder and capped as a closed day is;
   * with `extra`, the rows it holds counted too (a visitor in both counts once), neither changed.
   */
  counts(extra?: Tallies): DayCountsByDimension {
    const counts: DayCountsByDimension = new Map();
    for (const dimension of dimensions) {
      const base = this.byDimension.get(dimension)!;
      const added = extra?.byDimension.get(dimension);
      const days = [...new Set([...base.keys(), ...(added?.keys() ?? [])])].sort();
      counts.set(
        dimension,
        days.flatMap((day) => {
          const key = `${dimension} ${day}`;
          const addedValues = added?.get(day);
          if (addedValues) return countDay(day, { values: base.get(day), overflow: this.overflow.get(key) }, { values: addedValues, overflow: extra?.overflow.get(key) });
          let made = this.made.get(day);
          if (!made) this.made.set(day, (made = new Map()));
          let rows = made.get(dimension);
          if (!rows) made.set(dimension, (rows = countDay(day, { values: base.get(day), overflow: this.overflow.get(key) }, undefined)));
          return rows;
        }),
      );
    }
    return counts;
  }
}

/** A day's tallies of one dimension: its values kept apart, and those past them. */
interface DayTallies {
  values: ReadonlyMap<string, Tally> | undefined;
  overflow: Overflow | undefined;
}

/** A value's counts from a tally and one added on top of it (a visitor in both counts once). */
function countOf(day: string, value: string, one: Tally, two: Tally | undefined): DayCountRow {
  return {
    day,
    value,
    views: one.views + (two?.views ?? 0),
    visitors: two ? one.visitors.countWith(two.visitors) : one.visitors.count,
    clicks: one.clicks + (two?.clicks ?? 0),
    clickers: two ? one.clickers.countWith(two.clickers) : one.clickers.count,
    distinctValues: 1,
  };
}

/** One day's values of a dimension, from its tallies and those added on top, in valueOrder and capped. */
function countDay(day: string, base: DayTallies, added: DayTallies | undefined): DayCountRow[] {
  const values: DayCountRow[] = [];
  for (const [value, tally] of base.values ?? []) values.push(countOf(day, value, tally, added?.values?.get(value)));
  for (const [value, tally] of added?.values ?? []) if (!base.values?.has(value)) values.push(countOf(day, value, tally, undefined));
  const overflow = [base.overflow, added?.overflow].filter((one): one is Overflow => one !== undefined);
  if (overflow.length === 0) return capped(day, values.sort(byValueOrder));
  const [first, second] = overflow;
  const others = { ...countOf(day, othersValue, first!.tally, second?.tally), distinctValues: second ? first!.values.countWith(second.values) : first!.values.count };
  return capped(day, values.sort(byValueOrder), others);
}

/**
 * A day's values in order, the ones past maxValuesPerDay added up into one othersValue row that says how
 * many it holds, with the values tallied past maxValuesTallied (`others`) added to it.
 */
function capped(day: string, values: DayCountRow[], others?: DayCountRow): DayCountRow[] {
  if (values.length <= maxValuesPerDay && !others) return values;
  const rest = [...values.slice(maxValuesPerDay), ...(others ? [others] : [])];
  const sum = (key: 'views' | 'visitors' | 'clicks' | 'clickers' | 'distinctValues') => rest.reduce((total, row) => total + row[key], 0);
  return [
    ...values.slice(0, maxValuesPerDay),
    { day, value: othersValue, views: sum('views'), visitors: sum('visitors'), clicks: sum('clicks'), clickers: sum('clickers'), distinctValues: sum('distinctValues') },
  ];
}

/** The columns a tally reads, of views, of clicks and of leave reports. */
export const rawColumns = {
  views: ['day', 'visitor', 'source', 'page', 'device', 'referrer_host', 'variants', 'campaign', 'content'],
  clicks: ['day', 'visitor', 'placement', 'source', 'page', 'device', 'referrer_host', 'variants', 'campaign', 'content'],
  leaves: ['day', 'visitor', 'page', 'variants', 'sections', 'seen', 'clicked', 'engaged_seconds'],
} as const;

/** Raw rows are read this many at a time, so a busy day is never held whole (issue 28). */
export const rawPageRows = 5000;

export type RawTable = 'views' | 'clicks' | 'leaves';

export const rawTables: readonly RawTable[] = ['views', 'clicks', 'leaves'];

/** Adds a raw table's row to tallies, as its table says it counts. */
export function tallyRow(tallies: Tallies, table: RawTable, row: RawRow | LeaveRow): void {
  if (table === 'leaves') tallies.addLeave(row as LeaveRow);
  else tallies.add(row as RawRow, table === 'views' ? 'view' : 'click');
}

/**
 * The first and last number of a raw table's rows of days from..to (to: undefined, every day from on),
 * through the day index; null when there are none. Rows are numbered in the order they arrive, so the
 * days' rows lie between (with a few of other days: a late report, which callers leave out by its day).
 */
export async function rawIdSpan(db: Kysely<Schema>, table: RawTable, from: string, to?: string): Promise<{ first: number; last: number } | null> {
  let query = db.selectFrom(table).where('day', '>=', from);
  if (to !== undefined) query = query.where('day', '<=', to);
  // id + 0, not id: PostgreSQL turns min(id) and max(id) into a walk of the primary key from either end,
  // filtering by day as it goes, which for a day in the middle of a year of rows reads most of the table
  // (closing a year's days at start-up went from 30 s to over 15 min). On an expression it reads the
  // day's entries of the day index instead, as SQLite does either way.
  const row = await query.select([sql<number | string>`min(id + 0)`.as('first'), sql<number | string>`max(id + 0)`.as('last')]).executeTakeFirst();
  return row?.first === null || row?.first === undefined ? null : { first: Number(row.first), last: Number(row.last) };
}

/**
 * Reads a raw table's rows numbered after `after` (and up to `upTo` when given) in pages of rawPageRows,
 * in number order, handing each page to `page` before the next is read: what the caller keeps of them
 * is all it holds. Resolves to the highest number read (`after` when none).
 */
export async function readRawPages<Row extends RawRow | LeaveRow>(
  db: Kysely<Schema>,
  table: RawTable,
  after: number,
  upTo: number | undefined,
  page: (rows: readonly (Row & { id: number })[]) => void,
): Promise<number> {
  const columns = sql.join(['id', ...rawColumns[table]].map((column) => sql.ref(column)));
  let last = after;
  for (;;) {
    const bound = upTo === undefined ? sql`` : sql`and id <= ${upTo}`;
    const { rows } = await sql<Row & { id: number }>`select ${columns} from ${sql.table(table)} where id > ${last} ${bound} order by id limit ${rawPageRows}`.execute(db);
    if (rows.length === 0) return last;
    page(rows);
    last = Number(rows.at(-1)!.id);
    if (rows.length < rawPageRows) return last;
  }
}

/**
 * The raw views, clicks and leave reports of days from..to, counted per dimension, day and value: what
 * closing a day writes (server/jobs/closeDays.ts). One pass over each raw table's rows of those days, a page at a time,
 * rather than one query per dimension, since each query would scan a busy day's rows again; what it holds
 * is the tallies, bounded whatever the day brought (distinctCount.ts, maxValuesTallied).
 */
export async function readRawDayCounts(db: Kysely<Schema>, from: string, to: string = from): Promise<DayCountsByDimension> {
  const tallies = new Tallies();
  for (const table of rawTables) {
    const span = await rawIdSpan(db, table, from, to);
    if (!span) continue;
    await readRawPages<RawRow | LeaveRow>(db, table, span.first - 1, span.last, (rows) => {
      for (const row of rows) if (row.day >= from && row.day <= to) tallyRow(tallies, table, row);
    });
  }
  return tallies.counts();
}
