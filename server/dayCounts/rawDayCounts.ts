import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { adValue, campaignValue, dimensions, maxValuesPerDay, othersValue, type DayCountRow, type Dimension } from './dimensions';

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
const valuesOf: Record<Dimension, (row: RawRow) => readonly string[]> = {
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
  visitors: Set<string>;
  clicks: number;
  clickers: Set<string>;
}

const emptyTally = (): Tally => ({ views: 0, visitors: new Set(), clicks: 0, clickers: new Set() });

/** Dimension, then day, then value. */
type TallyMap = Map<Dimension, Map<string, Map<string, Tally>>>;

/**
 * Views and clicks tallied per dimension, day and value, with the distinct visitors behind each: what a
 * day's raw rows count to, built from rows in any order and in any number of reads.
 */
export class Tallies {
  private readonly byDimension: TallyMap = new Map(dimensions.map((dimension) => [dimension, new Map()]));
  /**
   * Each dimension's day as counts() last made it from these tallies alone, until a row of that day is
   * added: a day flooded with a hundred thousand values is sorted again only when it changes.
   */
  private readonly made = new Map<string, DayCountRow[]>();

  /** Adds a raw row of views (kind 'view') or of clicks. */
  add(row: RawRow, kind: 'view' | 'click'): void {
    for (const dimension of dimensions) {
      for (const value of valuesOf[dimension](row)) {
        const days = this.byDimension.get(dimension)!;
        let values = days.get(row.day);
        if (!values) days.set(row.day, (values = new Map()));
        let tally = values.get(value);
        if (!tally) values.set(value, (tally = emptyTally()));
        if (kind === 'view') {
          tally.views++;
          tally.visitors.add(row.visitor);
        } else {
          tally.clicks++;
          tally.clickers.add(row.visitor);
        }
        this.made.delete(`${dimension} ${row.day}`);
      }
    }
  }

  /** Forgets the days before `day` (closed since they were tallied). */
  forgetDaysBefore(day: string): void {
    for (const [dimension, days] of this.byDimension) {
      for (const tallied of [...days.keys()]) {
        if (tallied >= day) continue;
        days.delete(tallied);
        this.made.delete(`${dimension} ${tallied}`);
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
          const addedValues = added?.get(day);
          if (addedValues) return countDay(day, base.get(day), addedValues);
          const key = `${dimension} ${day}`;
          let rows = this.made.get(key);
          if (!rows) this.made.set(key, (rows = countDay(day, base.get(day), undefined)));
          return rows;
        }),
      );
    }
    return counts;
  }
}

/** One day's values of a dimension, from its tallies and those added on top, in valueOrder and capped. */
function countDay(day: string, base: ReadonlyMap<string, Tally> | undefined, added: ReadonlyMap<string, Tally> | undefined): DayCountRow[] {
  const values: DayCountRow[] = [];
  const row = (value: string, one: Tally, two: Tally | undefined): DayCountRow => ({
    day,
    value,
    views: one.views + (two?.views ?? 0),
    visitors: one.visitors.size + (two ? countNew(two.visitors, one.visitors) : 0),
    clicks: one.clicks + (two?.clicks ?? 0),
    clickers: one.clickers.size + (two ? countNew(two.clickers, one.clickers) : 0),
    distinctValues: 1,
  });
  for (const [value, tally] of base ?? []) values.push(row(value, tally, added?.get(value)));
  for (const [value, tally] of added ?? []) if (!base?.has(value)) values.push(row(value, emptyTally(), tally));
  return capped(day, values.sort(byValueOrder));
}

/** How many of `added` are not in `base`. */
function countNew(added: Set<string>, base: Set<string>): number {
  let count = 0;
  for (const visitor of added) if (!base.has(visitor)) count++;
  return count;
}

/** valueOrder (dayCounts.ts) in JavaScript: most visitors, then most clicks, '' after named values, then by name. */
function byValueOrder(a: DayCountRow, b: DayCountRow): number {
  return b.visitors - a.visitors || b.clicks - a.clicks || Number(a.value === '') - Number(b.value === '') || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** A day's values in order, the ones past maxValuesPerDay added up into one othersValue row that says how many it holds. */
function capped(day: string, values: DayCountRow[]): DayCountRow[] {
  if (values.length <= maxValuesPerDay) return values;
  const rest = values.slice(maxValuesPerDay);
  const sum = (key: 'views' | 'visitors' | 'clicks' | 'clickers') => rest.reduce((total, row) => total + row[key], 0);
  return [
    ...values.slice(0, maxValuesPerDay),
    { day, value: othersValue, views: sum('views'), visitors: sum('visitors'), clicks: sum('clicks'), clickers: sum('clickers'), distinctValues: rest.length },
  ];
}

/** The columns a tally reads, of views and of clicks. */
export const rawColumns = {
  views: ['day', 'visitor', 'source', 'page', 'device', 'referrer_host', 'variants', 'campaign', 'content'],
  clicks: ['day', 'visitor', 'placement', 'source', 'page', 'device', 'referrer_host', 'variants', 'campaign', 'content'],
} as const;

/**
 * The raw views and clicks of days from..to, counted per dimension, day and value in one read of each
 * raw table: what closing a day writes (server/jobs/closeDays.ts). One read rather than one query per
 * dimension, since each query would scan a busy day's rows again. The tally holds a set of visitor
 * hashes per value, bounded by the rows read.
 */
export async function readRawDayCounts(db: Kysely<Schema>, from: string, to: string = from): Promise<DayCountsByDimension> {
  const tallies = new Tallies();
  const [views, clicks] = await Promise.all([
    db.selectFrom('views').where('day', '>=', from).where('day', '<=', to).select(rawColumns.views).execute(),
    db.selectFrom('clicks').where('day', '>=', from).where('day', '<=', to).select(rawColumns.clicks).execute(),
  ]);
  for (const row of views) tallies.add(row, 'view');
  for (const row of clicks) tallies.add(row, 'click');
  return tallies.counts();
}
