import { utcDay } from '../clicks/utcDay';
import type { Logger } from '../logger';
import { forgetJobRunsBefore } from './jobRuns';
import type { StatsStores } from './statsStores';
import { forgetOldSalts } from './visitorSalts';

/** How often each instance looks for maintenance to do. Old salts go within this long of turning two days old. */
export const maintenanceIntervalMs = 15 * 60 * 1000;

/** Job claims are kept this long as a record of which instance did what, then dropped. */
const jobRunHistoryMs = 30 * 86_400_000;

/**
 * Runs at start-up and every maintenanceIntervalMs on every instance. Deleting old salts is harmless to
 * repeat, so every instance does it; folding raw clicks into daily totals is claimed once per UTC day
 * across all instances. Never throws: with the database down, it logs and waits for the next round.
 */
export async function runMaintenance(stores: StatsStores, logger: Logger, retentionDays: number, now: Date = new Date()): Promise<void> {
  try {
    await forgetOldSalts(stores.database.db, now);
    if (!(await stores.claimJobRun('fold', utcDay(now)))) return;
    const folded = await stores.clicks.foldOldClicks(now);
    if (folded > 0) logger.info(`Folded ${folded} clicks older than ${retentionDays} days into daily totals`);
    await forgetJobRunsBefore(stores.database.db, new Date(now.getTime() - jobRunHistoryMs));
  } catch (error) {
    logger.error('maintenance (old salts, folding old clicks) did not finish; it runs again later', error);
  }
}
