import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * 12: conversions credited to the campaign and ad that brought the visitor (issue 27).
 * - conversions gain campaign and content, copied from the click the click ID names as source is (null
 *   when no click matched, or the visit carried none).
 * - daily_campaign_conversions keeps them past retention, per attributed day, source, campaign, content
 *   and currency ('' for a part not known), as daily_variant_conversions keeps the experiments' share:
 *   only conversions with a campaign or a content are folded into it (they are in daily_conversions too).
 * - conversions_in_campaigns: the partial index the campaign report reads, as conversions_in_experiments.
 */
const migration: Migration = async (db) => {
  for (const column of ['campaign', 'content']) await db.schema.alterTable('conversions').addColumn(column, 'text').execute();
  await sql`create index conversions_in_campaigns on conversions (coalesce(click_day, day), source, campaign, content, currency, payout_micros) where reversed_at is null and (campaign is not null or content is not null)`.execute(db);
  await db.schema
    .createTable('daily_campaign_conversions')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('campaign', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('currency', 'char(3)', (column) => column.notNull())
    .addColumn('conversions', 'integer', (column) => column.notNull())
    .addColumn('payout_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('daily_campaign_conversions_pk', ['day', 'source', 'campaign', 'content', 'currency'])
    .execute();
};

export default migration;
