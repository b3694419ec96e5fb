import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * 13: a year's report at the cost of its months (issue 27's volume).
 * - monthly_counts: each closed month's daily_counts summed per dimension and value, as a report of a
 *   range sums them. A range's whole closed months are read from here, so a year of 200 campaigns reads
 *   about 12 rows a campaign instead of 365 (server/dayCounts/dayCounts.ts, rangeValueRows). Rows are
 *   written once per month, when its last day has closed (server/jobs/closeMonths.ts), and never change,
 *   since a closed day's counts never do. Written by the job, not here: it fills in every month whose
 *   days are closed, those from before this step too.
 * - closed_months: the months summed, claimed as closed_days claims a day, so one instance writes each.
 * - cost_days and cost_months: the reported costs summed per day and currency, and per month, source,
 *   campaign, ad and currency, kept by every write of costs in its own transaction
 *   (server/costs/costSums.ts): a year of 200 campaigns' daily costs is 110,000 rows, which the report's
 *   two sums read as 365 and about 3,600. Filled here from the costs already held.
 * - costs_in_days: the key with the amount, so the days around a range's whole months are summed from the
 *   index alone (SQLite keeps costs in a table apart from its key).
 */
const migration: Migration = async (db) => {
  await db.schema
    .createTable('monthly_counts')
    .addColumn('dimension', 'text', (column) => column.notNull())
    .addColumn('month', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('views', 'bigint', (column) => column.notNull())
    .addColumn('visitors', 'bigint', (column) => column.notNull())
    .addColumn('clicks', 'bigint', (column) => column.notNull())
    .addColumn('clickers', 'bigint', (column) => column.notNull())
    .addColumn('distinct_values', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('monthly_counts_pk', ['dimension', 'month', 'value'])
    .execute();
  await db.schema
    .createTable('closed_months')
    .addColumn('month', 'text', (column) => column.primaryKey())
    .addColumn('closed_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('cost_days')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('amount_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('cost_days_pk', ['day', 'currency'])
    .execute();
  await db.schema
    .createTable('cost_months')
    .addColumn('month', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('campaign', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('amount_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('cost_months_pk', ['month', 'source', 'campaign', 'content', 'currency'])
    .execute();
  await sql`insert into cost_days (day, currency, amount_micros) select day, currency, sum(amount_micros) from costs group by day, currency`.execute(db);
  await sql`insert into cost_months (month, source, campaign, content, currency, amount_micros)
    select substr(day, 1, 7), source, campaign, content, currency, sum(amount_micros) from costs group by substr(day, 1, 7), source, campaign, content, currency`.execute(db);
  await sql`create index costs_in_days on costs (day, source, campaign, content, currency, amount_micros)`.execute(db);
};

export default migration;
