/**
 * How numbers are written for people (/admin, the digest, npm run stats's table and the alerts): grouped
 * in thousands as the locale writes them, amounts with their ISO code after them ("1,250,000.00 USD", as
 * several currencies stand side by side), short forms ("7M") only where a caller says space is tight.
 * What programs read (--json, --csv) never comes through here: it stays raw numbers.
 */

/**
 * The locale every report writes in. One constant, not a setting yet: the page is rendered in the report
 * worker, the digest in the report worker too and the table in a command, and a setting would have to
 * travel to each. Changing it here changes all of them.
 */
export const reportLocale = 'en-US';

/**
 * Formats are made once and kept: making an Intl.NumberFormat costs about 0.2 ms, and a year's /admin
 * writes thousands of figures; using one costs about a microsecond. At most one entry per key below:
 * grouping, each count of digits after the point (0–20, as Intl allows), two percentages and the short form.
 */
const formats = new Map<string, Intl.NumberFormat>();
function format(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let made = formats.get(key);
  if (made === undefined) {
    // A sign only on what is below zero once rounded: never "-0" nor "-0.00".
    made = new Intl.NumberFormat(reportLocale, { signDisplay: 'negative', ...options });
    formats.set(key, made);
  }
  return made;
}

/** A count grouped in thousands: "6,999,970". */
export const countText = (count: number): string => format('count', {}).format(count);

/** A number with exactly `digits` digits after the point (0–20), grouped: "1,250,000.00". */
export function decimalText(value: number, digits: number): string {
  const fractionDigits = Math.min(Math.max(Math.trunc(digits), 0), 20);
  return format(`decimal ${fractionDigits}`, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(value);
}

/**
 * Digits after the point per currency, as ICU knows them (2 for USD, 0 for JPY), asked once per currency.
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

/** An amount with its currency code, grouped: "1,250,000.00 USD", "1,500 JPY". */
export const amountText = (amount: number, currency: string): string => `${decimalText(amount, minorDigits(currency))} ${currency}`;

/** A fraction as a percentage with `digits` digits after the point (0 or 1), grouped: 0.0234 is "2.3%", 123.4 is "12,340%". */
export function percentText(fraction: number, digits: 0 | 1): string {
  return format(`percent ${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
}

/** A change as a whole percentage with its sign: "+12%", "-8%", "0%" (/admin's headline, the digest, npm run stats). */
export function signedPercentText(fraction: number): string {
  // `|| 0`: a fall of less than half a percent rounds to -0, which Intl writes "-0".
  const percent = Math.round(fraction * 100) || 0;
  return `${percent > 0 ? '+' : ''}${countText(percent)}%`;
}

/**
 * From a million on a count is written short where space is tight: "1,250,000" no longer fits the
 * headline's box on a phone, "1.25M" does. Amounts from ten thousand on: their cents make them 3
 * characters longer ("12,345.67 USD").
 */
export const shortCountFrom = 1_000_000;
export const shortAmountFrom = 10_000;

/** Three significant digits in the locale's short form: "7M", "1.25M", "45.3K". */
const compactText = (value: number) => format('compact', { notation: 'compact', maximumSignificantDigits: 3 }).format(value);

/** A count as a tight place shows it ("1.25M"), or null when its exact form is short enough to show instead. */
export const shortCountText = (count: number): string | null => (Math.abs(count) >= shortCountFrom ? compactText(count) : null);

/** An amount as a tight place shows it ("45.3K USD"), or null when its exact form is short enough to show instead. */
export const shortAmountText = (amount: number, currency: string): string | null =>
  Math.abs(amount) >= shortAmountFrom ? `${compactText(amount)} ${currency}` : null;
