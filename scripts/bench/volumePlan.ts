import { addDays, utcDay } from '../../server/lib/utcDay';

/** How many rows the volume part writes, and how they spread over its year of days. */

export interface VolumeCounts {
  views: number;
  clicks: number;
  conversions: number;
}

/** Clicks a tenth and conversions a two-hundredth of the views, as the busy site. */
export const volumeCounts = (views: number): VolumeCounts => ({ views, clicks: Math.round(views / 10), conversions: Math.round(views / 200) });

/** The rows cover this many UTC days, today included. */
export const volumeDays = 365;

/** Whole numbers split in proportion to weights, adding up to total exactly (cumulative rounding). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  let given = 0;
  return weights.map((weight) => {
    running += weight;
    const upTo = Math.round((total * running) / sum);
    const share = upTo - given;
    given = upTo;
    return share;
  });
}

export interface VolumeDay {
  day: string;
  /** The day's first millisecond, and how many of its milliseconds the rows spread over (today: up to now). */
  start: number;
  span: number;
  views: number;
  clicks: number;
  conversions: number;
}

/**
 * volumeDays days ending today, each with its share of the rows: a year of growth (the last day weighs
 * about twice the first), a quieter weekend, and today only as much as has passed of it.
 */
export function planDays(counts: VolumeCounts, now: Date): VolumeDay[] {
  const today = utcDay(now);
  const days = Array.from({ length: volumeDays }, (_, k) => addDays(today, k - (volumeDays - 1)));
  const todayStart = Date.parse(`${today}T00:00:00Z`);
  const todaySpan = Math.max(1_000, now.getTime() - todayStart - 1_000);
  const weights = days.map((day, k) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 0.8 : 1;
    const partial = day === today ? todaySpan / 86_400_000 : 1;
    return (0.65 + (0.65 * k) / (volumeDays - 1)) * weekend * partial;
  });
  const [views, clicks, conversions] = [counts.views, counts.clicks, counts.conversions].map((total) => apportion(total, weights));
  return days.map((day, k) => ({
    day,
    start: Date.parse(`${day}T00:00:00Z`),
    span: day === today ? todaySpan : 86_400_000,
    views: views![k]!,
    clicks: clicks![k]!,
    conversions: conversions![k]!,
  }));
}
