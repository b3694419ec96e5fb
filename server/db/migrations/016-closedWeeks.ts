import { sql } from 'kysely';
import { weekOfSql } from '../../lib/weekOfSql';
import type { Migration } from './migration';

/**
 * 16: 30 days' report at the cost of its weeks (issue 27's volume). Weeks here are weeks of the month
 * (days 1-7, 8-14, 15-21, 22-28 and 29 to the end, named by their first day: server/lib/utcDay.ts), so
 * they nest in months: a range reads its whole months, the whole weeks around them and the days left,
 * and 30 days of 300 ads read about ten rows an ad rather than 30.
 * - weekly_counts and closed_weeks: as monthly_counts and closed_months (migration 13), per week; written
 *   by the job once a week's days are closed (server/jobs/closeMonths.ts), those before this step too.
 * - cost_weeks: as cost_months, per week, kept by every write of costs (server/costs/costSums.ts); filled
 *   here from the costs already held.
 * Each with the covering index migration 15 gave the days and months.
 */
const figures = ['views', 'visitors', 'clicks', 'clickers', 'distinct_values'];

const migration: Migration = async (db, engine) => {
  let table = db.schema
    .createTable('weekly_counts')
    .addColumn('dimension', 'text', (column) => column.notNull())
    .addColumn('week', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull());
  for (const figure of figures) table = table.addColumn(figure, 'bigint', (column) => column.notNull());
  await table.addPrimaryKeyConstraint('weekly_counts_pk', ['dimension', 'week', 'value']).execute();
  const carried = sql.raw(figures.join(', '));
  if (engine === 'postgres') await sql`create index weekly_counts_with_figures on weekly_counts (dimension, week, value) include (${carried})`.execute(db);
  else await sql`create index weekly_counts_with_figures on weekly_counts (dimension, week, value, ${carried})`.execute(db);
  await db.schema
    .createTable('closed_weeks')
    .addColumn('week', 'text', (column) => column.primaryKey())
    .addColumn('closed_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('cost_weeks')
    .addColumn('week', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('campaign', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('amount_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('cost_weeks_pk', ['week', 'source', 'campaign', 'content', 'currency'])
    .execute();
  const week = weekOfSql(sql.ref('day'));
  await sql`insert into cost_weeks (week, source, campaign, content, currency, amount_micros)
    select ${week}, source, campaign, content, currency, sum(amount_micros) from costs group by ${week}, source, campaign, content, currency`.execute(db);
};

export default migration;
