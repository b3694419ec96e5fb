import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Validators } from '../fetching/politeFetcher';
import type { ClaimVerdict, ItemOutcome } from './claimVerdict';

/** A claim's last verdict, as every instance reads it. */
export interface ClaimState {
  claimId: string;
  verdict: ClaimVerdict;
  /** The first check that gave this verdict, in a row. */
  since: number;
  checkedAt: number;
  verifiedAt?: number;
  firstCheckedAt: number;
  items: ItemOutcome[];
}

/** What was kept on a change of a claim's verdict: what the merchant's page said that day. */
export interface KeptEvidence {
  claimId: string;
  recordedAt: number;
  verdict: ClaimVerdict;
  url: string;
  excerpt: string;
  /** sha256 of the excerpt, hex. */
  excerptHash: string;
  /** The page as fetched, gzip; absent when none was read. */
  pageGzip?: Buffer;
}

/** Evidence kept per claim: the newest this many changes. */
export const keptEvidencePerClaim = 20;

/** The claims watch's tables (schema 19) on either engine. */
export interface ClaimStore {
  states(): Promise<Map<string, ClaimState>>;
  /** Each merchant page's validators, for a conditional request. */
  validators(): Promise<Map<string, Validators>>;
  /** The claim's state, and the evidence when its verdict changed (the oldest beyond keptEvidencePerClaim deleted). */
  save(state: ClaimState, evidence?: KeptEvidence): Promise<void>;
  saveValidators(url: string, validators: Validators, at: number): Promise<void>;
  /** Forgets a page's validators: its next fetch is a whole one. */
  forgetValidators(url: string): Promise<void>;
  /** The evidence kept for a claim, newest first. */
  evidence(claimId: string, limit?: number): Promise<KeptEvidence[]>;
}

export function databaseClaimStore(db: Kysely<Schema>): ClaimStore {
  return {
    async states() {
      const rows = await db.selectFrom('claim_states').selectAll().execute();
      return new Map(
        rows.map((row) => [
          row.claim_id,
          {
            claimId: row.claim_id,
            verdict: row.verdict as ClaimVerdict,
            since: Number(row.since),
            checkedAt: Number(row.checked_at),
            ...(row.verified_at === null ? {} : { verifiedAt: Number(row.verified_at) }),
            firstCheckedAt: Number(row.first_checked_at),
            items: parseItems(row.items),
          },
        ]),
      );
    },
    async validators() {
      const rows = await db.selectFrom('claim_pages').selectAll().execute();
      return new Map(rows.map((row) => [row.url, { ...(row.etag === null ? {} : { etag: row.etag }), ...(row.last_modified === null ? {} : { lastModified: row.last_modified }) }]));
    },
    async save(state, evidence) {
      const values = {
        claim_id: state.claimId,
        verdict: state.verdict,
        since: state.since,
        checked_at: state.checkedAt,
        verified_at: state.verifiedAt ?? null,
        first_checked_at: state.firstCheckedAt,
        items: JSON.stringify(state.items),
      };
      await db.transaction().execute(async (trx) => {
        const { claim_id: _key, ...changes } = values;
        await trx.insertInto('claim_states').values(values).onConflict((conflict) => conflict.column('claim_id').doUpdateSet(changes)).execute();
        if (!evidence) return;
        await trx
          .insertInto('claim_evidence')
          .values({
            claim_id: evidence.claimId,
            recorded_at: evidence.recordedAt,
            verdict: evidence.verdict,
            url: evidence.url,
            excerpt: evidence.excerpt,
            excerpt_hash: evidence.excerptHash,
            page_gzip: evidence.pageGzip ?? null,
          })
          .execute();
        const newest = trx
          .selectFrom('claim_evidence')
          .select('id')
          .where('claim_id', '=', evidence.claimId)
          .orderBy('recorded_at', 'desc')
          .orderBy('id', 'desc')
          .limit(keptEvidencePerClaim);
        await trx.deleteFrom('claim_evidence').where('claim_id', '=', evidence.claimId).where('id', 'not in', newest).execute();
      });
    },
    async saveValidators(url, validators, at) {
      const changes = { etag: validators.etag ?? null, last_modified: validators.lastModified ?? null, fetched_at: at };
      await db.insertInto('claim_pages').values({ url, ...changes }).onConflict((conflict) => conflict.column('url').doUpdateSet(changes)).execute();
    },
    async forgetValidators(url) {
      await db.deleteFrom('claim_pages').where('url', '=', url).execute();
    },
    async evidence(claimId, limit = keptEvidencePerClaim) {
      const rows = await db
        .selectFrom('claim_evidence')
        .selectAll()
        .where('claim_id', '=', claimId)
        .orderBy('recorded_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        claimId: row.claim_id,
        recordedAt: Number(row.recorded_at),
        verdict: row.verdict as ClaimVerdict,
        url: row.url,
        excerpt: row.excerpt,
        excerptHash: row.excerpt_hash,
        ...(row.page_gzip === null ? {} : { pageGzip: Buffer.from(row.page_gzip) }),
      }));
    },
  };
}

/** Items written by an older build may not parse: they are then no items, and a 304 page is read again as unknown. */
function parseItems(json: string): ItemOutcome[] {
  try {
    const items: unknown = JSON.parse(json);
    return Array.isArray(items) ? (items as ItemOutcome[]) : [];
  } catch {
    return [];
  }
}
