import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { batchesOf, copyKeyedRows, type CopyCounts } from './copyKeyedRows';
import { copyUnkeyedRows } from './copyUnkeyedRows';

const stateFigures = ['verdict', 'since', 'checked_at', 'verified_at', 'first_checked_at', 'items'];

/**
 * The claims watch's record (schema 19, server/claims/): each claim's last verdict, known by its id (the
 * target's own kept when it differs: it checked since), and the evidence kept on each change, every row
 * with its page. The pages' validators stay behind: the target's first check fetches each page whole.
 */
export async function copyClaimStates(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const { copied, present, skipped } = await copyKeyedRows(
    target,
    { table: 'claim_states', key: ['claim_id'], figures: stateFigures, lookup: 'claim_id', conflict: ['claim_id'] },
    batchesOf(source, 'claim_states', { order: 'claim_id', size: 500 }),
  );
  return { copied, present, skipped };
}

export function copyClaimEvidence(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  return copyUnkeyedRows(source, target, 'claim_evidence', 'recorded_at', ['claim_id', 'recorded_at', 'verdict', 'url', 'excerpt', 'excerpt_hash', 'page_gzip']);
}
