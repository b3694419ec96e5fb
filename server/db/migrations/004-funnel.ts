import { idColumn, type Migration } from './migration';

/**
 * 4: the funnel. Clicks keep the click ID their sub-ID carried and the source that brought the visitor;
 * page views arrive as their own reports; a conversion keeps what its click said (the join by click ID
 * is made once, when the conversion arrives, so it survives the click's folding). Views and
 * conversions past retention fold into daily totals as clicks do. SQLite adds one column a statement.
 */
const migration: Migration = async (db, engine) => {
  for (const column of ['click_id', 'source']) await db.schema.alterTable('clicks').addColumn(column, 'text').execute();
  await db.schema.createIndex('clicks_by_click_id').on('clicks').column('click_id').execute();
  for (const column of ['click_day', 'page', 'source', 'device']) await db.schema.alterTable('conversions').addColumn(column, 'text').execute();
  await db.schema
    .createTable('views')
    .addColumn('id', ...idColumn(engine))
    .addColumn('at', 'bigint', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('page', 'text', (column) => column.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('source', 'text')
    .addColumn('medium', 'text')
    .addColumn('campaign', 'text')
    .addColumn('device', 'text', (column) => column.notNull())
    .addColumn('visitor', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('views_by_day').on('views').columns(['day', 'source']).execute();
  await db.schema
    .createTable('daily_sources')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('views', 'integer', (column) => column.notNull())
    .addColumn('visitors', 'integer', (column) => column.notNull())
    .addColumn('clicks', 'integer', (column) => column.notNull())
    .addColumn('clickers', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_sources_pk', ['day', 'source'])
    .execute();
  await db.schema
    .createTable('daily_conversions')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('placement', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('currency', 'char(3)', (column) => column.notNull())
    .addColumn('conversions', 'integer', (column) => column.notNull())
    .addColumn('payout_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_conversions_pk', ['day', 'placement', 'source', 'currency'])
    .execute();
};

export default migration;
