/** The UTC calendar day of a moment, as YYYY-MM-DD: clicks are counted per UTC day everywhere. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** A UTC day's length in milliseconds (no leap seconds in UTC as JavaScript counts it). */
export const dayMs = 86_400_000;

/** The moment a YYYY-MM-DD UTC day begins, in milliseconds since the epoch. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The UTC day `days` after (or, when negative, before) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(dayStart(day) + days * dayMs));
}

/** A moment as people here read it, to the minute: 2026-11-20 12:00 UTC ('an unknown time' for an invalid one). */
export function formatMoment(at: number): string {
  const moment = new Date(at);
  if (Number.isNaN(moment.getTime())) return 'an unknown time';
  return `${moment.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** True for a real calendar day written YYYY-MM-DD (so 2026-02-30 is not). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && utcDay(new Date(time)) === value;
}

/** The UTC month a YYYY-MM-DD day is in, as YYYY-MM. */
export const monthOf = (day: string): string => day.slice(0, 7);

/** The first day of a YYYY-MM month. */
export const firstDayOf = (month: string): string => `${month}-01`;

/** The YYYY-MM month `months` after (or, when negative, before) a YYYY-MM month. */
export function addMonths(month: string, months: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + months, 1)).toISOString().slice(0, 7);
}

/** The last day of a YYYY-MM month. */
export const lastDayOf = (month: string): string => addDays(firstDayOf(addMonths(month, 1)), -1);

/** The first month that starts on or after a YYYY-MM-DD day: its own month when the day is the 1st. */
const firstWholeMonthFrom = (day: string): string => (day === firstDayOf(monthOf(day)) ? monthOf(day) : addMonths(monthOf(day), 1));

/** The last month that ends on or before a YYYY-MM-DD day: its own month when the day is the month's last. */
export const lastWholeMonthTo = (day: string): string => (day === lastDayOf(monthOf(day)) ? monthOf(day) : addMonths(monthOf(day), -1));

/** Days from..to, both included; empty when from is after to. */
export interface DaySpan {
  from: string;
  to: string;
}

/** A run of whole periods (months YYYY-MM, or weeks by their first day), first..last. */
export interface PeriodSpan {
  first: string;
  last: string;
}

/**
 * A calendar period that sums of days are kept by: months (YYYY-MM) or weeks of the month (named by their
 * first day). Each names the period a day is in, the one after a period, a period's first and last days,
 * and the periods whole from a day on or up to a day.
 */
export interface Period {
  of(day: string): string;
  next(period: string): string;
  firstDay(period: string): string;
  lastDay(period: string): string;
  /** The first period that starts on or after a day: its own when the day is its first. */
  firstWholeFrom(day: string): string;
  /** The last period that ends on or before a day: its own when the day is its last. */
  lastWholeTo(day: string): string;
}

/**
 * A range of days split at the whole periods inside it, for the reads that take those periods from their
 * sums: the days before them, the periods (first..last) and the days after them (either span may be
 * empty). `latest` caps the periods taken whole (the latest one summed yet); the days past it count among
 * the days after. Undefined when no whole period is inside (or before the cap).
 */
export function splitAtWhole(period: Period, from: string, to: string, latest?: string): { before: DaySpan; periods: PeriodSpan; after: DaySpan } | undefined {
  const first = period.firstWholeFrom(from);
  const whole = period.lastWholeTo(to);
  const last = latest !== undefined && latest < whole ? latest : whole;
  if (first > last) return undefined;
  return { before: { from, to: addDays(period.firstDay(first), -1) }, periods: { first, last }, after: { from: addDays(period.lastDay(last), 1), to } };
}

export const months: Period = {
  of: monthOf,
  next: (month) => addMonths(month, 1),
  firstDay: firstDayOf,
  lastDay: lastDayOf,
  firstWholeFrom: firstWholeMonthFrom,
  lastWholeTo: lastWholeMonthTo,
};

/** splitAtWhole at months, with `months` for the periods. */
export function splitAtWholeMonths(from: string, to: string, latestMonth?: string): { before: DaySpan; months: PeriodSpan; after: DaySpan } | undefined {
  const split = splitAtWhole(months, from, to, latestMonth);
  return split && { before: split.before, months: split.periods, after: split.after };
}

/*
 * Weeks of a month: days 1-7, 8-14, 15-21, 22-28 and 29 to the month's end (one to three days; none in
 * a February of 28 days), each named by its first day, YYYY-MM-DD. Not calendar weeks: these nest in
 * their month, so a range's whole months and the whole weeks around them never overlap, and a range of
 * 30 days is about four weeks' sums and the days around them rather than 30 days' rows.
 */

/** The first days of a month's weeks, as days of the month, the latest first. */
const weekStartsLatestFirst = ['29', '22', '15', '08', '01'] as const;

/** The week of the month a YYYY-MM-DD day is in, by its first day. */
export function weekOf(day: string): string {
  const dayOfMonth = day.slice(8, 10);
  const start = weekStartsLatestFirst.find((first) => first <= dayOfMonth) ?? '01';
  return `${day.slice(0, 8)}${start}`;
}

/** The last day of a week of the month (named by its first day). */
export function lastDayOfWeek(week: string): string {
  return week.endsWith('-29') ? lastDayOf(monthOf(week)) : addDays(week, 6);
}

/** The first week that starts on or after a day: its own week when the day is the week's first. */
const firstWholeWeekFrom = (day: string): string => (weekOf(day) === day ? day : addDays(lastDayOfWeek(weekOf(day)), 1));

/** The last week that ends on or before a day: its own week when the day is the week's last. */
export const lastWholeWeekTo = (day: string): string => (lastDayOfWeek(weekOf(day)) === day ? weekOf(day) : weekOf(addDays(weekOf(day), -1)));

export const weeksOfMonth: Period = {
  of: weekOf,
  next: (week) => addDays(lastDayOfWeek(week), 1),
  firstDay: (week) => week,
  lastDay: lastDayOfWeek,
  firstWholeFrom: firstWholeWeekFrom,
  lastWholeTo: lastWholeWeekTo,
};

/** A range as the sums that cover it: its whole months, the whole weeks around them, and the days around those. */
export interface RangeSums {
  /** The days read one by one, each span non-empty, in day order. */
  days: DaySpan[];
  /** The runs of whole weeks (at most two: before the months and after them). */
  weeks: PeriodSpan[];
  months: PeriodSpan | undefined;
}

/**
 * Splits from..to into whole months, then whole weeks in the days before and after them, then the days
 * left: every day of the range in exactly one part. `latest` caps what is taken whole (the latest month
 * and week summed yet; '' when none is); past the caps, weeks and days stand in.
 */
export function splitIntoSums(from: string, to: string, latest: { month?: string; week?: string } = {}): RangeSums {
  const parts: RangeSums = { days: [], weeks: [], months: undefined };
  const byWeeks = (span: DaySpan) => {
    if (span.from > span.to) return;
    const split = splitAtWhole(weeksOfMonth, span.from, span.to, latest.week);
    if (!split) {
      parts.days.push(span);
      return;
    }
    if (split.before.from <= split.before.to) parts.days.push(split.before);
    parts.weeks.push(split.periods);
    if (split.after.from <= split.after.to) parts.days.push(split.after);
  };
  const split = splitAtWhole(months, from, to, latest.month);
  if (!split) byWeeks({ from, to });
  else {
    byWeeks(split.before);
    parts.months = split.periods;
    byWeeks(split.after);
  }
  return parts;
}
