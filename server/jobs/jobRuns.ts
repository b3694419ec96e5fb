import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/**
 * Claims a job's run for one period (a UTC day, a link-check interval) for this instance. Only the
 * first instance to ask gets true, on either engine, because the insert of the same (job, period)
 * conflicts for every later one; the others skip the work.
 */
export async function claimJobRun(db: Kysely<Schema>, job: string, period: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .insertInto('job_runs')
    .values({ job, period, claimed_at: now.getTime() })
    .onConflict((conflict) => conflict.columns(['job', 'period']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Whether some instance has claimed the job's run for the period: a cheap look before work that is only worth doing unclaimed. */
export async function isJobRunClaimed(db: Kysely<Schema>, job: string, period: string): Promise<boolean> {
  const row = await db.selectFrom('job_runs').select('job').where('job', '=', job).where('period', '=', period).executeTakeFirst();
  return row !== undefined;
}

/** Claims older than this are only history: they are deleted by the daily maintenance. */
export async function forgetJobRunsBefore(db: Kysely<Schema>, before: Date): Promise<void> {
  await db.deleteFrom('job_runs').where('claimed_at', '<', before.getTime()).execute();
}
