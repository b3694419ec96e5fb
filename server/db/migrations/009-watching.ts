import { sql } from 'kysely';
import { idColumn, type Migration } from './migration';

/**
 * 9: the site watching itself (issue 19).
 * - filtered_counts: the beacons' reports refused or skipped, per day, beacon and reason; nothing about the visitor.
 * - releases: each build the site first served, once, with the content and artwork files that changed.
 * - incidents: what the alert rules found wrong, open until it ends; at most one open per rule and subject
 *   (the partial unique index), so whichever instance inserts it first is the one that alerts.
 * - outbox: every message to send (an alert, its recovery, the weekly digest), one row per channel, kept
 *   until sent or given up, so a failing receiver is retried with backoff from whichever instance is up.
 * The indexes let the rules count recent views, clicks and sales at the same cost on a year of rows as on a day.
 */
const migration: Migration = async (db, engine) => {
  await db.schema
    .createTable('filtered_counts')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('beacon', 'text', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('count', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('filtered_counts_pk', ['day', 'beacon', 'reason'])
    .execute();

  await db.schema
    .createTable('releases')
    .addColumn('stamp', 'text', (column) => column.primaryKey())
    .addColumn('first_served_at', 'bigint', (column) => column.notNull())
    .addColumn('files', 'text', (column) => column.notNull())
    .addColumn('note', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('releases_by_time').on('releases').column('first_served_at').execute();

  await db.schema
    .createTable('incidents')
    .addColumn('id', ...idColumn(engine))
    .addColumn('rule', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('opened_at', 'bigint', (column) => column.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('summary', 'text', (column) => column.notNull())
    .addColumn('recovery', 'text')
    .execute();
  await sql`create unique index incidents_open on incidents (rule, subject) where closed_at is null`.execute(db);
  await db.schema.createIndex('incidents_by_time').on('incidents').column('opened_at').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', ...idColumn(engine))
    .addColumn('incident_id', 'bigint')
    .addColumn('event', 'text', (column) => column.notNull())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('given_up_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').column('next_attempt_at').execute();
  await db.schema.createIndex('outbox_by_incident').on('outbox').column('incident_id').execute();
  await db.schema.createIndex('outbox_by_time').on('outbox').column('created_at').execute();

  await db.schema.createIndex('views_by_time').on('views').column('at').execute();
  await db.schema.createIndex('clicks_by_time').on('clicks').column('at').execute();
  await db.schema.createIndex('clicks_by_placement_time').on('clicks').columns(['placement', 'at']).execute();
  await db.schema.createIndex('conversions_by_placement_time').on('conversions').columns(['placement', 'received_at']).execute();
};

export default migration;
