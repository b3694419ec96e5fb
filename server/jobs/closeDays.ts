import type { Kysely } from 'kysely';
import { addDays, dayMs, utcDay } from '../lib/utcDay';
import type { Schema } from '../db/schema';
import { readLastClosedDay } from '../dayCounts/dayCounts';
import type { DayCountsByDimension } from '../dayCounts/rawDayCounts';

/**
 * A day is closed this long after it ends, so a report recorded just after midnight by an instance whose
 * clock runs a little slow still finds its day open.
 */
export const closeGraceMs = 5 * 60_000;

/** At most this many days are closed in one run (a first run after an upgrade closes the whole raw history). */
export const maxDaysClosedPerRun = 3660;

/** Rows per insert statement: far below either engine's limit on bound values. */
const insertBatch = 200;

/** Reads one day's counts from raw rows: in this process, or where the report reader runs them (server/reports/reportReader.ts). */
export type ReadRawDay = (day: string) => Promise<DayCountsByDimension>;

/** The latest day that ended at least closeGraceMs before now. */
export function lastFinishedDay(now: Date): string {
  return utcDay(new Date(now.getTime() - dayMs - closeGraceMs));
}

async function firstRawDay(db: Kysely<Schema>): Promise<string | undefined> {
  const [views, clicks] = await Promise.all(
    (['views', 'clicks'] as const).map((table) => db.selectFrom(table).select((eb) => eb.fn.min('day').as('day')).executeTakeFirst()),
  );
  const days = [views?.day, clicks?.day].filter((day): day is string => typeof day === 'string');
  return days.sort()[0];
}

/**
 * Closes every finished UTC day after the last closed one into daily_counts, oldest first, so the closed
 * days are always every day up to one (what the report relies on). Each day is read outside any
 * transaction (its raw rows no longer change) and written in one short transaction that first claims
 * the day in closed_days: another instance closing the same day waits for that claim, finds it taken and
 * stops, so a day is closed once across instances; a run cut short leaves its day unclaimed for the next.
 * Resolves to the days it closed.
 */
export async function closeFinishedDays(db: Kysely<Schema>, readRawDay: ReadRawDay, now: Date = new Date()): Promise<string[]> {
  const lastClosed = await readLastClosedDay(db);
  const lastFinished = lastFinishedDay(now);
  // Nothing closed yet: start at the first day with raw rows (or, on an empty database, at yesterday).
  const first = lastClosed ? addDays(lastClosed, 1) : ((await firstRawDay(db)) ?? lastFinished);
  const closed: string[] = [];
  for (let day = first; day <= lastFinished && closed.length < maxDaysClosedPerRun; day = addDays(day, 1)) {
    const counts = await readRawDay(day);
    const rows = [...counts].flatMap(([dimension, dayCounts]) =>
      dayCounts.map(({ value, views, visitors, clicks, clickers, distinctValues }) => ({ dimension, day, value, views, visitors, clicks, clickers, distinct_values: distinctValues })),
    );
    const claimed = await db.transaction().execute(async (trx) => {
      const claim = await trx
        .insertInto('closed_days')
        .values({ day, closed_at: now.getTime() })
        .onConflict((conflict) => conflict.column('day').doNothing())
        .executeTakeFirst();
      if (Number(claim.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      for (let start = 0; start < rows.length; start += insertBatch) {
        await trx.insertInto('daily_counts').values(rows.slice(start, start + insertBatch)).execute();
      }
      return true;
    });
    if (!claimed) break;
    closed.push(day);
  }
  return closed;
}
