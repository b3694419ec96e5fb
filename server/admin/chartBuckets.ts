import { addDays, dayMs, dayStart, lastDayOf, monthOf } from '../lib/utcDay';

/*
 * How /admin's main chart groups a range's days (issue 30): a bar a day up to 92 days (a quarter), a bar
 * a week (Monday to Sunday) up to 366 days, a bar a month beyond. So a chart holds at most 92 bars
 * whatever the range (a decade is some 120 months: past 92 a bar stands for a quarter of months), and
 * a year's 53 bars stay wide enough to point at on a phone.
 */

export type BucketSize = 'day' | 'week' | 'month';

/** The longest range drawn a bar a day, and a bar a week. */
export const dailyBarsUpTo = 92;
export const weeklyBarsUpTo = 366;

/** One bar: its first and last day (both in the range) and its days' value added up (null when no day has one). */
export interface Bucket {
  from: string;
  to: string;
  value: number | null;
}

export function bucketSizeOf(dayCount: number): BucketSize {
  return dayCount <= dailyBarsUpTo ? 'day' : dayCount <= weeklyBarsUpTo ? 'week' : 'month';
}

/** The last day of the bucket a day starts: itself, its week's Sunday, or its month's last day. */
function bucketEnd(day: string, size: BucketSize): string {
  if (size === 'day') return day;
  if (size === 'month') return lastDayOf(monthOf(day));
  // 1970-01-01 was a Thursday: days since then, shifted so that Monday is 0.
  const weekday = (Math.floor(dayStart(day) / dayMs) + 3) % 7;
  return addDays(day, 6 - weekday);
}

/**
 * The days' values in bars of the size the range's length calls for, oldest first; the first and last bar
 * may hold fewer days (a range need not start on a Monday or a month's first day).
 */
export function bucketsOf(days: readonly { day: string; value: number | null }[]): { size: BucketSize; buckets: Bucket[] } {
  const size = bucketSizeOf(days.length);
  const buckets: Bucket[] = [];
  let current: Bucket | undefined;
  let end = '';
  for (const { day, value } of days) {
    if (!current || day > end) {
      end = bucketEnd(day, size);
      current = { from: day, to: day, value: null };
      buckets.push(current);
    }
    current.to = day;
    if (value !== null) current.value = (current.value ?? 0) + value;
  }
  return { size, buckets };
}
