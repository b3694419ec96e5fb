import type { Kysely } from 'kysely';
import type { Schema } from './schema';

export interface CopyCounts {
  /** Rows written to the target. */
  copied: number;
  /** Rows the target already had (an earlier copy, or the same data counted there). */
  present: number;
}

export interface CopyReport {
  clicks: CopyCounts;
  dailyTotals: CopyCounts;
  linkChecks: CopyCounts;
}

const batchSize = 1000;

/**
 * Copies what one database holds into another (SQLite into PostgreSQL, for an operator who outgrows
 * one machine): raw clicks, daily totals and link-check history. Running it again changes nothing:
 * a row counts as already there when the target held an identical one before this copy began, and
 * identical rows are matched one for one, so two real clicks in the same millisecond both arrive.
 * Visitor salts are not copied: they are deleted within two days anyway, and never leave the machine.
 */
export async function copyDatabase(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyReport> {
  return {
    clicks: await copyRows(source, target, 'clicks', 'at', ['at', 'day', 'placement', 'page', 'referrer_host', 'device', 'visitor', 'via']),
    dailyTotals: await copyDailyTotals(source, target),
    linkChecks: await copyRows(source, target, 'link_checks', 'checked_at', ['checked_at', 'url', 'final_url', 'status', 'redirects', 'ms', 'error', 'verdict']),
  };
}

type RowTable = 'clicks' | 'link_checks';

async function copyRows(
  source: Kysely<Schema>,
  target: Kysely<Schema>,
  table: RowTable,
  timeColumn: 'at' | 'checked_at',
  columns: readonly string[],
): Promise<CopyCounts> {
  const counts = { copied: 0, present: 0 };
  // Rows the target gains from now on (this copy's, or a live instance's) are never mistaken for old ones.
  const before = await (target as Kysely<any>).selectFrom(table as string).select((eb) => eb.fn.max<number | null>('id').as('id')).executeTakeFirst();
  const lastTargetId = Number(before?.id ?? 0);
  const db = source as Kysely<any>;
  const into = target as Kysely<any>;
  const key = (row: Record<string, unknown>) => JSON.stringify(columns.map((column) => (row[column] === null ? null : String(row[column]))));
  let afterId = 0;
  for (;;) {
    const batch: Record<string, unknown>[] = await db.selectFrom(table as string).select(['id', ...columns]).where('id', '>', afterId).orderBy('id').limit(batchSize).execute();
    if (batch.length === 0) return counts;
    afterId = Number(batch.at(-1)!.id);
    const times = batch.map((row) => Number(row[timeColumn]));
    const existing: Record<string, unknown>[] = await into
      .selectFrom(table as string)
      .select(columns as string[])
      .where(timeColumn, '>=', Math.min(...times))
      .where(timeColumn, '<=', Math.max(...times))
      .where('id', '<=', lastTargetId)
      .execute();
    const unmatched = new Map<string, number>();
    for (const row of existing) unmatched.set(key(row), (unmatched.get(key(row)) ?? 0) + 1);
    const missing = batch.filter((row) => {
      const left = unmatched.get(key(row)) ?? 0;
      if (left === 0) return true;
      unmatched.set(key(row), left - 1);
      return false;
    });
    if (missing.length > 0) {
      await into
        .insertInto(table)
        .values(missing.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]]))))
        .execute();
    }
    counts.copied += missing.length;
    counts.present += batch.length - missing.length;
  }
}

async function copyDailyTotals(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const rows = await source.selectFrom('daily_totals').selectAll().orderBy('day').orderBy('placement').execute();
  let copied = 0;
  for (let start = 0; start < rows.length; start += batchSize) {
    const result = await target
      .insertInto('daily_totals')
      .values(rows.slice(start, start + batchSize))
      .onConflict((conflict) => conflict.columns(['day', 'placement']).doNothing())
      .executeTakeFirst();
    copied += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return { copied, present: rows.length - copied };
}
