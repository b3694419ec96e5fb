import { idColumn, type Migration } from './migration';

/**
 * 1: raw clicks, and the daily totals they are folded into once older than the retention period.
 * "if not exists": SQLite files from before schema_migrations existed already hold these tables.
 */
const migration: Migration = async (db, engine) => {
  await db.schema
    .createTable('clicks')
    .ifNotExists()
    .addColumn('id', ...idColumn(engine))
    .addColumn('at', 'bigint', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('placement', 'text', (column) => column.notNull())
    .addColumn('page', 'text', (column) => column.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('device', 'text', (column) => column.notNull())
    .addColumn('visitor', 'text', (column) => column.notNull())
    .addColumn('via', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('clicks_by_day').ifNotExists().on('clicks').columns(['day', 'placement']).execute();
  await db.schema
    .createTable('daily_totals')
    .ifNotExists()
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('placement', 'text', (column) => column.notNull())
    .addColumn('clicks', 'integer', (column) => column.notNull())
    .addColumn('visitors', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_totals_pk', ['day', 'placement'])
    .execute();
};

export default migration;
