import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { closeFinishedMonths, closeFinishedWeeks } from '../../server/jobs/closeMonths';
import { forgetRawRows } from '../../server/jobs/forgetRawRows';

/** What the daily maintenance does to views and clicks: closes every finished day, month and week, then deletes raw rows past retention. */
export async function closeDaysAndForget(db: Kysely<Schema>, retentionDays: number, now: Date): Promise<{ views: number; clicks: number }> {
  await closeFinishedDays(db, (day) => readRawDayCounts(db, day), now);
  await closeFinishedMonths(db, now);
  await closeFinishedWeeks(db, now);
  return forgetRawRows(db, retentionDays, now);
}
