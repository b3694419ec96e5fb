import { idColumn, type Migration } from './migration';

/**
 * 10: what each source costs (issue 27).
 * - costs: the state of one UTC day's spend on one source, campaign and ad (content) in one currency, in
 *   micros. The key is the whole identity, so a corrected report replaces a row and never adds a second.
 * - fixed_costs: the operator's rules for sources without a report (npm run costs:set): from day to day, a
 *   daily amount or an amount per visitor, in micros of the currency; turned into per-day costs when read.
 */
const migration: Migration = async (db, engine) => {
  await db.schema
    .createTable('costs')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('campaign', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('amount_micros', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('costs_pk', ['day', 'source', 'campaign', 'content', 'currency'])
    .execute();

  await db.schema
    .createTable('fixed_costs')
    .addColumn('id', ...idColumn(engine))
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('campaign', 'text', (column) => column.notNull())
    .addColumn('from_day', 'text', (column) => column.notNull())
    .addColumn('to_day', 'text', (column) => column.notNull())
    .addColumn('daily_micros', 'bigint')
    .addColumn('per_visitor_micros', 'bigint')
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('fixed_costs_by_day').on('fixed_costs').columns(['from_day', 'to_day']).execute();
};

export default migration;
