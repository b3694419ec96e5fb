import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** What a copy did with a table's rows. */
export interface CopyCounts {
  /** Rows written to the target. */
  copied: number;
  /** Rows the target already had (an earlier copy, or the same data counted there). */
  present: number;
  /** Rows not copied because the target holds its own, different version of them, which it keeps. */
  skipped: number;
}

export const noneCopied = (): CopyCounts => ({ copied: 0, present: 0, skipped: 0 });

export type Row = Record<string, unknown>;

/** The same text for the same value from either engine (PostgreSQL returns bigint as a string, SQLite as a number). */
export const keyOf = (row: Row, columns: readonly string[]) => JSON.stringify(columns.map((column) => (row[column] === null || row[column] === undefined ? null : String(row[column]))));

export const pick = (row: Row, columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, row[column]]));

/**
 * A table's rows in batches of `size`, in the order of `order`, a column unique in it: each batch read
 * after the last row of the one before, so no read holds more than a batch. onRead counts them (db:copy's progress).
 */
export async function* batchesOf(
  source: Kysely<Schema>,
  table: keyof Schema,
  { order, columns, size, onRead }: { order: string; columns?: readonly string[]; size: number; onRead?: (rows: number) => void },
): AsyncGenerator<Row[]> {
  const db = source as Kysely<any>;
  let after: unknown;
  for (;;) {
    const select = columns ? db.selectFrom(table).select([order, ...columns.filter((column) => column !== order)]) : db.selectFrom(table).selectAll();
    const batch: Row[] = await (after === undefined ? select : select.where(order, '>', after)).orderBy(order).limit(size).execute();
    if (batch.length === 0) return;
    after = batch.at(-1)![order];
    onRead?.(batch.length);
    yield batch;
  }
}

/** A table whose rows are known by a key, and how its copy finds and writes them. */
export interface KeyedTable {
  table: keyof Schema;
  /** The columns that name a row. */
  key: readonly string[];
  /** The columns compared when the target holds the key: the same values are already there, others are the target's version. */
  figures: readonly string[];
  /** The columns written; the key and the figures unless said. */
  written?: readonly string[];
  /** A column of the key, indexed on the target, by which a batch looks up the target's rows that may share its keys. */
  lookup: string;
  /** The target's unique columns an insert may meet; unset, any conflict at all (a partial unique index) leaves the target's row. */
  conflict?: readonly string[];
}

/**
 * Copies keyed rows, a batch at a time: a row is copied when the target lacks its key, already there when
 * the target holds the same figures under it, and skipped when it holds other figures, or when a row of
 * the target's own gets in first (an instance writing to it meanwhile): the target's version stands.
 * Resolves to the counts and the rows skipped, in the order met.
 */
export async function copyKeyedRows(
  target: Kysely<Schema>,
  { table, key, figures, written = [...key, ...figures], lookup, conflict }: KeyedTable,
  batches: AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>,
): Promise<CopyCounts & { skippedRows: Row[] }> {
  const into = target as Kysely<any>;
  const compared = [...new Set([...key, ...figures])];
  const counts = { ...noneCopied(), skippedRows: [] as Row[] };
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const existing: Row[] = await into
      .selectFrom(table)
      .select(compared)
      .where(lookup, 'in', [...new Set(batch.map((row) => row[lookup]))])
      .execute();
    const held = new Map(existing.map((row) => [keyOf(row, key), keyOf(row, figures)]));
    const missing: Row[] = [];
    for (const row of batch) {
      const there = held.get(keyOf(row, key));
      if (there === undefined) missing.push(row);
      else if (there === keyOf(row, figures)) counts.present += 1;
      else counts.skippedRows.push(row);
    }
    if (missing.length === 0) continue;
    const insert = into.insertInto(table).values(missing.map((row) => pick(row, written)));
    const inserted: Row[] = await (conflict ? insert.onConflict((on: any) => on.columns(conflict).doNothing()) : insert.onConflict((on: any) => on.doNothing()))
      .returning(key)
      .execute();
    const insertedKeys = new Set(inserted.map((row) => keyOf(row, key)));
    counts.copied += insertedKeys.size;
    for (const row of missing) if (!insertedKeys.has(keyOf(row, key))) counts.skippedRows.push(row);
  }
  counts.skipped = counts.skippedRows.length;
  return counts;
}
