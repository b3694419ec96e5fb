import type { Earnings } from './earnings';

/** How the terminal table and /admin write the report's numbers, so both say the same. */

/** A part of a whole as a whole percentage, "–" when the whole is nothing. */
export const share = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`);

/** A rate (conversions per click, clicks per visitor): one decimal below 10%, where rates of affiliate links usually are; "–" when the whole is nothing. */
export function rate(part: number, whole: number): string {
  if (whole === 0) return '–';
  const percent = (part / whole) * 100;
  return `${percent !== 0 && percent < 10 ? percent.toFixed(1) : Math.round(percent)}%`;
}

/**
 * Digits after the point per currency, as ICU knows them (2 for USD, 0 for JPY), asked once per currency:
 * making an Intl.NumberFormat costs about 0.2 ms, which a year's /admin paid for every amount it showed.
 * At most one entry per currency ICU knows (about 300): a conversion's currency must be one of them.
 */
const digitsByCurrency = new Map<string, number>();
function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** An amount with its currency code, e.g. "12.50 USD". */
export const amountText = (amount: number, currency: string) => `${amount.toFixed(minorDigits(currency))} ${currency}`;

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

/** "1 conversion", "2 conversions". */
export const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
