import { idColumn, type Migration } from './migration';

/**
 * 19: the claims watch (issue 42). Each claim's last verdict with its items' outcomes (claim_states); the
 * evidence kept on every change of a claim's verdict, the page compressed, the last 20 per claim
 * (claim_evidence); each merchant page's validators for the next conditional request (claim_pages).
 */
const migration: Migration = async (db, engine) => {
  await db.schema
    .createTable('claim_states')
    .addColumn('claim_id', 'text', (column) => column.primaryKey())
    .addColumn('verdict', 'text', (column) => column.notNull())
    .addColumn('since', 'bigint', (column) => column.notNull())
    .addColumn('checked_at', 'bigint', (column) => column.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('first_checked_at', 'bigint', (column) => column.notNull())
    .addColumn('items', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('claim_evidence')
    .addColumn('id', ...idColumn(engine))
    .addColumn('claim_id', 'text', (column) => column.notNull())
    .addColumn('recorded_at', 'bigint', (column) => column.notNull())
    .addColumn('verdict', 'text', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('excerpt', 'text', (column) => column.notNull())
    .addColumn('excerpt_hash', 'text', (column) => column.notNull())
    .addColumn('page_gzip', engine === 'postgres' ? 'bytea' : 'blob')
    .execute();
  await db.schema.createIndex('claim_evidence_by_claim').on('claim_evidence').columns(['claim_id', 'recorded_at']).execute();
  await db.schema
    .createTable('claim_pages')
    .addColumn('url', 'text', (column) => column.primaryKey())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('fetched_at', 'bigint', (column) => column.notNull())
    .execute();
};

export default migration;
