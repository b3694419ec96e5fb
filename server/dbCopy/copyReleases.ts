import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { batchesOf, copyKeyedRows, type CopyCounts } from './copyKeyedRows';

/**
 * The releases recorded in one database, copied into another (db:copy): one row per stamp, copied when
 * the target lacks it, already there when it holds the same row, skipped when it holds another (an
 * instance on the target recorded that build first): the target's first time stands, as recording keeps it.
 */
export async function copyReleases(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const { copied, present, skipped } = await copyKeyedRows(
    target,
    { table: 'releases', key: ['stamp'], figures: ['first_served_at', 'files', 'note'], lookup: 'stamp', conflict: ['stamp'] },
    batchesOf(source, 'releases', { order: 'stamp', size: 500 }),
  );
  return { copied, present, skipped };
}
