import type { CurrencySum } from './conversionSums';

/** What some clicks earned: their conversions (not reversed) and the payouts of those. */
export interface Earnings {
  conversions: number;
  /** In the report's main currency, in its units (12.5 is 12.50). */
  revenue: number;
  /** Every currency that earned something here, in its own units; the main currency first, then A to Z. */
  revenueByCurrency: Record<string, number>;
}

/** The report's currency when nothing converted in the range. */
const fallbackCurrency = 'USD';

const microsPerUnit = 1_000_000;

/** The currency with the most conversions, ties in alphabetical order; USD when there are none. */
export function mainCurrency(rows: readonly CurrencySum[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.currency, (counts.get(row.currency) ?? 0) + row.conversions);
  const [first] = [...counts].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b));
  return first?.[0] ?? fallbackCurrency;
}

/** Orders currency codes as the report shows them: `main` first, the rest A to Z. */
const currencyOrder = (main: string) => (a: string, b: string) => Number(b === main) - Number(a === main) || a.localeCompare(b);

/**
 * Totals conversion rows. Payouts are summed as whole millionths (exact integers far beyond any
 * site's revenue) and divided once, per currency, so no floating-point error builds up in a sum.
 */
export function earningsOf(rows: Iterable<CurrencySum>, main: string): Earnings {
  let conversions = 0;
  const micros = new Map<string, number>();
  for (const row of rows) {
    conversions += row.conversions;
    micros.set(row.currency, (micros.get(row.currency) ?? 0) + row.micros);
  }
  const earned = [...micros].filter(([, sum]) => sum !== 0).sort(([a], [b]) => currencyOrder(main)(a, b));
  return {
    conversions,
    revenue: (micros.get(main) ?? 0) / microsPerUnit,
    revenueByCurrency: Object.fromEntries(earned.map(([currency, sum]) => [currency, sum / microsPerUnit])),
  };
}
