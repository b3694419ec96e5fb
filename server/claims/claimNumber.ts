import type { Comparison } from '../../shared/content/claimTypes';

/**
 * A figure as a merchant writes it: "60", "3,500", "3500+", "$1,000", "49.00", "90%", or a JSON number.
 * Commas only as thousands separators (en-US pages); undefined when it is not one number.
 */
export function readClaimNumber(written: unknown): number | undefined {
  if (typeof written === 'number') return Number.isFinite(written) ? written : undefined;
  if (typeof written !== 'string') return undefined;
  const match = /^\s*(?:US)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(?:\+|%)?\s*$/i.exec(written);
  if (!match) return undefined;
  return Number(`${match[1]!.replaceAll(',', '')}${match[2] ?? ''}`);
}

/** Whether the merchant's figure stands to the site's as the evidence asks ("over 3,500" ≥ 3,000). */
export function holds(found: number, compare: Comparison, claimed: number): boolean {
  if (compare === '≥') return found >= claimed;
  if (compare === '≤') return found <= claimed;
  return found === claimed;
}
