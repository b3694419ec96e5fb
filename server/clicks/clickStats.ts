import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { affiliatePlacements } from '../../shared/affiliate';
import { addDays, isDay, utcDay } from './utcDay';

export interface ClickCount {
  clicks: number;
  /** Distinct visitor hashes; summed over days, since the hash changes every day (see visitorHash.ts). */
  visitors: number;
}

export interface ClickStats {
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
  // Number(): counts may arrive as strings from a driver; the sum must never become text.
  target.clicks += Number(row.clicks);
  target.visitors += Number(row.visitors);
}

const counted = <Row extends { clicks: number }>(row: Row): Row => ({ ...row, clicks: Number(row.clicks) });

/** Reads the clicks of a range, on either engine: raw rows for recent days, daily totals for days past the retention period. */
export async function readClickStats(db: Kysely<Schema>, { from, to }: ReportRange): Promise<ClickStats> {
  const inRange = db.selectFrom('clicks').where('day', '>=', from).where('day', '<=', to);
  const [rawPerPlacement, folded, perDay, devices, referrers] = await Promise.all([
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
  const perPlacement = [...rawPerPlacement, ...folded];

  const knownPlacements: readonly string[] = affiliatePlacements;
  const retired = [...new Set(perPlacement.map((row) => row.placement))].filter((placement) => placement !== '*' && !knownPlacements.includes(placement)).sort();
  const placements = [...knownPlacements, ...retired];

  const days: ClickStats['days'] = [];
  const byDay = new Map<string, ClickStats['days'][number]>();
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

  return { from, to, days, totals, all, devices: devices.map(counted), referrers: referrers.map(counted) };
}
