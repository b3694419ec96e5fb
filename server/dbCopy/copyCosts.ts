import { sql, type Kysely } from 'kysely';
import { resetCostSums } from '../costs/costSums';
import type { Schema } from '../db/schema';
import { copyKeyedRows, type CopyCounts, type Row } from './copyKeyedRows';

const batchSize = 1000;
const costKey = ['day', 'source', 'campaign', 'content', 'currency'] as const;
const ruleColumns = ['source', 'campaign', 'from_day', 'to_day', 'daily_micros', 'per_visitor_micros', 'currency'] as const;

/** The source's costs a batch at a time, in key order, each batch read after the last key of the one before. */
async function* costBatches(source: Kysely<Schema>): AsyncGenerator<Row[]> {
  let after: Row | undefined;
  for (;;) {
    const query = source.selectFrom('costs').selectAll();
    const batch: Row[] = await (after === undefined
      ? query
      : query.where(sql<boolean>`(day, source, campaign, content, currency) > (${after.day}, ${after.source}, ${after.campaign}, ${after.content}, ${after.currency})`)
    )
      .orderBy('day')
      .orderBy('source')
      .orderBy('campaign')
      .orderBy('content')
      .orderBy('currency')
      .limit(batchSize)
      .execute();
    if (batch.length === 0) return;
    after = batch.at(-1);
    yield batch;
  }
}

/**
 * Reported costs (schema 10), keyed by day, source, campaign, ad and currency: copied when the target lacks
 * the key, already there with the same amount, skipped when the target holds another amount (its own import
 * since, say), which it keeps. Written as rows, not through replaceCosts, so the target's sums of them
 * (server/costs/costSums.ts) are then set anew from every cost it holds.
 */
export async function copyCosts(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const { copied, present, skipped } = await copyKeyedRows(
    target,
    { table: 'costs', key: costKey, figures: ['amount_micros'], written: [...costKey, 'amount_micros', 'updated_at'], lookup: 'day', conflict: costKey },
    costBatches(source),
  );
  if (copied > 0) await resetCostSums(target);
  return { copied, present, skipped };
}

/**
 * The fixed-cost rules (npm run costs:set), few and written by hand: a rule is already there when the target
 * holds one with the same source, campaign, days, amounts and currency; otherwise it is copied under the
 * target's own ID.
 */
export async function copyFixedCosts(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const rules: Row[] = await source.selectFrom('fixed_costs').selectAll().orderBy('id').execute();
  const { copied, present, skipped } = await copyKeyedRows(target, { table: 'fixed_costs', key: ruleColumns, figures: [], written: [...ruleColumns, 'created_at'], lookup: 'source' }, [rules]);
  return { copied, present, skipped };
}
