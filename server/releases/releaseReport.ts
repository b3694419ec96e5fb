import type { Kysely } from 'kysely';
import { affiliatePlacements } from '../../shared/affiliate';
import type { Schema } from '../db/schema';
import { readDayCounts, type DayCounts } from '../dayCounts/dayCounts';
import { readPerDayOf } from '../dayCounts/funnelQueries';
import { readPlacementDaySums, type PlacementDaySum } from '../dayCounts/conversionSums';
import type { ReportRange } from '../dayCounts/reportRange';
import type { DayCountRow } from '../dayCounts/dimensions';
import { addDays, dayMs, dayStart, utcDay } from '../lib/utcDay';
import { earningsPerClickInterval, wilsonInterval, type Interval } from './intervals';
import { shortStamp } from './recordRelease';

/** A report compares at most this many releases, the newest first served in its range. */
export const maxReportedReleases = 10;

/** Days in each window: the week before a release's day, and the week from it. */
export const windowDays = 7;

/** A placement's figures over the days of one window. */
export interface ReleaseWindow {
  /** First and last UTC day, both included. */
  from: string;
  to: string;
  /** 7, or fewer for a week after that is not over yet (today counts, as far as it has gone); 0 when it has not begun. */
  days: number;
  /** Page views of the whole site: what a placement's click-through is out of. */
  views: number;
  clicks: number;
  /** Conversions of these clicks paid in the report's currency, and what they paid in it. */
  conversions: number;
  revenue: number;
  /** clicks / views and its 95% Wilson interval; null with no views. */
  clickThrough: number | null;
  clickThroughInterval: Interval | null;
  /** revenue / clicks, in the report's currency, and its 95% interval (intervals.ts); null with no clicks, or no payout known. */
  earningsPerClick: number | null;
  earningsPerClickInterval: Interval | null;
}

/** A release first served in the report's range, and per placement the week before its day against the week from it. */
export interface ReleaseComparison {
  /** The build stamp's first twelve hex digits. */
  stamp: string;
  /** When an instance first served it (ISO 8601, UTC), and that UTC day. */
  firstServedAt: string;
  day: string;
  /** The content and artwork files changed since the release before (see releaseNote.ts). */
  note: string;
  placements: { placement: string; before: ReleaseWindow; after: ReleaseWindow }[];
}

/**
 * Releases in a report: an observation, not a controlled test. Whatever else changed in those weeks
 * (the season, a campaign, a network's payout) is mixed into the difference.
 */
export interface ReleasesReport {
  /** How many releases were first served in the range; the newest maxReportedReleases of them are compared. */
  inRange: number;
  /** Newest first. */
  compared: ReleaseComparison[];
}

interface Window {
  from: string;
  to: string;
  days: number;
}

/** The week before a release's day, and the week from it as far as today. */
function windowsOf(day: string, today: string): { before: Window; after: Window } {
  const afterTo = addDays(day, windowDays - 1) < today ? addDays(day, windowDays - 1) : today;
  const afterDays = afterTo < day ? 0 : Math.round((dayStart(afterTo) - dayStart(day)) / dayMs) + 1;
  return {
    before: { from: addDays(day, -windowDays), to: addDays(day, -1), days: windowDays },
    after: { from: day, to: afterDays === 0 ? day : afterTo, days: afterDays },
  };
}

/**
 * The day counts the funnel report read, when they cover the windows' days (they cover every closed day,
 * and the open ones of its range); otherwise those of the windows' span (a past range whose last
 * release's week reaches past its end, or a database with no closed day yet).
 */
async function dayCountsFor(db: Kysely<Schema>, span: ReportRange, range: ReportRange, dayCounts: DayCounts): Promise<DayCounts> {
  if (span.to <= range.to && (dayCounts.lastClosed !== '' || span.from >= range.from)) return dayCounts;
  return readDayCounts(db, span.from, span.to);
}

/**
 * The releases first served in the range (the newest maxReportedReleases), each compared per placement
 * over the week before its day and the week from it (fewer days while that week is not over at `now`).
 * Read from the same daily totals as the funnel, over the windows' span only: its cost follows days and
 * placements, never the traffic behind them.
 */
export async function readReleasesReport(
  db: Kysely<Schema>,
  range: ReportRange,
  dayCounts: DayCounts,
  currency: string,
  now: Date = new Date(),
): Promise<ReleasesReport> {
  const fromMs = dayStart(range.from);
  const toMs = dayStart(range.to) + dayMs;
  const inRange = db.selectFrom('releases').where('first_served_at', '>=', fromMs).where('first_served_at', '<', toMs);
  const [counted, rows] = await Promise.all([
    inRange.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
    inRange.select(['stamp', 'first_served_at', 'note']).orderBy('first_served_at', 'desc').orderBy('stamp').limit(maxReportedReleases).execute(),
  ]);
  if (rows.length === 0) return { inRange: 0, compared: [] };

  const today = utcDay(now);
  const releases = rows.map((row) => {
    const at = new Date(Number(row.first_served_at));
    const day = utcDay(at);
    return { stamp: shortStamp(row.stamp), firstServedAt: at.toISOString(), day, note: row.note, ...windowsOf(day, today) };
  });
  const span = {
    from: releases.reduce((first, release) => (release.before.from < first ? release.before.from : first), releases[0]!.before.from),
    to: releases.reduce((last, release) => (release.after.to > last ? release.after.to : last), releases[0]!.after.to),
  };
  const spanCounts = await dayCountsFor(db, span, range, dayCounts);
  const [[allPerDay = [], placementsPerDay = []], conversions] = await Promise.all([readPerDayOf(db, ['all', 'placement'], span, spanCounts), readPlacementDaySums(db, span)]);
  const paid = conversions.filter((row) => row.currency === currency);
  const seen = [...placementsPerDay.map((row) => row.value), ...paid.map((row) => row.placement)];
  const known: readonly string[] = affiliatePlacements;
  const placements = [...known, ...[...new Set(seen)].filter((placement) => placement !== '' && !known.includes(placement)).sort()];
  const everyMean = meanPayout(paid);

  return {
    inRange: Number(counted?.count ?? rows.length),
    compared: releases.map(({ before, after, ...release }) => ({
      ...release,
      placements: placements.map((placement) => {
        const sums = [before, after].map((window) => sumWindow(window, placement, allPerDay, placementsPerDay, paid));
        const placementMean = meanPayout(paid.filter((row) => row.placement === placement && inWindow(row.day, before, after)));
        const fallbackMean = placementMean ?? everyMean;
        return { placement, before: windowFigures(before, sums[0]!, fallbackMean), after: windowFigures(after, sums[1]!, fallbackMean) };
      }),
    })),
  };
}

const within = (day: string, window: Window) => window.days > 0 && day >= window.from && day <= window.to;
const inWindow = (day: string, ...windows: Window[]) => windows.some((window) => within(day, window));

interface WindowSums {
  views: number;
  clicks: number;
  conversions: number;
  micros: number;
}

function sumWindow(window: Window, placement: string, allPerDay: readonly DayCountRow[], placementsPerDay: readonly DayCountRow[], paid: readonly PlacementDaySum[]): WindowSums {
  const sums: WindowSums = { views: 0, clicks: 0, conversions: 0, micros: 0 };
  for (const row of allPerDay) if (within(row.day, window)) sums.views += row.views;
  for (const row of placementsPerDay) if (row.value === placement && within(row.day, window)) sums.clicks += row.clicks;
  for (const row of paid) {
    if (row.placement !== placement || !within(row.day, window)) continue;
    sums.conversions += row.conversions;
    sums.micros += row.micros;
  }
  return sums;
}

/** The mean payout of some conversions, in currency units; undefined with none. */
function meanPayout(rows: readonly PlacementDaySum[]): number | undefined {
  const conversions = rows.reduce((sum, row) => sum + row.conversions, 0);
  return conversions > 0 ? rows.reduce((sum, row) => sum + row.micros, 0) / 1_000_000 / conversions : undefined;
}

function windowFigures(window: Window, { views, clicks, conversions, micros }: WindowSums, fallbackMean: number | undefined): ReleaseWindow {
  const revenue = micros / 1_000_000;
  const mean = conversions > 0 ? revenue / conversions : fallbackMean;
  return {
    ...window,
    views,
    clicks,
    conversions,
    revenue,
    clickThrough: views > 0 ? clicks / views : null,
    clickThroughInterval: wilsonInterval(clicks, views),
    earningsPerClick: clicks > 0 ? revenue / clicks : null,
    earningsPerClickInterval: earningsPerClickInterval(conversions, clicks, mean),
  };
}
