import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { readLastClosedDay, readLastClosedMonth } from '../dayCounts/dayCounts';
import { addMonths, firstDayOf, lastDayOf, lastWholeMonthTo, monthOf } from '../lib/utcDay';

/** At most this many months are summed in one run (the first run after migration 13 sums the whole history). */
export const maxMonthsClosedPerRun = 120;

/** Rows per insert statement, as closeDays.ts writes them. */
const insertBatch = 200;

async function firstMonthToClose(db: Kysely<Schema>): Promise<string | undefined> {
  const latest = await readLastClosedMonth(db);
  if (latest !== '') return addMonths(latest, 1);
  const first = await db.selectFrom('closed_days').select((eb) => eb.fn.min('day').as('day')).executeTakeFirst();
  return first?.day ? monthOf(first.day) : undefined;
}

/**
 * Sums each month whose days are all closed into monthly_counts (migration 13), oldest first, so a
 * report of a year reads twelve rows a value rather than 365 (dayCounts.ts, rangeValueRows). Closed
 * days never change, so a month's sums are read outside any transaction and written in one short
 * transaction that first claims the month in closed_months, as closeFinishedDays claims a day: summed
 * once across instances, and a run cut short leaves its month for the next. What a month holds is
 * bounded by its days' capped rows (dimensions.ts, maxValuesPerDay), whatever its traffic. Resolves to
 * the months it summed.
 */
export async function closeFinishedMonths(db: Kysely<Schema>, now: Date = new Date()): Promise<string[]> {
  const lastClosedDay = await readLastClosedDay(db);
  const first = await firstMonthToClose(db);
  if (lastClosedDay === '' || first === undefined) return [];
  // The latest month whose every day is closed.
  const last = lastWholeMonthTo(lastClosedDay);
  const closed: string[] = [];
  for (let month = first; month <= last && closed.length < maxMonthsClosedPerRun; month = addMonths(month, 1)) {
    const { rows } = await sql<{ dimension: string; value: string; views: unknown; visitors: unknown; clicks: unknown; clickers: unknown; distinct_values: unknown }>`
      select dimension, value, sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers, sum(distinct_values) as distinct_values
      from daily_counts where day >= ${firstDayOf(month)} and day <= ${lastDayOf(month)} group by dimension, value`.execute(db);
    // PostgreSQL hands sums of bigints back as text.
    const sums = rows.map((row) => ({
      dimension: row.dimension,
      month,
      value: row.value,
      views: Number(row.views),
      visitors: Number(row.visitors),
      clicks: Number(row.clicks),
      clickers: Number(row.clickers),
      distinct_values: Number(row.distinct_values),
    }));
    const claimed = await db.transaction().execute(async (trx) => {
      const claim = await trx
        .insertInto('closed_months')
        .values({ month, closed_at: now.getTime() })
        .onConflict((conflict) => conflict.column('month').doNothing())
        .executeTakeFirst();
      if (Number(claim.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      for (let start = 0; start < sums.length; start += insertBatch) await trx.insertInto('monthly_counts').values(sums.slice(start, start + insertBatch)).execute();
      return true;
    });
    if (!claimed) break;
    closed.push(month);
  }
  return closed;
}
