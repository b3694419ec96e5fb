import type { Migration } from './migration';

/**
 * 20: each host's Retry-After (issue 42): no request to it before `until_at`, kept in the database so a
 * restart and every other instance obey it too (server/fetching/hostHolds.ts).
 */
const migration: Migration = async (db) => {
  await db.schema
    .createTable('fetch_holds')
    .addColumn('host', 'text', (column) => column.primaryKey())
    .addColumn('until_at', 'bigint', (column) => column.notNull())
    .execute();
};

export default migration;
