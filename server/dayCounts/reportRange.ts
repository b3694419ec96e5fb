import { addDays, dayMs, isDay, utcDay } from '../lib/utcDay';

/** First and last UTC day of a report, both included. */
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

/**
 * The span of days a report may name. Outside it there is nothing to report, and past 9999-12-31 the
 * day arithmetic leaves the YYYY-MM-DD form (the day after is +010000-01-01, which sorts before it), so
 * every date is checked against this span before any loop over days runs.
 */
export const firstReportDay = '2000-01-01';
export const lastReportDay = '2100-12-31';

const inSpan = (day: string) => day >= firstReportDay && day <= lastReportDay;

/** The range for "the last N days", today (UTC) included, or an explicit from/to; each missing end defaults sensibly. */
export function reportRange(options: { days?: number; from?: string; to?: string }, now: Date = new Date()): ReportRange {
  for (const [name, value] of [['from', options.from], ['to', options.to]] as const) {
    if (value === undefined) continue;
    if (!isDay(value)) throw new ReportRangeError(`${name} must be a date written YYYY-MM-DD, got "${value}"`);
    if (!inSpan(value)) throw new ReportRangeError(`${name} must be a date from ${firstReportDay} to ${lastReportDay}, got "${value}"`);
  }
  const days = options.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > maxReportDays) {
    throw new ReportRangeError(`days must be a whole number from 1 to ${maxReportDays}, got "${options.days}"`);
  }
  const today = utcDay(now);
  if (!inSpan(today)) throw new ReportRangeError(`this machine's clock says ${today}, outside ${firstReportDay} to ${lastReportDay}`);
  const to = options.to ?? (options.from ? addDays(options.from, days - 1) : today);
  const from = options.from ?? addDays(to, -(days - 1));
  if (!inSpan(from) || !inSpan(to)) throw new ReportRangeError(`a report covers days from ${firstReportDay} to ${lastReportDay}, not ${from} to ${to}`);
  if (from > to) throw new ReportRangeError(`from (${from}) must not be after to (${to})`);
  if (Date.parse(to) - Date.parse(from) >= maxReportDays * dayMs) {
    throw new ReportRangeError(`a report covers at most ${maxReportDays} days`);
  }
  return { from, to };
}

/** Every day of a range, oldest first; at most maxReportDays, whatever the range says. */
export function daysOf({ from, to }: ReportRange): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length < maxReportDays; day = addDays(day, 1)) days.push(day);
  return days;
}
