import type Database from 'better-sqlite3';
import { affiliatePlacements } from '../../shared/affiliate';
import { addDays, isDay, utcDay } from './utcDay';

export interface ClickCount {
  clicks: number;
  /** Distinct visitor hashes; summed over days, since the hash changes every day (see visitorHash.ts). */
  visitors: number;
}

export interface ClickReport {
  /** First and last UTC day of the report, both included. */
  from: string;
  to: string;
  /** Every day of the range, oldest first, with counts per placement (every placement, zeros included). */
  days: { day: string; all: ClickCount; placements: Record<string, ClickCount> }[];
  /** Per placement over the whole range, in page order; placements no longer on the site follow. */
  totals: { placement: string; clicks: number; visitors: number }[];
  all: ClickCount;
  /** From raw clicks only (days folded into daily totals no longer have them), most first. */
  devices: { device: string; clicks: number }[];
  referrers: { host: string; clicks: number }[];
}

export interface ReportRange {
  from: string;
  to: string;
}

/** A report range could not be understood: the message says what to write instead. */
export class ReportRangeError extends Error {
  override name = 'ReportRangeError';
}

/** The longest range a report covers, so a typo cannot ask for a million-row table. */
export const maxReportDays = 3660;

/** The range for "the last N days", today (UTC) included, or an explicit from/to; each missing end defaults sensibly. */
export function reportRange(options: { days?: number; from?: string; to?: string }, now: Date = new Date()): ReportRange {
  for (const [name, value] of [['from', options.from], ['to', options.to]] as const) {
    if (value !== undefined && !isDay(value)) throw new ReportRangeError(`${name} must be a date written YYYY-MM-DD, got "${value}"`);
  }
  const days = options.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > maxReportDays) {
    throw new ReportRangeError(`days must be a whole number from 1 to ${maxReportDays}, got "${options.days}"`);
  }
  const to = options.to ?? (options.from ? addDays(options.from, days - 1) : utcDay(now));
  const from = options.from ?? addDays(to, -(days - 1));
  if (from > to) throw new ReportRangeError(`from (${from}) must not be after to (${to})`);
  if (Date.parse(to) - Date.parse(from) >= maxReportDays * 86_400_000) {
    throw new ReportRangeError(`a report covers at most ${maxReportDays} days`);
  }
  return { from, to };
}

/** A part of a whole as a whole percentage, "–" when the whole is nothing; the terminal and /admin show the same. */
export const share = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`);

const emptyCount = (): ClickCount => ({ clicks: 0, visitors: 0 });

function add(target: ClickCount, row: ClickCount): void {
  target.clicks += row.clicks;
  target.visitors += row.visitors;
}

/** Reads the clicks of a range: raw rows for recent days, daily totals for days past the retention period. */
export function readClickReport(db: Database.Database, { from, to }: ReportRange): ClickReport {
  const range = { from, to };
  const perPlacement = db
    .prepare(
      `SELECT day, placement, count(*) AS clicks, count(DISTINCT visitor) AS visitors
         FROM clicks WHERE day BETWEEN @from AND @to GROUP BY day, placement
       UNION ALL
       SELECT day, placement, clicks, visitors FROM daily_totals WHERE day BETWEEN @from AND @to`,
    )
    .all(range) as { day: string; placement: string; clicks: number; visitors: number }[];
  const perDay = db
    .prepare(`SELECT day, count(*) AS clicks, count(DISTINCT visitor) AS visitors FROM clicks WHERE day BETWEEN @from AND @to GROUP BY day`)
    .all(range) as { day: string; clicks: number; visitors: number }[];

  const knownPlacements: readonly string[] = affiliatePlacements;
  const retired = [...new Set(perPlacement.map((row) => row.placement))].filter((placement) => placement !== '*' && !knownPlacements.includes(placement)).sort();
  const placements = [...knownPlacements, ...retired];

  const days: ClickReport['days'] = [];
  const byDay = new Map<string, ClickReport['days'][number]>();
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const entry = { day, all: emptyCount(), placements: Object.fromEntries(placements.map((placement) => [placement, emptyCount()])) };
    days.push(entry);
    byDay.set(day, entry);
  }
  for (const row of perPlacement) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    // Folded days keep their all-placements count under '*'; raw days get theirs from perDay below.
    if (row.placement === '*') add(entry.all, row);
    else add(entry.placements[row.placement] ?? emptyCount(), row);
  }
  for (const row of perDay) {
    const entry = byDay.get(row.day);
    if (entry) add(entry.all, row);
  }

  const totals = placements.map((placement) => {
    const total = emptyCount();
    for (const entry of days) add(total, entry.placements[placement] ?? emptyCount());
    return { placement, ...total };
  });
  const all = emptyCount();
  for (const entry of days) add(all, entry.all);

  const devices = db
    .prepare(`SELECT device, count(*) AS clicks FROM clicks WHERE day BETWEEN @from AND @to GROUP BY device ORDER BY clicks DESC, device`)
    .all(range) as { device: string; clicks: number }[];
  const referrers = db
    .prepare(
      `SELECT coalesce(referrer_host, '') AS host, count(*) AS clicks FROM clicks WHERE day BETWEEN @from AND @to
       GROUP BY host ORDER BY clicks DESC, host LIMIT 10`,
    )
    .all(range) as { host: string; clicks: number }[];

  return { from, to, days, totals, all, devices, referrers };
}
