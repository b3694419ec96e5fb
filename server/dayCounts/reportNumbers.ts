import type { Earnings } from './earnings';
import { amountText, countText, percentText } from '../lib/numberFormat';

/** How the terminal table, /admin and the digest write the report's numbers, so all say the same (the digits themselves: server/lib/numberFormat.ts). */

export { amountText } from '../lib/numberFormat';

/** A part of a whole as a whole percentage ("25%", ROI "1,250%"), "–" when the whole is nothing. */
export const share = (part: number, whole: number) => (whole === 0 ? '–' : percentText(part / whole, 0));

/**
 * Below this many in the whole (visitors, clicks), a rate is written in whole percent: one more or one
 * fewer moves it by a point or more, so a decimal would claim what the sample cannot tell.
 */
export const decimalRateFrom = 100;

/**
 * A rate (conversions per click, visitors who clicked per visitor) with the precision its sample supports:
 * whole percent under decimalRateFrom in the whole ("7%" for 3 of 41); from there one decimal below 10%,
 * where rates of affiliate links usually are and tenths tell sources apart ("2.3%"), whole percent from
 * 10% up ("27%") and for none ("0%"). Something is never written as nothing ("<0.1%" for 1 in 5,000), nor a part as the
 * whole (">99%" for 999 of 1,000). "–" when the whole is nothing.
 */
export function rate(part: number, whole: number): string {
  if (whole === 0) return '–';
  const fraction = part / whole;
  const digits = part !== 0 && whole >= decimalRateFrom && Math.abs(fraction) < 0.1 ? 1 : 0;
  const text = percentText(fraction, digits);
  if (part !== 0 && text === percentText(0, digits)) return `<${percentText(digits === 1 ? 0.001 : 0.01, digits)}`;
  if (part < whole && text === percentText(1, digits)) return `>${percentText(0.99, digits)}`;
  return text;
}

/**
 * Revenue per currency, in the report's order, e.g. "12.50 USD + 4.00 EUR"; "–" when nothing was
 * earned. `per` divides each amount (clicks, for earnings per click); "–" when it is zero.
 */
export function revenueText({ revenueByCurrency }: Pick<Earnings, 'revenueByCurrency'>, { per = 1, separator = ' + ' } = {}): string {
  const amounts = Object.entries(revenueByCurrency);
  if (amounts.length === 0 || per === 0) return '–';
  return amounts.map(([currency, amount]) => amountText(amount / per, currency)).join(separator);
}

/** A source as a reader names it: '' is a source not known. */
export const sourceName = (source: string) => source || '(not known)';

/** "1 conversion", "2,500 conversions". */
export const counted = (count: number, one: string, many = `${one}s`) => `${countText(count)} ${count === 1 ? one : many}`;
