import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * 8: split tests of the site's words (server/experiments/). A view and a click keep the variants their
 * page showed, written `experiment:variant` and joined by commas ('' outside every experiment); a
 * conversion keeps its click's (or those its sub-ID names without JavaScript). Conversions folded past
 * retention keep them in a table of their own, per day, variants and currency, beside daily_conversions,
 * whose totals stay as they were. Reports read only the conversions in an experiment, from their own
 * partial index.
 */
const migration: Migration = async (db) => {
  for (const table of ['views', 'clicks', 'conversions']) {
    await db.schema.alterTable(table).addColumn('variants', 'text', (column) => column.notNull().defaultTo('')).execute();
  }
  await sql`create index conversions_in_experiments on conversions (coalesce(click_day, day), variants, currency, payout_micros) where reversed_at is null and variants <> ''`.execute(db);
  await db.schema
    .createTable('daily_variant_conversions')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('variants', 'text', (column) => column.notNull())
    .addColumn('currency', 'char(3)', (column) => column.notNull())
    .addColumn('conversions', 'integer', (column) => column.notNull())
    .addColumn('payout_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_variant_conversions_pk', ['day', 'variants', 'currency'])
    .execute();
};

export default migration;
