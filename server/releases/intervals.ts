/** A 95% interval of an estimate. */
export interface Interval {
  low: number;
  high: number;
}

/** The standard normal's 97.5th percentile: a two-sided 95% interval. */
const z = 1.959963984540054;

/**
 * The Wilson score interval of a proportion, successes of trials (Wilson 1927): unlike the textbook
 * p ± z·√(p(1−p)/n) it stays within 0..1 and keeps a sensible width at 0 successes and at the small
 * counts a placement has in a week. Successes past the trials (clicks without a counted view: visitors
 * who opt out of view reports still click) are taken as all of them. Null with no trials.
 */
export function wilsonInterval(successes: number, trials: number): Interval | null {
  if (trials <= 0) return null;
  const n = trials;
  const p = Math.min(Math.max(successes, 0), n) / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Earnings per click and its interval: the conversion rate's Wilson interval (conversions of clicks)
 * times the mean payout. The payout is taken as known, and only the count of sales as uncertain: an
 * affiliate offer pays the same commission, or one of a few, per sale, so in a week's handful of sales
 * nearly all of the uncertainty is in how many there were. (With payouts that vary widely, this interval
 * is too narrow; a bootstrap over a handful of sales would be no steadier.) With no sale in the window
 * the mean payout is the one given from elsewhere (the other window's, or every window's), so that "no
 * sale in 300 clicks" still bounds what a click may earn; with none known anywhere there is no interval.
 */
export function earningsPerClickInterval(conversions: number, clicks: number, meanPayout: number | undefined): Interval | null {
  const rate = wilsonInterval(conversions, clicks);
  if (!rate || meanPayout === undefined) return null;
  return { low: rate.low * meanPayout, high: rate.high * meanPayout };
}
