import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { affiliatePlacements } from '../../shared/affiliate';
import { daysOf, type ReportRange } from '../dayCounts/reportRange';
import { earningsOf, mainCurrency, type Earnings } from '../dayCounts/earnings';
import { readDayCounts } from '../dayCounts/dayCounts';
import type { DayCountRow } from '../dayCounts/dimensions';
import type { OpenDayCounter } from '../dayCounts/openDays';
import { readReleasesReport, type ReleasesReport } from '../releases/releaseReport';
import { experiments as contentExperiments } from '../../shared/content/experiments';
import type { Experiment } from '../../shared/experiments/experiment';
import { readExperimentReports, type ExperimentReport } from '../experiments/experimentReport';
import { readFilteredCounts, type FilteredCounts } from './filteredCounts';
import { noPageReach, reachDimensions, reachReport, type PageReach, type PlacementReach } from './reachReport';
import { readCosts, readCostsReport, type CostsReport } from './sourceCosts';
import { previousPeriodOf, readPreviousPeriod, type PreviousPeriod } from './previousPeriod';
import { readPerDayOf, readTopValuesOf, readTopValuesPerDayWithTotals, readTopValuesWithTotal, type ValueLimit } from '../dayCounts/funnelQueries';
import { readPlacementDaySums, readSourceDaySums, readSourceSums, type CurrencySum, type SourceSum } from '../dayCounts/conversionSums';
import { groupBy } from '../lib/groupBy';

export interface ClickCount {
  clicks: number;
  /** Distinct visitor hashes; summed over days, since the hash changes every day (see server/beacons/visitorSalts.ts). */
  visitors: number;
}

/** A placement's clicks on a day or over the range, and what they earned. */
export type PlacementCount = ClickCount & Earnings;

/**
 * A placement over the range: its clicks and earnings, and its reach from the leave reports
 * (reachReport.ts): who saw it, their click-through, and its conversions and revenue per 1,000 who saw it
 * (null when nobody did).
 */
export type PlacementTotal = { placement: string } & PlacementCount &
  PlacementReach & { conversionsPerThousandSeen: number | null; revenuePerThousandSeen: number | null };

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
  /**
   * Every day of the range, oldest first, with counts per placement (every placement, zeros included)
   * and the day's top sources (otherSources adds up the rest, when there are more; none on the days
   * past daySourceDays).
   */
  days: { day: string; all: FunnelCount; placements: Record<string, PlacementCount>; sources: SourceCount[]; otherSources?: OtherSources }[];
  /** Per placement over the whole range, in page order; placements no longer on the site follow. */
  totals: PlacementTotal[];
  /**
   * `unattributed`: conversions that named no placement (they count in `conversions`, under no placement).
   * `leaves`: the leave reports that arrived for the range's views, and `leaveShare` their share of the
   * views (null without views): what share of visits the reach figures rest on.
   */
  all: FunnelCount & { unattributed: number; leaves: number; leaveShare: number | null };
  /** Per source over the range, most visitors first: the top sources (FunnelReportOptions), every one with 'all'. */
  sources: SourceCount[];
  /** The sources past the top ones added up, and how many they are; absent when every source is listed. */
  otherSources?: OtherSources;
  /** Clicks per device class, most first. */
  devices: { device: string; clicks: number }[];
  /** The ten referring hosts with most clicks; '' for none. */
  referrers: { host: string; clicks: number }[];
  /** The pages with most views (at most twenty), with the clicks made on them and their reach (reachReport.ts). */
  pages: ({ page: string; views: number; visitors: number; clicks: number; clickers: number } & PageReach)[];
  /** Each listed experiment over its whole life up to `to`, whatever the range (server/experiments/experimentReport.ts). */
  experiments: ExperimentReport[];
  /** The beacons' reports not counted over the range, per reason and per day (server/funnelReport/filteredCounts.ts). */
  filtered: FilteredCounts;
  /** The releases first served in the range (the newest 10), each compared per placement over the week before and after (server/releases/releaseReport.ts). */
  releases: ReleasesReport;
  /** The range's spend beside its earnings: per source (cost, profit, ROI, the verdict) and in total (server/funnelReport/sourceCosts.ts). */
  costs: CostsReport;
  /** The same number of days just before the range: its totals and each headline figure's change (previousPeriod.ts). */
  previous: PreviousPeriod;
}

/** Sources past the listed ones, added up. */
export interface OtherSources extends Omit<SourceCount, 'source'> {
  /** How many sources the row holds (a source seen on several days of a range may count once a day). */
  sourceCount: number;
}

export interface FunnelReportOptions {
  /** How many sources the range lists (20 unless said); the rest are added up in otherSources. */
  sources?: ValueLimit;
  /** How many sources each day lists (5 unless said). */
  daySources?: ValueLimit;
  /**
   * How many days list their sources: the newest with views, clicks or conversions (every day unless
   * said; /admin shows the newest 31, so reading a year of them would be a year's work for nothing).
   */
  daySourceDays?: number;
  /** Keeps the open days' counts between reports (a long-lived reader's); without it they are counted anew. */
  openDays?: OpenDayCounter;
  /** The experiments to report; shared/content/experiments.ts's unless given. */
  experiments?: readonly Experiment[];
  /** The moment the report is read (the clock's unless given): how far the week after a release has gone. */
  now?: Date;
}

/** What /admin and npm run stats list unless asked for every source. */
export const defaultSourceLimits = { sources: 20, daySources: 5 } as const;

const emptyCount = (): ClickCount => ({ clicks: 0, visitors: 0 });

function add(target: ClickCount, row: ClickCount): void {
  target.clicks += row.clicks;
  target.visitors += row.visitors;
}

/**
 * Reads the funnel of a range, on either engine: page views and clicks from the closed days' totals and
 * today's raw rows (see funnelQueries.ts), conversions from their sums (conversionSums.ts). Its cost
 * follows the days and values it lists, not the traffic behind them.
 */
export async function readFunnelReport(db: Kysely<Schema>, range: ReportRange, options: FunnelReportOptions = {}): Promise<FunnelReport> {
  const { sources: sourceLimit, daySources: daySourceLimit } = { ...defaultSourceLimits, ...options };
  const dayCounts = await readDayCounts(db, range.from, range.to, options.openDays);
  // The spend section's reads wait for nothing else: started now, they fill the connections' gaps rather
  // than adding their two rounds after the rest. Marked handled here, awaited below.
  const costReads = readCosts(db, range, dayCounts);
  costReads.catch(() => {});
  // The previous period's totals for the headline's change: one statement, waiting for nothing either.
  const previousReads = readPreviousPeriod(db, range, dayCounts);
  previousReads.catch(() => {});
  // Dimensions read alike share a statement: on PostgreSQL each statement waits for one of the pool's connections.
  const [[allPerDay = [], placementsPerDay = []], { top: topSources, total: sourceTotals }, [devices = [], referrers = [], pages = [], ...reachRows], placementDayConversions, sourceConversions] =
    await Promise.all([
      readPerDayOf(db, ['all', 'placement'], range, dayCounts),
      readTopValuesWithTotal(db, 'source', range, dayCounts, sourceLimit),
      readTopValuesOf(
        db,
        [
          { dimension: 'device', limit: 'all', by: 'clicks' },
          { dimension: 'referrer', limit: 10, by: 'clicks' },
          { dimension: 'page', limit: 20, by: 'views' },
          // Every value of the reach dimensions (some hundred: pages, sections, placements, time buckets).
          ...reachDimensions.map((dimension) => ({ dimension, limit: 'all' as const, by: 'clicks' as const })),
        ],
        range,
        dayCounts,
      ),
      readPlacementDaySums(db, range),
      readSourceSums(db, range),
    ]);
  const reach = reachReport(new Map(reachDimensions.map((dimension, index) => [dimension, reachRows[index] ?? []])));
  // Each day's sources, for the newest days with anything in them that are asked for.
  const activeDays = [...new Set([...allPerDay.filter((row) => row.views > 0 || row.clicks > 0).map((row) => row.day), ...placementDayConversions.map((row) => row.day)])].sort();
  const sourceDays = options.daySourceDays === undefined ? activeDays : activeDays.slice(-options.daySourceDays);
  const currency = mainCurrency(placementDayConversions);
  const listedSources = sourceRows(topSources, sourceTotals, sourceLimit, sourceConversions, currency);
  // The rest read side by side: on PostgreSQL over the report pool's connections, where one after another
  // each waited for the last; SQLite's one connection takes them in turn either way.
  const [[{ top: daySources, totals: daySourceTotals }, daySourceConversions], experiments, releases, filtered, costs] = await Promise.all([
    sourceDays.length === 0
      ? ([{ top: [], totals: [] }, []] as const)
      : Promise.all([
          readTopValuesPerDayWithTotals(db, 'source', { from: sourceDays[0]!, to: range.to }, dayCounts, daySourceLimit),
          readSourceDaySums(db, { from: sourceDays[0]!, to: range.to }),
        ]),
    readExperimentReports(db, dayCounts, range.to, currency, options.experiments ?? contentExperiments),
    readReleasesReport(db, range, dayCounts, currency, options.now),
    readFilteredCounts(db, range),
    costReads.then((reads) => readCostsReport(db, range, dayCounts, reads, listedSources.sources, { bySource: sourceConversions, byDay: placementDayConversions }, currency)),
  ]);
  const earnings = (rows: readonly CurrencySum[] = []) => earningsOf(rows, currency);

  const knownPlacements: readonly string[] = affiliatePlacements;
  const seen = [...placementsPerDay.map((row) => row.value), ...placementDayConversions.map((row) => row.placement)];
  const retired = [...new Set(seen)].filter((placement) => placement !== '' && !knownPlacements.includes(placement)).sort();
  const placements = [...knownPlacements, ...retired];

  const dayTotals = new Map(allPerDay.map((row) => [row.day, row]));
  const placementClicks = new Map(placementsPerDay.map((row) => [`${row.day} ${row.value}`, { clicks: row.clicks, visitors: row.clickers }]));
  const conversionsByDay = groupBy(placementDayConversions, (row) => row.day);
  const daySourcesByDay = groupBy(daySources, (row) => row.day);
  const daySourceConversionsByDay = groupBy(daySourceConversions, (row) => row.day);
  const daySourceTotalsByDay = new Map(daySourceTotals.map((row) => [row.day, row]));

  const days: FunnelReport['days'] = [];
  for (const day of daysOf(range)) {
    const dayConversions = conversionsByDay.get(day) ?? [];
    const listsSources = sourceDays.length > 0 && day >= sourceDays[0]!;
    const byPlacement = groupBy(dayConversions, (row) => row.placement);
    const totals = dayTotals.get(day);
    const sources = listsSources
      ? sourceRows(daySourcesByDay.get(day) ?? [], daySourceTotalsByDay.get(day), daySourceLimit, daySourceConversionsByDay.get(day) ?? [], currency)
      : { sources: [] };
    days.push({
      day,
      all: { clicks: totals?.clicks ?? 0, visitors: totals?.clickers ?? 0, views: totals?.views ?? 0, viewVisitors: totals?.visitors ?? 0, ...earnings(dayConversions) },
      placements: Object.fromEntries(
        placements.map((placement) => [placement, { ...(placementClicks.get(`${day} ${placement}`) ?? emptyCount()), ...earnings(byPlacement.get(placement)) }]),
      ),
      ...sources,
    });
  }

  const conversionsByPlacement = groupBy(placementDayConversions, (row) => row.placement);
  const totals = placements.map((placement) => {
    const total = emptyCount();
    for (const entry of days) add(total, entry.placements[placement] ?? emptyCount());
    const earned = earnings(conversionsByPlacement.get(placement));
    const { seen, seenClickers, seenClickThrough } = reach.placements.get(placement) ?? { seen: 0, seenClickers: 0, seenClickThrough: null };
    const perThousandSeen = (figure: number) => (seen === 0 ? null : (figure / seen) * 1000);
    return {
      placement,
      ...total,
      ...earned,
      seen,
      seenClickers,
      seenClickThrough,
      conversionsPerThousandSeen: perThousandSeen(earned.conversions),
      revenuePerThousandSeen: perThousandSeen(earned.revenue),
    };
  });
  const all = { ...emptyCount(), views: 0, viewVisitors: 0 };
  for (const entry of days) {
    add(all, entry.all);
    all.views += entry.all.views;
    all.viewVisitors += entry.all.viewVisitors;
  }
  const allEarnings = earnings(placementDayConversions);
  const unattributed = earnings(conversionsByPlacement.get('')).conversions;
  const previous = previousPeriodOf(await previousReads, currency, { ...all, ...allEarnings, ...costs.all });

  return {
    from: range.from,
    to: range.to,
    currency,
    currencies: Object.keys(allEarnings.revenueByCurrency),
    days,
    totals,
    all: { ...all, ...allEarnings, unattributed, leaves: reach.leaves, leaveShare: all.views === 0 ? null : reach.leaves / all.views },
    ...listedSources,
    devices: devices.filter((row) => row.clicks > 0).map((row) => ({ device: row.value, clicks: row.clicks })),
    referrers: referrers.filter((row) => row.clicks > 0).map((row) => ({ host: row.value, clicks: row.clicks })),
    pages: pages.map(({ value, views, visitors, clicks, clickers }) => ({ page: value, views, visitors, clicks, clickers, ...(reach.pages.get(value) ?? noPageReach(value)) })),
    experiments,
    filtered,
    releases,
    costs,
    previous,
  };
}


/** The order sources are shown in: most visitors, then most clicks, then most conversions, '' (not known) after named ones, then A to Z. */
function sourceOrder(a: SourceCount, b: SourceCount): number {
  return b.visitors - a.visitors || b.clicks - a.clicks || b.conversions - a.conversions || Number(a.source === '') - Number(b.source === '') || a.source.localeCompare(b.source);
}

/**
 * Source rows with their earnings (a range's, or one day's), and the sources past the listed ones added
 * up. When every source with views or clicks is listed, sources that only converted are listed too;
 * otherwise their conversions count among the others.
 */
function sourceRows(
  listed: readonly DayCountRow[],
  total: DayCountRow | undefined,
  limit: ValueLimit,
  conversions: readonly SourceSum[],
  currency: string,
): { sources: SourceCount[]; otherSources?: OtherSources } {
  const conversionsBySource = groupBy(conversions, (row) => row.source);
  const complete = limit === 'all' || listed.length < limit;
  const names = new Set(listed.map((row) => row.value));
  const sources: SourceCount[] = listed.map((row) => ({
    source: row.value,
    visitors: row.visitors,
    clicks: row.clicks,
    clickers: row.clickers,
    ...earningsOf(conversionsBySource.get(row.value) ?? [], currency),
  }));
  const unlisted = [...conversionsBySource].filter(([source]) => !names.has(source));
  if (complete) {
    sources.push(...unlisted.map(([source, rows]) => ({ source, visitors: 0, clicks: 0, clickers: 0, ...earningsOf(rows, currency) })));
    return { sources: sources.sort(sourceOrder) };
  }
  const sum = (key: 'visitors' | 'clicks' | 'clickers') => (total?.[key] ?? 0) - listed.reduce((summed, row) => summed + row[key], 0);
  const otherSources: OtherSources = {
    sourceCount: (total?.distinctValues ?? 0) - listed.length + unlisted.filter(([source]) => source !== '').length,
    visitors: sum('visitors'),
    clicks: sum('clicks'),
    clickers: sum('clickers'),
    ...earningsOf(unlisted.flatMap(([, rows]) => rows), currency),
  };
  sources.sort(sourceOrder);
  return otherSources.sourceCount > 0 || otherSources.conversions > 0 ? { sources, otherSources } : { sources };
}
