import type { Kysely } from 'kysely';
import type { CopyCounts } from '../db/copyDatabase';
import type { Schema } from '../db/schema';

const batchSize = 500;

/**
 * The releases recorded in one database, copied into another (db:copy): one row per stamp, copied when
 * the target lacks it, already there when it holds the same row, skipped when it holds another (an
 * instance on the target recorded that build first): the target's first time stands, as recording keeps it.
 */
export async function copyReleases(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const counts: CopyCounts = { copied: 0, present: 0, skipped: 0 };
  const figures = (row: { first_served_at: number; files: string; note: string }) => JSON.stringify([String(row.first_served_at), row.files, row.note]);
  let after = '';
  for (;;) {
    const batch = await source.selectFrom('releases').selectAll().where('stamp', '>', after).orderBy('stamp').limit(batchSize).execute();
    if (batch.length === 0) return counts;
    after = batch.at(-1)!.stamp;
    const held = new Map(
      (await target.selectFrom('releases').selectAll().where('stamp', 'in', batch.map((row) => row.stamp)).execute()).map((row) => [row.stamp, figures(row)]),
    );
    const missing = batch.filter((row) => {
      const there = held.get(row.stamp);
      if (there === undefined) return true;
      if (there === figures(row)) counts.present += 1;
      else counts.skipped += 1;
      return false;
    });
    if (missing.length === 0) continue;
    // An instance on the target may record one of these in between: its row stands.
    const result = await target
      .insertInto('releases')
      .values(missing.map(({ stamp, first_served_at, files, note }) => ({ stamp, first_served_at, files, note })))
      .onConflict((conflict) => conflict.column('stamp').doNothing())
      .executeTakeFirst();
    const inserted = Number(result.numInsertedOrUpdatedRows ?? 0);
    counts.copied += inserted;
    counts.skipped += missing.length - inserted;
  }
}
