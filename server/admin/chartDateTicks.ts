import { addDays, addMonths, dayMs, dayStart, firstDayOf, monthOf } from '../lib/utcDay';
import type { BucketSize } from './chartBuckets';

/*
 * The time axis of /admin's main chart (issue 43): ticks at round dates, as few as still say where a bar
 * is: every day, every Monday or every other one, the first of every month, every 2, 3 or 6 months, or
 * January the first of every year or every other one. The finest that gives at most seven ticks and is no
 * finer than the bars (a bar a week gets no daily ticks), so a phone's width still holds the labels.
 */

export type TickInterval = 'day' | 'week' | '2 weeks' | 'month' | '2 months' | 'quarter' | 'half-year' | 'year' | '2 years';

interface IntervalRule {
  interval: TickInterval;
  /** Its length in days, roughly: compared with the bars'. */
  days: number;
  /** The days it could tick, walked through: every day, every Monday, or every first of a month. */
  walk: 'day' | 'monday' | 'month';
  isTick: (day: string) => boolean;
}

/** Days since 1970-01-01, a Thursday. */
const dayNumber = (day: string) => Math.round(dayStart(day) / dayMs);
const isMonday = (day: string) => (dayNumber(day) + 3) % 7 === 0;
const monthNumber = (day: string) => Number(day.slice(5, 7));
const firstOfMonthEvery = (months: number) => (day: string) => day.endsWith('-01') && (monthNumber(day) - 1) % months === 0;

const rules: readonly IntervalRule[] = [
  { interval: 'day', days: 1, walk: 'day', isTick: () => true },
  { interval: 'week', days: 7, walk: 'monday', isTick: isMonday },
  // Every other Monday counted from a fixed Monday (1970-01-05), so a range moved by a week keeps its ticks.
  { interval: '2 weeks', days: 14, walk: 'monday', isTick: (day) => isMonday(day) && ((dayNumber(day) - 4) / 7) % 2 === 0 },
  { interval: 'month', days: 30, walk: 'month', isTick: firstOfMonthEvery(1) },
  { interval: '2 months', days: 61, walk: 'month', isTick: firstOfMonthEvery(2) },
  { interval: 'quarter', days: 91, walk: 'month', isTick: firstOfMonthEvery(3) },
  { interval: 'half-year', days: 182, walk: 'month', isTick: firstOfMonthEvery(6) },
  { interval: 'year', days: 365, walk: 'month', isTick: firstOfMonthEvery(12) },
  { interval: '2 years', days: 730, walk: 'month', isTick: (day) => day.endsWith('-01-01') && Number(day.slice(0, 4)) % 2 === 0 },
];

const barDays: Record<BucketSize, number> = { day: 1, week: 7, month: 30, quarter: 91 };

/** At most this many ticks: a week's days, each its own; seven labels such as "Nov 22" fit a phone's 375 px. */
export const mostDateTicks = 7;

export interface DateTicks {
  interval: TickInterval;
  /** The tick days in the range, oldest first. */
  days: string[];
}

/** The round days from `from` to `to` (both included) to tick, for a chart of the given bars. */
export function dateTicksFor(from: string, to: string, bars: BucketSize): DateTicks {
  const length = Math.max(0, dayNumber(to) - dayNumber(from) + 1);
  const finest = barDays[bars];
  for (const rule of rules) {
    // A rule whose ticks are too many even spaced at its length is skipped without walking the days.
    if (rule.days < finest || length / rule.days > mostDateTicks + 1) continue;
    const days = candidates(from, to, rule.walk).filter(rule.isTick);
    if (days.length <= mostDateTicks) return { interval: rule.interval, days };
  }
  return { interval: '2 years', days: [] };
}

/** The days from `from` to `to` a walk passes: at most 92 days (a bar a day), 53 Mondays or 121 months. */
function candidates(from: string, to: string, walk: IntervalRule['walk']): string[] {
  const days: string[] = [];
  if (walk === 'month') {
    for (let month = monthOf(from); firstDayOf(month) <= to; month = addMonths(month, 1)) if (firstDayOf(month) >= from) days.push(firstDayOf(month));
    return days;
  }
  const first = walk === 'monday' ? addDays(from, (7 - ((dayNumber(from) + 3) % 7)) % 7) : from;
  for (let day = first; day <= to; day = addDays(day, walk === 'monday' ? 7 : 1)) days.push(day);
  return days;
}

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A tick's label, as short as its interval allows: "Nov 3" for days and weeks, "Nov" or "Jan 2026" for months, "2026" for years. */
export function dateTickLabel(day: string, interval: TickInterval): string {
  const month = monthNames[monthNumber(day) - 1]!;
  if (interval === 'day' || interval === 'week' || interval === '2 weeks') return `${month} ${Number(day.slice(8, 10))}`;
  if (interval === 'year' || interval === '2 years') return day.slice(0, 4);
  return monthNumber(day) === 1 ? `${month} ${day.slice(0, 4)}` : month;
}
