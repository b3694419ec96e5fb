import { dayMs, utcDay } from '../lib/utcDay';
import type { Kysely } from 'kysely';
import { minimumConversionDays, type ConversionStore } from '../conversions/conversionStore';
import type { Schema } from '../db/schema';
import { forgetJobRunsBefore } from './jobRuns';
import { forgetOldSalts } from '../beacons/visitorSalts';
import type { Logger } from '../lib/logger';
import { closeFinishedDays, type ReadRawDay } from './closeDays';
import { closeFinishedMonths, closeFinishedWeeks } from './closeMonths';
import { forgetRawRows } from './forgetRawRows';
import { forgetDeliveriesBefore } from '../delivery/outbox';

/** How often each instance looks for maintenance to do. Old salts go within this long of turning two days old. */
export const maintenanceIntervalMs = 15 * 60 * 1000;

/** Job claims are kept this long as a record of which instance did what, then dropped. */
const jobRunHistoryMs = 30 * dayMs;

/**
 * Alerts' deliveries that ended (sent or given up) are kept this long, then dropped: /admin shows the last
 * 30 days' and the digest a week's. Their incidents stay, as the history; a delivery still due is never dropped.
 */
export const deliveryHistoryMs = 90 * dayMs;

/** What maintenance works on: the open database and the few stores it calls (the running site's StatsStores has them all). */
export interface MaintenanceStores {
  database: { db: Kysely<Schema>; availability: { available: boolean } };
  reports: { readRawDay: ReadRawDay };
  conversions: Pick<ConversionStore, 'foldOldConversions'>;
  claimJobRun(job: string, period: string): Promise<boolean>;
}

const dayList = (days: string[]) => (days.length === 1 ? days[0] : `${days[0]} to ${days.at(-1)}`);

/**
 * Runs at start-up and every maintenanceIntervalMs on every instance. Deleting old salts is harmless to
 * repeat, so every instance does it; each finished day is closed into daily totals once across instances
 * (closed_days claims it), and each month and week of the month whose days are closed summed into monthly and weekly totals (closed_months, closed_weeks); raw rows past retention are deleted and old conversions folded by the one
 * instance that claims the day's run. Never throws: with the database down, it waits for the next round (the outage is logged once, by availability.ts).
 */
export async function runMaintenance(stores: MaintenanceStores, logger: Logger, retentionDays: number, now: Date = new Date()): Promise<void> {
  try {
    const db = stores.database.db;
    await forgetOldSalts(db, now);
    const closed = await closeFinishedDays(db, stores.reports.readRawDay, now);
    if (closed.length > 0) logger.info(`Closed ${dayList(closed)} into daily totals`);
    const months = await closeFinishedMonths(db, now);
    if (months.length > 0) logger.info(`Summed ${dayList(months)} into monthly totals`);
    const weeks = await closeFinishedWeeks(db, now);
    if (weeks.length > 0) logger.info(`Summed ${weeks.length === 1 ? 'the week' : 'the weeks'} of the month from ${dayList(weeks)} into weekly totals`);
    if (!(await stores.claimJobRun('fold', utcDay(now)))) return;
    const raw = await forgetRawRows(db, retentionDays, now);
    const conversions = await stores.conversions.foldOldConversions(retentionDays, now);
    if (raw.views + raw.clicks + raw.leaves + conversions > 0) {
      logger.info(`Deleted ${raw.views} views${raw.leaves > 0 ? `, ${raw.leaves} leave reports` : ''} and ${raw.clicks} clicks older than ${retentionDays} days (their days stay in the daily totals), and folded ${conversions} conversions older than ${Math.max(retentionDays, minimumConversionDays)} days into daily totals`);
    }
    await forgetJobRunsBefore(db, new Date(now.getTime() - jobRunHistoryMs));
    await forgetDeliveriesBefore(db, now.getTime() - deliveryHistoryMs);
  } catch (error) {
    // During an outage the database's own line has said so once; a line per round would add nothing.
    if (!stores.database.availability.available) return;
    logger.error('maintenance (old salts, closing days, deleting old views and clicks, folding old conversions) did not finish; it runs again later', error);
  }
}
