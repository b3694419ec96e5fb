import type { Kysely } from 'kysely';
import type { CopyCounts } from '../db/copyDatabase';
import type { Schema } from '../db/schema';

const batchSize = 500;

/**
 * The incidents recorded in one database, copied into another (db:copy), so /admin's history and the
 * digest's week move with the data. An incident is known by its rule, subject and the moment it opened:
 * copied when the target lacks it, already there when it holds the same row, skipped when it holds another
 * version of it (closed there since), or when the target already has its own open incident of the same
 * rule and subject (at most one is open: the target's stands). Their deliveries (the outbox) stay behind:
 * what the source sent was sent from there, and a message still waiting is the source's to send.
 */
export async function copyIncidents(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const counts: CopyCounts = { copied: 0, present: 0, skipped: 0 };
  const key = (row: { rule: string; subject: string; opened_at: number }) => JSON.stringify([row.rule, row.subject, String(row.opened_at)]);
  const figures = (row: { closed_at: number | null; summary: string; recovery: string | null }) => JSON.stringify([row.closed_at === null ? null : String(row.closed_at), row.summary, row.recovery]);
  let after = 0;
  for (;;) {
    const batch = await source.selectFrom('incidents').selectAll().where('id', '>', after).orderBy('id').limit(batchSize).execute();
    if (batch.length === 0) return counts;
    after = Number(batch.at(-1)!.id);
    const openedAt = batch.map((row) => row.opened_at);
    const held = new Map(
      (await target.selectFrom('incidents').selectAll().where('opened_at', 'in', openedAt).execute()).map((row) => [key(row), figures(row)]),
    );
    for (const row of batch) {
      const there = held.get(key(row));
      if (there !== undefined) {
        if (there === figures(row)) counts.present += 1;
        else counts.skipped += 1;
        continue;
      }
      const { rule, subject, opened_at, closed_at, summary, recovery } = row;
      // Any conflict is the target's own open incident of the rule and subject (incidents_open): it stands.
      const result = await target.insertInto('incidents').values({ rule, subject, opened_at, closed_at, summary, recovery }).onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) counts.copied += 1;
      else counts.skipped += 1;
    }
  }
}
