import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { batchesOf, keyOf, noneCopied, pick, type CopyCounts, type Row } from './copyKeyedRows';

const batchSize = 1000;

export type UnkeyedTable = 'clicks' | 'views' | 'leaves' | 'conversion_events' | 'link_checks' | 'claim_evidence';

export interface CopyRowsOptions {
  /** Rows not to copy, counted as skipped. */
  skip?: (row: Row) => boolean;
  /** Columns the target holds unique together (clicks.click_id; leaves' day, visitor, page and ordinal): a row whose values the target already has is skipped. */
  unique?: readonly string[];
  /** Told each batch's rows as they are read: db:copy's progress. */
  onRows?: (rows: number) => void;
}

/** Rows without a key of their own, matched one for one with identical rows the target held before the copy began. */
export async function copyUnkeyedRows(
  source: Kysely<Schema>,
  target: Kysely<Schema>,
  table: UnkeyedTable,
  timeColumn: 'at' | 'received_at' | 'checked_at' | 'recorded_at',
  columns: readonly string[],
  { skip = () => false, unique, onRows }: CopyRowsOptions = {},
): Promise<CopyCounts> {
  const counts = noneCopied();
  const into = target as Kysely<any>;
  // Rows the target gains from now on (this copy's, or a live instance's) are never mistaken for old ones.
  const before = await into.selectFrom(table).select((eb) => eb.fn.max<number | null>('id').as('id')).executeTakeFirst();
  const lastTargetId = Number(before?.id ?? 0);
  for await (const batch of batchesOf(source, table, { order: 'id', columns, size: batchSize, onRead: onRows })) {
    const times = batch.map((row) => Number(row[timeColumn]));
    const existing: Row[] = await into
      .selectFrom(table)
      .select(columns as string[])
      .where(timeColumn, '>=', Math.min(...times))
      .where(timeColumn, '<=', Math.max(...times))
      .where('id', '<=', lastTargetId)
      .execute();
    const unmatched = new Map<string, number>();
    for (const row of existing) unmatched.set(keyOf(row, columns), (unmatched.get(keyOf(row, columns)) ?? 0) + 1);
    const missing = batch.filter((row) => {
      const left = unmatched.get(keyOf(row, columns)) ?? 0;
      if (left === 0) return true;
      unmatched.set(keyOf(row, columns), left - 1);
      return false;
    });
    const copying = missing.filter((row) => !skip(row));
    let copied = 0;
    if (copying.length > 0) {
      const insert = into.insertInto(table).values(copying.map((row) => pick(row, columns)));
      // The target's row wins: one a live instance recorded, or the first of a value the source holds twice.
      const result = await (unique ? insert.onConflict((conflict: any) => conflict.columns(unique).doNothing()) : insert).executeTakeFirst();
      copied = unique ? Number(result.numInsertedOrUpdatedRows ?? 0) : copying.length;
    }
    counts.copied += copied;
    counts.skipped += missing.length - copied;
    counts.present += batch.length - missing.length;
  }
  return counts;
}
