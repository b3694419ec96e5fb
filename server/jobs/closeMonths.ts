import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { readLastClosedDay, readLastClosedMonth, readLastClosedWeek } from '../dayCounts/dayCounts';
import { months, weeksOfMonth, type Period } from '../lib/utcDay';

/** Rows per insert statement, as closeDays.ts writes them. */
const insertBatch = 200;

/** A period closed days are summed into: months (migration 13) or weeks of the month (migration 16). */
interface SummedPeriod {
  period: Period;
  sums: 'monthly_counts' | 'weekly_counts';
  claims: 'closed_months' | 'closed_weeks';
  column: 'month' | 'week';
  /** At most this many are summed in one run (the first run after their migration sums the whole history). */
  maxPerRun: number;
  readLatest(db: Kysely<Schema>): Promise<string>;
}

const summedMonths: SummedPeriod = { period: months, sums: 'monthly_counts', claims: 'closed_months', column: 'month', maxPerRun: 120, readLatest: readLastClosedMonth };

const summedWeeks: SummedPeriod = { period: weeksOfMonth, sums: 'weekly_counts', claims: 'closed_weeks', column: 'week', maxPerRun: 520, readLatest: readLastClosedWeek };

async function firstToClose(db: Kysely<Schema>, { period, readLatest }: SummedPeriod): Promise<string | undefined> {
  const latest = await readLatest(db);
  if (latest !== '') return period.next(latest);
  const first = await db.selectFrom('closed_days').select((eb) => eb.fn.min('day').as('day')).executeTakeFirst();
  return first?.day ? period.of(first.day) : undefined;
}

/**
 * Sums each period whose days are all closed into its table, oldest first, so a report of a range reads
 * a row a value for each whole period in it rather than one a day (dayCounts.ts, rangeValueRows). Closed
 * days never change, so a period's sums are read outside any transaction and written in one short
 * transaction that first claims the period, as closeFinishedDays claims a day: summed once across
 * instances, and a run cut short leaves its period for the next. What a period holds is bounded by its
 * days' capped rows (dimensions.ts, maxValuesPerDay), whatever its traffic. Resolves to the periods summed.
 */
async function closeFinishedPeriods(db: Kysely<Schema>, summed: SummedPeriod, now: Date): Promise<string[]> {
  const lastClosedDay = await readLastClosedDay(db);
  const first = await firstToClose(db, summed);
  if (lastClosedDay === '' || first === undefined) return [];
  const { period } = summed;
  const last = period.lastWholeTo(lastClosedDay);
  const closed: string[] = [];
  // The tables differ by their period's column only.
  const anyDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (let each = first; each <= last && closed.length < summed.maxPerRun; each = period.next(each)) {
    const { rows } = await sql<{ dimension: string; value: string; views: unknown; visitors: unknown; clicks: unknown; clickers: unknown; distinct_values: unknown }>`
      select dimension, value, sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers, sum(distinct_values) as distinct_values
      from daily_counts where day >= ${period.firstDay(each)} and day <= ${period.lastDay(each)} group by dimension, value`.execute(db);
    // PostgreSQL hands sums of bigints back as text.
    const sums = rows.map((row) => ({
      dimension: row.dimension,
      [summed.column]: each,
      value: row.value,
      views: Number(row.views),
      visitors: Number(row.visitors),
      clicks: Number(row.clicks),
      clickers: Number(row.clickers),
      distinct_values: Number(row.distinct_values),
    }));
    const claimed = await anyDb.transaction().execute(async (trx) => {
      const claim = await trx
        .insertInto(summed.claims)
        .values({ [summed.column]: each, closed_at: now.getTime() })
        .onConflict((conflict) => conflict.column(summed.column).doNothing())
        .executeTakeFirst();
      if (Number(claim.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      for (let start = 0; start < sums.length; start += insertBatch) await trx.insertInto(summed.sums).values(sums.slice(start, start + insertBatch)).execute();
      return true;
    });
    if (!claimed) break;
    closed.push(each);
  }
  return closed;
}

/** Sums each month whose days are all closed into monthly_counts (migration 13): a year's report reads twelve rows a value rather than 365. */
export const closeFinishedMonths = (db: Kysely<Schema>, now: Date = new Date()): Promise<string[]> => closeFinishedPeriods(db, summedMonths, now);

/** Sums each week of the month whose days are all closed into weekly_counts (migration 16): 30 days read about ten rows a value rather than 30. */
export const closeFinishedWeeks = (db: Kysely<Schema>, now: Date = new Date()): Promise<string[]> => closeFinishedPeriods(db, summedWeeks, now);
