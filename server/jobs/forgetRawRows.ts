import type { Kysely } from 'kysely';
import { addDays, utcDay } from '../clicks/utcDay';
import type { Schema } from '../db/schema';
import { readLastClosedDay } from '../funnelReport/dayCounts';

/**
 * Deletes raw page views and clicks older than the retention period, one day at a time (so no single
 * statement runs long), and only of closed days: their counts are in daily_counts already, so a report
 * of those days reads the same after as before. Resolves to how many views and clicks were deleted.
 */
export async function forgetRawRows(db: Kysely<Schema>, retentionDays: number, now: Date = new Date()): Promise<{ views: number; clicks: number }> {
  const { lastClosed } = await readLastClosedDay(db);
  const cutoff = addDays(utcDay(now), -retentionDays);
  const deleted = { views: 0, clicks: 0 };
  for (const table of ['views', 'clicks'] as const) {
    const oldest = await db.selectFrom(table).select((eb) => eb.fn.min('day').as('day')).executeTakeFirst();
    // Bounded by the days between the oldest row and the cutoff: one statement a day.
    for (let day = oldest?.day; day && day < cutoff && day <= lastClosed; day = addDays(day, 1)) {
      const result = await db.deleteFrom(table).where('day', '=', day).executeTakeFirst();
      deleted[table] += Number(result.numDeletedRows);
    }
  }
  return deleted;
}
