import type { Kysely } from 'kysely';
import { addDays, utcDay } from '../lib/utcDay';
import type { Schema } from '../db/schema';
import { readLastClosedDay } from '../dayCounts/dayCounts';

/**
 * Rows one delete statement takes at most: SQLite deletes synchronously in the serving thread, and a busy
 * day's 27,000 views at once held it for tens of milliseconds; a few thousand are a few.
 */
const deleteBatch = 2_000;

/**
 * Deletes raw page views, clicks and leave reports older than the retention period, a day at a time and a batch at a
 * time (so no single statement runs long), and only of closed days: their counts are in daily_counts
 * already, so a report of those days reads the same after as before. Resolves to how many views,
 * clicks and leave reports were deleted.
 */
export async function forgetRawRows(db: Kysely<Schema>, retentionDays: number, now: Date = new Date()): Promise<{ views: number; clicks: number; leaves: number }> {
  const lastClosed = await readLastClosedDay(db);
  const cutoff = addDays(utcDay(now), -retentionDays);
  const deleted = { views: 0, clicks: 0, leaves: 0 };
  for (const table of ['views', 'clicks', 'leaves'] as const) {
    const oldest = await db.selectFrom(table).select((eb) => eb.fn.min('day').as('day')).executeTakeFirst();
    // Bounded by the days between the oldest row and the cutoff, and within a day by its rows.
    for (let day = oldest?.day; day && day < cutoff && day <= lastClosed; day = addDays(day, 1)) {
      for (;;) {
        const batch = db.selectFrom(table).select('id').where('day', '=', day).limit(deleteBatch);
        const result = await db.deleteFrom(table).where('id', 'in', batch).executeTakeFirst();
        deleted[table] += Number(result.numDeletedRows);
        if (Number(result.numDeletedRows) < deleteBatch) break;
      }
    }
  }
  return deleted;
}
