import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * 5: closed days. Each finished UTC day is closed once into daily_counts, one row per dimension and
 * value (see server/jobs/closeDays.ts), so reports read totals whose size does not grow with traffic;
 * raw rows stay until the retention period. The folded tables of step 1 and 4 become closed days too.
 */
const migration: Migration = async (db) => {
  await db.schema
    .createTable('daily_counts')
    .addColumn('dimension', 'text', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('views', 'integer', (column) => column.notNull())
    .addColumn('visitors', 'integer', (column) => column.notNull())
    .addColumn('clicks', 'integer', (column) => column.notNull())
    .addColumn('clickers', 'integer', (column) => column.notNull())
    .addColumn('distinct_values', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_counts_pk', ['dimension', 'day', 'value'])
    .execute();
  await db.schema
    .createTable('closed_days')
    .addColumn('day', 'text', (column) => column.primaryKey())
    .addColumn('closed_at', 'bigint', (column) => column.notNull())
    .execute();
  // insert ... select: the select lists its columns in this order.
  const counts = ['dimension', 'day', 'value', 'views', 'visitors', 'clicks', 'clickers', 'distinct_values'] as const;
  await db
    .insertInto('daily_counts')
    .columns(counts)
    .expression((eb) =>
      eb
        .selectFrom('daily_totals')
        .where('placement', '<>', '*')
        .select([sql.lit('placement').as('dimension'), 'day', 'placement as value', sql.lit(0).as('views'), sql.lit(0).as('visitors'), 'clicks', 'visitors as clickers', sql.lit(1).as('distinct_values')]),
    )
    .execute();
  await db
    .insertInto('daily_counts')
    .columns(counts)
    .expression((eb) =>
      eb
        .selectFrom('daily_sources')
        .where('source', '<>', '*')
        .select([sql.lit('source').as('dimension'), 'day', 'source as value', 'views', 'visitors', 'clicks', 'clickers', sql.lit(1).as('distinct_values')]),
    )
    .execute();
  // A folded day's totals: clicks from daily_totals' '*' row, views from daily_sources' '*' row.
  const folded = await db
    .selectFrom('daily_totals')
    .where('placement', '=', '*')
    .select(['day', 'clicks', 'visitors'])
    .execute();
  const foldedViews = new Map((await db.selectFrom('daily_sources').where('source', '=', '*').select(['day', 'views', 'visitors']).execute()).map((row) => [row.day, row]));
  const allDays = new Map<string, { views: number; visitors: number; clicks: number; clickers: number }>();
  for (const row of folded) allDays.set(row.day, { views: 0, visitors: 0, clicks: Number(row.clicks), clickers: Number(row.visitors) });
  for (const [day, row] of foldedViews) allDays.set(day, { ...(allDays.get(day) ?? { clicks: 0, clickers: 0 }), views: Number(row.views), visitors: Number(row.visitors) });
  for (const [day, row] of allDays) {
    await db.insertInto('daily_counts').values({ dimension: 'all', day, value: '', ...row, distinct_values: 1 }).execute();
    await db.insertInto('closed_days').values({ day, closed_at: Date.now() }).execute();
  }
  await db.schema.dropTable('daily_totals').execute();
  await db.schema.dropTable('daily_sources').execute();
};

export default migration;
