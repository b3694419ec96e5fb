import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { affiliatePlacements } from '../../shared/affiliate';
import { daysOf, type ReportRange } from './reportRange';
import { earningsOf, mainCurrency, type Earnings } from './earnings';
import { readClickCounts, readConversionCounts, readSourceCounts, readViewsPerDay, type ConversionCount, type SourceDayCount } from './funnelQueries';

export interface ClickCount {
  clicks: number;
  /** Distinct visitor hashes; summed over days, since the hash changes every day (see visitorHash.ts). */
  visitors: number;
}

/** A placement's clicks on a day or over the range, and what they earned. */
export type PlacementCount = ClickCount & Earnings;

/** A day's or the range's funnel: page views, clicks (visitors here are visitors who clicked), what they earned. */
export interface FunnelCount extends ClickCount, Earnings {
  views: number;
  /** Visitors who viewed a page, counted as `visitors` is. */
  viewVisitors: number;
}

/** What brought visitors ('' when not known: a ping without JavaScript, a full reload from this site, a conversion without its click). */
export interface SourceCount extends Earnings {
  source: string;
  /** Visitors who viewed a page. */
  visitors: number;
  clicks: number;
  /** Visitors who clicked. */
  clickers: number;
}

/**
 * Conversions count under the day of their click, so a range's conversions are what the range's clicks
 * earned (conversion rate = conversions / clicks); one whose click is not known counts under the day it
 * arrived. Reversed conversions (refunds, chargebacks) count nowhere.
 */
export interface FunnelReport {
  /** First and last UTC day of the report, both included. */
  from: string;
  to: string;
  /** The currency of every `revenue`: the one with most conversions in the range (ties A to Z), USD when none. */
  currency: string;
  /** Every currency with revenue in the range, the main one first, then A to Z. */
  currencies: string[];
  /** Every day of the range, oldest first, with counts per placement (every placement, zeros included). */
  days: { day: string; all: FunnelCount; placements: Record<string, PlacementCount>; sources: SourceCount[] }[];
  /** Per placement over the whole range, in page order; placements no longer on the site follow. */
  totals: ({ placement: string } & PlacementCount)[];
  /** `unattributed`: conversions that named no placement (they count in `conversions`, under no placement). */
  all: FunnelCount & { unattributed: number };
  /** Per source over the range, most visitors first. */
  sources: SourceCount[];
  /** From raw clicks only (days folded into daily totals no longer have them), most first. */
  devices: { device: string; clicks: number }[];
  referrers: { host: string; clicks: number }[];
}

const emptyCount = (): ClickCount => ({ clicks: 0, visitors: 0 });

function add(target: ClickCount, row: ClickCount): void {
  target.clicks += row.clicks;
  target.visitors += row.visitors;
}

function groupBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * Reads the funnel of a range, on either engine: page views, clicks and conversions, from raw rows for
 * recent days and from the daily totals for days past the retention period.
 */
export async function readFunnelReport(db: Kysely<Schema>, range: ReportRange): Promise<FunnelReport> {
  const [clicks, viewsPerDay, sourceCounts, conversions] = await Promise.all([
    readClickCounts(db, range),
    readViewsPerDay(db, range),
    readSourceCounts(db, range),
    readConversionCounts(db, range),
  ]);
  const currency = mainCurrency(conversions);
  const earnings = (rows: readonly ConversionCount[] = []) => earningsOf(rows, currency);

  const knownPlacements: readonly string[] = affiliatePlacements;
  const seen = [...clicks.perPlacement.map((row) => row.placement), ...conversions.map((row) => row.placement)];
  const retired = [...new Set(seen)].filter((placement) => placement !== '*' && placement !== '' && !knownPlacements.includes(placement)).sort();
  const placements = [...knownPlacements, ...retired];

  const dayClicks = new Map<string, ClickCount>();
  const placementClicks = new Map<string, ClickCount>();
  const tally = (map: Map<string, ClickCount>, key: string, row: ClickCount) => {
    if (!map.has(key)) map.set(key, emptyCount());
    add(map.get(key)!, row);
  };
  // Folded days keep their all-placements count under '*'; raw days get theirs from perDay.
  for (const row of clicks.perPlacement) {
    if (row.placement === '*') tally(dayClicks, row.day, row);
    else tally(placementClicks, `${row.day} ${row.placement}`, row);
  }
  for (const row of clicks.perDay) tally(dayClicks, row.day, row);
  const dayViews = new Map<string, { views: number; viewVisitors: number }>();
  for (const row of viewsPerDay) {
    const views = dayViews.get(row.day) ?? { views: 0, viewVisitors: 0 };
    dayViews.set(row.day, { views: views.views + row.views, viewVisitors: views.viewVisitors + row.visitors });
  }
  const conversionsByDay = groupBy(conversions, (row) => row.day);
  const sourceCountsByDay = groupBy(sourceCounts, (row) => row.day);

  const days: FunnelReport['days'] = [];
  for (const day of daysOf(range)) {
    const dayConversions = conversionsByDay.get(day) ?? [];
    const byPlacement = groupBy(dayConversions, (row) => row.placement);
    days.push({
      day,
      all: { ...(dayClicks.get(day) ?? emptyCount()), ...(dayViews.get(day) ?? { views: 0, viewVisitors: 0 }), ...earnings(dayConversions) },
      placements: Object.fromEntries(
        placements.map((placement) => [placement, { ...(placementClicks.get(`${day} ${placement}`) ?? emptyCount()), ...earnings(byPlacement.get(placement)) }]),
      ),
      sources: sourceRows(sourceCountsByDay.get(day) ?? [], dayConversions, currency),
    });
  }

  const conversionsByPlacement = groupBy(conversions, (row) => row.placement);
  const totals = placements.map((placement) => {
    const total = emptyCount();
    for (const entry of days) add(total, entry.placements[placement] ?? emptyCount());
    return { placement, ...total, ...earnings(conversionsByPlacement.get(placement)) };
  });
  const all = { ...emptyCount(), views: 0, viewVisitors: 0 };
  for (const entry of days) {
    add(all, entry.all);
    all.views += entry.all.views;
    all.viewVisitors += entry.all.viewVisitors;
  }
  const allEarnings = earnings(conversions);
  const unattributed = earnings(conversionsByPlacement.get('')).conversions;

  return {
    from: range.from,
    to: range.to,
    currency,
    currencies: Object.keys(allEarnings.revenueByCurrency),
    days,
    totals,
    all: { ...all, ...allEarnings, unattributed },
    sources: sourceRows(sourceCounts, conversions, currency),
    devices: clicks.devices,
    referrers: clicks.referrers,
  };
}

/** Sources with their views, clicks and earnings summed over the rows given (a range, or one day): most visitors first, then most clicks, then A to Z, '' last. */
function sourceRows(counts: readonly SourceDayCount[], conversions: readonly ConversionCount[], currency: string): SourceCount[] {
  const totals = new Map<string, { visitors: number; clicks: number; clickers: number }>();
  for (const row of counts) {
    const total = totals.get(row.source) ?? { visitors: 0, clicks: 0, clickers: 0 };
    totals.set(row.source, { visitors: total.visitors + row.visitors, clicks: total.clicks + row.clicks, clickers: total.clickers + row.clickers });
  }
  const conversionsBySource = groupBy(conversions, (row) => row.source);
  return [...new Set([...totals.keys(), ...conversionsBySource.keys()])]
    .map((source) => ({ source, ...(totals.get(source) ?? { visitors: 0, clicks: 0, clickers: 0 }), ...earningsOf(conversionsBySource.get(source) ?? [], currency) }))
    .sort(
      (a, b) =>
        b.visitors - a.visitors || b.clicks - a.clicks || b.conversions - a.conversions || Number(a.source === '') - Number(b.source === '') || a.source.localeCompare(b.source),
    );
}
