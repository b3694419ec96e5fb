import { createHash } from 'node:crypto';
import { isFigureClaim, type Claim, type Evidence } from '../../shared/content/claimTypes';
import { checkEvidence } from './evidence';
import type { PageReading } from './pageReading';

/**
 * A claim's verdict (docs/claims.md#verdicts):
 * - `verified`: every evidence item holds;
 * - `contradicted`: an item is there with another figure;
 * - `missing`: a page was read and an item is not on it;
 * - `unknown`: no item says otherwise, but one could not be looked at (the fetch failed, robots.txt, a
 *   challenge page, almost no text, a selector matching nothing, a page cut at the cap without the item);
 * - `stale`: unknown for longer than the claim's maxAgeDays since it was last verified.
 */
export type ClaimVerdict = 'verified' | 'contradicted' | 'missing' | 'unknown' | 'stale';

/** One evidence item's outcome in a check; `key` names the item as the registry holds it now (itemKey). */
export interface ItemOutcome {
  key: string;
  url: string;
  verdict: 'verified' | 'contradicted' | 'missing' | 'unknown';
  /** The words around the match (or the JSON-LD node); none when nothing matched. */
  excerpt?: string;
  /** The merchant's figure, when contradicted. */
  found?: number;
  /** Why the item could not be looked at, or what is missing. */
  reason?: string;
}

export interface ClaimReading {
  verdict: Exclude<ClaimVerdict, 'stale'>;
  items: ItemOutcome[];
  /** The item that decided the verdict (the first of the worst). */
  deciding: ItemOutcome;
}

const severity: Record<ItemOutcome['verdict'], number> = { contradicted: 3, missing: 2, unknown: 1, verified: 0 };

/** The merchant address of an evidence item's page: a path on merchantUrl, '' for its home page, or its own https address. */
export function evidenceUrl(evidence: Evidence, merchantUrl: string): string {
  if (evidence.page.startsWith('https://')) return evidence.page;
  return new URL(evidence.page === '' ? '/' : evidence.page, merchantUrl).href;
}

/** A name for an item that changes when the item does, so an outcome kept for an edited item is never reused. */
export function itemKey(evidence: Evidence, index: number): string {
  const shape = JSON.stringify(evidence, (_key, value: unknown) => (value instanceof RegExp ? value.source : value));
  return `${index}:${createHash('sha256').update(shape).digest('hex').slice(0, 12)}`;
}

/**
 * Reads a claim from the check's pages. An item on an `unchanged` page keeps its outcome of the last
 * check (`kept`, by item key); without one it is unknown.
 */
export function readClaim(claim: Claim, merchantUrl: string, readings: ReadonlyMap<string, PageReading>, kept: readonly ItemOutcome[] = []): ClaimReading {
  const items = claim.evidence.map((evidence, index): ItemOutcome => {
    const key = itemKey(evidence, index);
    const url = evidenceUrl(evidence, merchantUrl);
    const reading = readings.get(url);
    if (reading === undefined) return { key, url, verdict: 'unknown', reason: 'the page was not fetched' };
    if (reading.kind === 'unreadable') return { key, url, verdict: 'unknown', reason: reading.reason };
    if (reading.kind === 'unchanged') {
      const previous = kept.find((item) => item.key === key);
      return previous ? { ...previous, url } : { key, url, verdict: 'unknown', reason: 'the page answered 304 but no earlier reading is kept' };
    }
    const outcome = checkEvidence(reading.page, evidence, isFigureClaim(claim) ? claim.value : undefined);
    if (outcome.verdict === 'shapeChanged') return { key, url, verdict: 'unknown', reason: `the page changed shape: nothing matches ${outcome.selector}` };
    if (outcome.verdict === 'missing' && reading.truncated) return { key, url, verdict: 'unknown', reason: 'the page is larger than the cap and the evidence is not in the part read' };
    if (outcome.verdict === 'missing') return { key, url, verdict: 'missing', reason: 'nothing on the page matches the evidence' };
    if (outcome.verdict === 'contradicted') return { key, url, verdict: 'contradicted', excerpt: outcome.excerpt, found: outcome.found };
    return { key, url, verdict: 'verified', excerpt: outcome.excerpt };
  });
  const deciding = decidingItem(items)!;
  return { verdict: deciding.verdict, items, deciding };
}

const dayMs = 24 * 60 * 60_000;

/** Unknown (or never verified) for longer than maxAgeDays since the last verification, or since the first check: stale. */
export function withStaleness(
  verdict: ClaimVerdict,
  { lastVerifiedAt, firstCheckedAt, now, maxAgeDays }: { lastVerifiedAt: number | undefined; firstCheckedAt: number; now: number; maxAgeDays: number },
): ClaimVerdict {
  if (verdict !== 'unknown' && verdict !== 'stale') return verdict;
  return now - (lastVerifiedAt ?? firstCheckedAt) > maxAgeDays * dayMs ? 'stale' : 'unknown';
}

/** The item that decides a claim's verdict: the first of the worst outcomes. */
export function decidingItem(items: readonly ItemOutcome[]): ItemOutcome | undefined {
  return items.reduce<ItemOutcome | undefined>((worst, item) => (worst === undefined || severity[item.verdict] > severity[worst.verdict] ? item : worst), undefined);
}
