import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { batchesOf, copyKeyedRows, type CopyCounts } from './copyKeyedRows';

/**
 * The incidents recorded in one database, copied into another (db:copy), so /admin's history and the
 * digest's week move with the data. An incident is known by its rule, subject and the moment it opened:
 * copied when the target lacks it, already there when it holds the same row, skipped when it holds another
 * version of it (closed there since), or when the target already has its own open incident of the same
 * rule and subject (at most one is open: the target's stands). Their deliveries (the outbox) stay behind:
 * what the source sent was sent from there, and a message still waiting is the source's to send.
 */
export async function copyIncidents(source: Kysely<Schema>, target: Kysely<Schema>): Promise<CopyCounts> {
  const { copied, present, skipped } = await copyKeyedRows(
    target,
    // No conflict named: the one an insert can meet is the target's own open incident of the rule and subject (incidents_open).
    { table: 'incidents', key: ['rule', 'subject', 'opened_at'], figures: ['closed_at', 'summary', 'recovery'], lookup: 'opened_at' },
    batchesOf(source, 'incidents', { order: 'id', size: 500 }),
  );
  return { copied, present, skipped };
}
