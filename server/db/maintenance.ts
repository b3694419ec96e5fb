import { utcDay } from '../clicks/utcDay';
import type { Logger } from '../logger';
import { minimumConversionDays } from '../conversions/conversionStore';
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
    const views = await stores.views.foldOldViews(now);
    const clicks = await stores.clicks.foldOldClicks(now);
    const conversions = await stores.conversions.foldOldConversions(now);
    if (views + clicks + conversions > 0) {
      logger.info(`Folded ${views} views and ${clicks} clicks older than ${retentionDays} days, and ${conversions} conversions older than ${Math.max(retentionDays, minimumConversionDays)} days, into daily totals`);
    }
    await forgetJobRunsBefore(stores.database.db, new Date(now.getTime() - jobRunHistoryMs));
  } catch (error) {
    logger.error('maintenance (old salts, folding old views, clicks and conversions) did not finish; it runs again later', error);
  }
}
