import { gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { databaseClaimStore } from '../../server/claims/claimStore';
import type { Schema } from '../../server/db/schema';
import { databaseHostHolds } from '../../server/fetching/hostHolds';

/** A claim's verdict, two pieces of evidence (one with its page), a page's validators and a host's Retry-After, written as the claims watch writes them. */
export async function writeClaimRows(db: Kysely<Schema>, now: number): Promise<void> {
  const store = databaseClaimStore(db);
  await store.saveValidators('https://merchant.example.com/refund-policy', { etag: '"v1"', lastModified: 'Sat, 28 Nov 2026 10:00:00 GMT' }, now - 7_200_000);
  const item = { key: '0:abc', url: 'https://merchant.example.com/refund-policy', verdict: 'verified' as const, excerpt: 'a 60-day money-back guarantee' };
  const state = { claimId: 'refundWindow', verdict: 'verified' as const, since: now - 7_200_000, checkedAt: now - 7_200_000, verifiedAt: now - 7_200_000, firstCheckedAt: now - 7_200_000, items: [item] };
  await store.save(state, { claimId: 'refundWindow', recordedAt: now - 7_200_000, verdict: 'verified', url: item.url, excerpt: item.excerpt, excerptHash: 'a'.repeat(64), pageGzip: gzipSync('<p>a 60-day money-back guarantee</p>') });
  await store.save({ ...state, verdict: 'unknown', since: now, checkedAt: now, items: [{ key: item.key, url: item.url, verdict: 'unknown', reason: 'timed out after 15000 ms' }] }, {
    claimId: 'refundWindow',
    recordedAt: now,
    verdict: 'unknown',
    url: item.url,
    excerpt: 'timed out after 15000 ms',
    excerptHash: 'b'.repeat(64),
  });
  await databaseHostHolds(db, () => now).hold('merchant.example.com', now + 120_000);
}
