import { sql, type Kysely } from 'kysely';
import { countedConversions } from '../conversions/conversionStore';
import type { Schema } from '../db/schema';
import type { ReportRange } from './reportRange';

/**
 * The funnel's reads of a range, on either engine: page views, views and clicks per source, and
 * conversions. Each adds the raw rows of recent days to the folded rows of days past retention; the
 * fold deletes what it folds, so the two never count the same view, click or conversion twice.
 * Counts are passed through Number(): PostgreSQL's drivers hand back bigint counts and sums as text.
 */

export interface DayViews {
  day: string;
  views: number;
  /** Distinct visitor hashes of the day. */
  visitors: number;
}

/** One day's (raw) or one folded day's counts for a source; '' is a source not known. */
export interface SourceDayCount {
  day: string;
  source: string;
  views: number;
  visitors: number;
  clicks: number;
  clickers: number;
}

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

/** Page views and distinct viewers per day. */
export async function readViewsPerDay(db: Kysely<Schema>, { from, to }: ReportRange): Promise<DayViews[]> {
  const [raw, folded] = await Promise.all([
    db
      .selectFrom('views')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .select((eb) => ['day', eb.fn.countAll<number>().as('views'), eb.fn.count<number>('visitor').distinct().as('visitors')])
      .execute(),
    // '*' is the folded day's views of every source together (visitors cannot be summed across sources).
    db.selectFrom('daily_sources').where('day', '>=', from).where('day', '<=', to).where('source', '=', '*').select(['day', 'views', 'visitors']).execute(),
  ]);
  return [...raw, ...folded].map((row) => ({ day: row.day, views: Number(row.views), visitors: Number(row.visitors) }));
}

/** Views, visitors, clicks and visitors who clicked, per source and day (several rows of a day and source are summed by the caller). */
export async function readSourceCounts(db: Kysely<Schema>, { from, to }: ReportRange): Promise<SourceDayCount[]> {
  const [views, clicks, folded] = await Promise.all([
    db
      .selectFrom('views')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['day', 'source'])
      .select((eb) => ['day', eb.fn.coalesce('source', sql.lit('')).as('source'), eb.fn.countAll<number>().as('views'), eb.fn.count<number>('visitor').distinct().as('visitors')])
      .execute(),
    db
      .selectFrom('clicks')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['day', 'source'])
      .select((eb) => ['day', eb.fn.coalesce('source', sql.lit('')).as('source'), eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('clickers')])
      .execute(),
    db
      .selectFrom('daily_sources')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .where('source', '<>', '*')
      .select(['day', 'source', 'views', 'visitors', 'clicks', 'clickers'])
      .execute(),
  ]);
  return [
    ...views.map((row) => ({ day: row.day, source: row.source, views: Number(row.views), visitors: Number(row.visitors), clicks: 0, clickers: 0 })),
    ...clicks.map((row) => ({ day: row.day, source: row.source, views: 0, visitors: 0, clicks: Number(row.clicks), clickers: Number(row.clickers) })),
    ...folded.map((row) => ({ day: row.day, source: row.source, views: Number(row.views), visitors: Number(row.visitors), clicks: Number(row.clicks), clickers: Number(row.clickers) })),
  ];
}

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

export interface ClickCounts {
  /** Clicks and distinct visitors per day and placement; folded days also have placement '*', all placements together. */
  perPlacement: { day: string; placement: string; clicks: number; visitors: number }[];
  /** Raw days' clicks and distinct visitors of all placements together. */
  perDay: { day: string; clicks: number; visitors: number }[];
  /** From raw clicks only (folded days no longer have them), most first. */
  devices: { device: string; clicks: number }[];
  /** The ten referring hosts with most raw clicks; '' for none. */
  referrers: { host: string; clicks: number }[];
}

/** Clicks per day and placement, and raw clicks by device and referring host. */
export async function readClickCounts(db: Kysely<Schema>, { from, to }: ReportRange): Promise<ClickCounts> {
  const inRange = db.selectFrom('clicks').where('day', '>=', from).where('day', '<=', to);
  const [raw, folded, perDay, devices, referrers] = await Promise.all([
    inRange
      .groupBy(['day', 'placement'])
      .select((eb) => ['day', 'placement', eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('visitors')])
      .execute(),
    db.selectFrom('daily_totals').where('day', '>=', from).where('day', '<=', to).select(['day', 'placement', 'clicks', 'visitors']).execute(),
    inRange
      .groupBy('day')
      .select((eb) => ['day', eb.fn.countAll<number>().as('clicks'), eb.fn.count<number>('visitor').distinct().as('visitors')])
      .execute(),
    inRange
      .groupBy('device')
      .select((eb) => ['device', eb.fn.countAll<number>().as('clicks')])
      .orderBy('clicks', 'desc')
      .orderBy('device')
      .execute(),
    inRange
      .groupBy('referrer_host')
      .select((eb) => [eb.fn.coalesce('referrer_host', sql.lit('')).as('host'), eb.fn.countAll<number>().as('clicks')])
      .orderBy('clicks', 'desc')
      .orderBy('host')
      .limit(10)
      .execute(),
  ]);
  const count = <Row extends { clicks: number; visitors: number }>(row: Row): Row => ({ ...row, clicks: Number(row.clicks), visitors: Number(row.visitors) });
  return {
    perPlacement: [...raw, ...folded].map(count),
    perDay: perDay.map(count),
    devices: devices.map((row) => ({ ...row, clicks: Number(row.clicks) })),
    referrers: referrers.map((row) => ({ ...row, clicks: Number(row.clicks) })),
  };
}
