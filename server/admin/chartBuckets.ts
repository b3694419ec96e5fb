import { addDays, dayMs, dayStart, lastDayOf, monthOf } from '../lib/utcDay';

/*
 * How /admin's main chart groups a range's days (issue 30): a bar a day up to 92 days (a quarter), a bar
 * a week (Monday to Sunday) up to 366 days, a bar a month up to 2,700 days (some 89 months), a bar a
 * quarter beyond (the longest range, 3,660 days, is 41 quarters). So a chart holds at most 92 bars
 * whatever the range, and a year's 53 bars stay wide enough to point at on a phone.
 */

export type BucketSize = 'day' | 'week' | 'month' | 'quarter';

/** The longest range drawn a bar a day, a bar a week, and a bar a month. */
export const dailyBarsUpTo = 92;
export const weeklyBarsUpTo = 366;
export const monthlyBarsUpTo = 2700;

/** One bar: its first and last day (both in the range) and its days' value added up (null when no day has one). */
export interface Bucket {
  from: string;
  to: string;
  value: number | null;
}

export function bucketSizeOf(dayCount: number): BucketSize {
  if (dayCount <= dailyBarsUpTo) return 'day';
  if (dayCount <= weeklyBarsUpTo) return 'week';
  return dayCount <= monthlyBarsUpTo ? 'month' : 'quarter';
}

/** The last day of the bucket a day starts: itself, its week's Sunday, its month's or its quarter's last day. */
function bucketEnd(day: string, size: BucketSize): string {
  if (size === 'day') return day;
  if (size === 'month') return lastDayOf(monthOf(day));
  if (size === 'quarter') return lastDayOf(`${day.slice(0, 4)}-${String(Math.ceil(Number(day.slice(5, 7)) / 3) * 3).padStart(2, '0')}`);
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
