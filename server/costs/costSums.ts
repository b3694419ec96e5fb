import { sql, type Kysely, type Transaction } from 'kysely';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import { months, splitIntoSums, weeksOfMonth, type DaySpan } from '../lib/utcDay';
import { weekOfSql } from '../lib/weekOfSql';
import type { ReportRange } from '../dayCounts/reportRange';

/*
 * The reported costs summed ahead of the reports (migrations 13 and 16): cost_days per day and currency,
 * for the report's daily figures, and cost_months and cost_weeks per month or week of the month, source,
 * campaign, ad and currency, for its sums over a range. A year of 200 campaigns' daily costs is 110,000
 * rows; read through these it is 365 rows and about 3,600, plus the weeks and days around its months. A
 * cost's day can be corrected at any time (an ad platform restates its report), so the sums are not
 * closed once as days are: every write of costs sets them anew for the days, months and weeks it touched,
 * in its own transaction.
 */

/** The key of PostgreSQL's transaction-scoped advisory lock that writers of costs take in turn: a constant apart from the migrations' (server/db/migrate.ts). */
const costWritersLock = 270_013;

/**
 * Makes the cost writers of every instance take turns setting the sums, from here to the end of the
 * transaction: called once the transaction's costs are written, so writers still write their rows side
 * by side (each row decided under its own lock, costStore.ts) and wait for each other only for this last
 * step, which a year's import finishes in a fraction of a second. Each writer sets the sums from the
 * costs it sees; two at once would each miss the other's uncommitted rows, and the last to commit would
 * leave sums without the first's. In turn, each statement after the lock sees every writer before it
 * committed. SQLite has one writer at a time already.
 */
export async function takeCostWritersTurn(trx: Transaction<Schema>): Promise<void> {
  if (engineOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${costWritersLock})`.execute(trx);
}

/** The costs' sums over a period: per month (cost_months) and per week of the month (cost_weeks). */
const periodSums = [
  { table: 'cost_months', column: 'month', period: months },
  { table: 'cost_weeks', column: 'week', period: weeksOfMonth },
] as const;

/**
 * Sets cost_days of the given days and cost_months and cost_weeks of their months and weeks from the
 * costs held now: a month or week is summed whole (its days' rows, a few thousand at most campaigns'),
 * never added to, so the sums are whatever the costs say, however often or in whatever pieces they were
 * written. Called in the writing transaction, after its costs are written and takeCostWritersTurn.
 */
export async function setCostSums(trx: Transaction<Schema> | Kysely<Schema>, days: Iterable<string>): Promise<void> {
  const dayList = [...new Set(days)].sort();
  for (let start = 0; start < dayList.length; start += 500) {
    const some = dayList.slice(start, start + 500);
    await trx.deleteFrom('cost_days').where('day', 'in', some).execute();
    await sql`insert into cost_days (day, currency, amount_micros)
      select day, currency, sum(amount_micros) from costs where day in (${sql.join(some)}) group by day, currency`.execute(trx);
  }
  for (const { table, column, period } of periodSums) {
    for (const each of new Set(dayList.map(period.of))) {
      await sql`delete from ${sql.table(table)} where ${sql.ref(column)} = ${each}`.execute(trx);
      await sql`insert into ${sql.table(table)} (${sql.ref(column)}, source, campaign, content, currency, amount_micros)
        select ${each}, source, campaign, content, currency, sum(amount_micros) from costs
        where day >= ${period.firstDay(each)} and day <= ${period.lastDay(each)} group by source, campaign, content, currency`.execute(trx);
    }
  }
}

/** Sets every sum anew from every cost held: for costs written other than through replaceCosts (db:copy). */
export async function resetCostSums(db: Kysely<Schema>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await takeCostWritersTurn(trx);
    await trx.deleteFrom('cost_days').execute();
    await trx.deleteFrom('cost_months').execute();
    await trx.deleteFrom('cost_weeks').execute();
    await sql`insert into cost_days (day, currency, amount_micros) select day, currency, sum(amount_micros) from costs group by day, currency`.execute(trx);
    await sql`insert into cost_months (month, source, campaign, content, currency, amount_micros)
      select substr(day, 1, 7), source, campaign, content, currency, sum(amount_micros) from costs group by substr(day, 1, 7), source, campaign, content, currency`.execute(trx);
    const week = weekOfSql(sql.ref('day'));
    await sql`insert into cost_weeks (week, source, campaign, content, currency, amount_micros)
      select ${week}, source, campaign, content, currency, sum(amount_micros) from costs group by ${week}, source, campaign, content, currency`.execute(trx);
  });
}

/** The reported costs of each day of the range, summed per currency, in day and currency order. */
export async function readDailyCostSums(db: Kysely<Schema>, { from, to }: ReportRange): Promise<{ day: string; currency: string; amountMicros: number }[]> {
  const rows = await db.selectFrom('cost_days').select(['day', 'currency', 'amount_micros']).where('day', '>=', from).where('day', '<=', to).orderBy('day').orderBy('currency').execute();
  return rows.map(({ day, currency, amount_micros }) => ({ day, currency, amountMicros: Number(amount_micros) }));
}

/**
 * The rows whose amounts, summed per source, campaign, ad and currency, are the range's reported costs:
 * the range's whole months from cost_months, the whole weeks around them from cost_weeks, the days left
 * from costs. A subquery for readCostTotals (costStore.ts).
 */
export function rangeCostRows({ from, to }: ReportRange) {
  const columns = sql`source, campaign, content, currency, amount_micros`;
  const { days, weeks, months } = splitIntoSums(from, to);
  const parts = [
    ...(months ? [sql`select ${columns} from cost_months where month >= ${months.first} and month <= ${months.last}`] : []),
    ...weeks.map((span) => sql`select ${columns} from cost_weeks where week >= ${span.first} and week <= ${span.last}`),
    ...days.map((span: DaySpan) => sql`select ${columns} from costs where day >= ${span.from} and day <= ${span.to}`),
  ];
  return parts.length === 0 ? sql`select ${columns} from costs where day >= ${from} and day <= ${to}` : sql.join(parts, sql` union all `);
}
