import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Claim } from '../../shared/content/claimTypes';
import type { FetchOptions, FetchResult } from '../fetching/politeFetcher';
import { evidenceUrl, itemKey, readClaim, withStaleness, type ClaimReading, type ItemOutcome } from './claimVerdict';
import type { ClaimState, ClaimStore, KeptEvidence } from './claimStore';
import { readPage, type PageReading } from './pageReading';

export interface ClaimsCheckInput {
  claims: readonly Claim[];
  merchantUrl: string;
  fetcher: { fetch(url: string, options?: FetchOptions): Promise<FetchResult> };
  store: ClaimStore;
  now: () => number;
}

export interface ClaimCheckResult {
  claim: Claim;
  state: ClaimState;
  reading: ClaimReading;
  /** The verdict differs from the last check's (or there was none). */
  changed: boolean;
}

/**
 * One check of every claim: each merchant page fetched once for all the claims that name it (conditionally
 * when every item on it has an outcome kept, so a 304 keeps them and the page is not parsed again), each
 * claim's verdict saved, and the evidence kept when a verdict changes.
 */
export async function checkClaims({ claims, merchantUrl, fetcher, store, now }: ClaimsCheckInput): Promise<ClaimCheckResult[]> {
  const [states, validators] = await Promise.all([store.states(), store.validators()]);
  const itemsByUrl = new Map<string, { claim: Claim; key: string }[]>();
  for (const claim of claims) {
    claim.evidence.forEach((evidence, index) => {
      const url = evidenceUrl(evidence, merchantUrl);
      itemsByUrl.set(url, [...(itemsByUrl.get(url) ?? []), { claim, key: itemKey(evidence, index) }]);
    });
  }
  const readings = new Map<string, PageReading>();
  await Promise.all(
    [...itemsByUrl].map(async ([url, items]) => {
      const kept = items.every(({ claim, key }) => states.get(claim.id)?.items.some((item) => item.key === key && item.verdict !== 'unknown'));
      const known = kept ? validators.get(url) : undefined;
      const reading = readPage(await fetcher.fetch(url, known ? { validators: known } : {}));
      readings.set(url, reading);
      if (reading.kind !== 'read') return;
      const { etag, lastModified } = reading.validators;
      if (etag || lastModified) await store.saveValidators(url, reading.validators, now());
      else await store.forgetValidators(url);
    }),
  );

  const at = now();
  const results: ClaimCheckResult[] = [];
  for (const claim of claims) {
    const previous = states.get(claim.id);
    const reading = readClaim(claim, merchantUrl, readings, previous?.items);
    const verifiedAt = reading.verdict === 'verified' ? at : previous?.verifiedAt;
    const firstCheckedAt = previous?.firstCheckedAt ?? at;
    const verdict = withStaleness(reading.verdict, { lastVerifiedAt: verifiedAt, firstCheckedAt, now: at, maxAgeDays: claim.maxAgeDays });
    const changed = previous?.verdict !== verdict;
    const state: ClaimState = {
      claimId: claim.id,
      verdict,
      since: changed ? at : previous.since,
      checkedAt: at,
      ...(verifiedAt === undefined ? {} : { verifiedAt }),
      firstCheckedAt,
      items: reading.items,
    };
    await store.save(state, changed ? keptEvidence(claim.id, at, state, reading.deciding, readings.get(reading.deciding.url)) : undefined);
    results.push({ claim, state, reading, changed });
  }
  return results;
}

/** What the deciding item showed: its excerpt (or why there is none), its hash, and the page compressed when one was read. */
export function keptEvidence(claimId: string, at: number, state: ClaimState, deciding: ItemOutcome, page: PageReading | undefined): KeptEvidence {
  const excerpt = deciding.excerpt ?? deciding.reason ?? 'nothing matched';
  return {
    claimId,
    recordedAt: at,
    verdict: state.verdict,
    url: deciding.url,
    excerpt,
    excerptHash: createHash('sha256').update(excerpt).digest('hex'),
    ...(page?.kind === 'read' ? { pageGzip: gzipSync(page.body) } : {}),
  };
}
