import type { Config } from './config';
import { runMaintenance } from './jobs/maintenance';
import type { StatsStores } from './statsStores';
import type { Logger } from './lib/logger';
import { releaseRecorderOf } from './releases/recordRelease';
import { distDir } from './lib/paths';
import { createDigestJob } from './digest/digestJob';
import { closeDeliveryChannels, createDeliveryChannels } from './delivery/deliveryChannels';
import { createOutboxSender } from './delivery/outboxSender';
import { createAlertWatch } from './alerts/watch';
import { linkCheckTickMs, type LinkMonitor } from './linkHealth/linkMonitor';
import { claimsCheckTickMs, type ClaimsWatch } from './claims/claimsWatch';
import { instanceSchedule } from './schedule/schedule';
import { startSchedule, type Timers } from './schedule/runSchedule';
import { createDailyBackup } from './backup/dailyBackup';

/** What a running instance does besides answering requests, started together and stopped in order. */
export interface BackgroundWork {
  /** At the stop signal: no timer starts anything new, and no new outbox send begins. */
  stop(): void;
  /**
   * Once the last request is answered, before the database closes: the runs under way finished, the last
   * filtered counts written, the send in flight finished, the channels closed.
   */
  finish(): Promise<void>;
  /** Resolves once no scheduled run is under way (RunningSchedule.settled): for tests that drive the clock by hand. */
  settled(): Promise<void>;
}

export interface BackgroundWorkOptions {
  /** The link monitor, unless LINK_CHECK_HOURS is off (main.ts builds it: /admin reads its state). */
  linkMonitor?: LinkMonitor;
  /** The claims watch, unless CLAIMS_CHECK_HOURS is off or MERCHANT_URL a documentation address (main.ts builds it). */
  claimsWatch?: ClaimsWatch;
  logger: Logger;
  /** Tests drive the schedule's clock; a running instance uses Node's timers. */
  timers?: Timers;
  /** The clock the daily backup names its day by; tests move it with their timers. */
  now?: () => number;
}

/**
 * Builds the work of a running instance and starts it on the schedule (server/schedule/schedule.ts, which
 * lists every timer): the maintenance (old salts, closing days, retention), this build recorded as a
 * release, the beacons' filtered counts written, the outbox's sender, the weekly digest, the alert watch,
 * the link check and the daily backup. The delivery channels are built here, once, for the sender and the database alert.
 */
export function startBackgroundWork(config: Config, stores: StatsStores | undefined, { linkMonitor, claimsWatch, logger, timers, now }: BackgroundWorkOptions): BackgroundWork {
  // Every minute each instance looks whether a check is due (server/linkHealth/linkMonitor.ts: at start-up, per LINK_CHECK_HOURS, soon after a broken answer).
  const linkCheck = linkMonitor && { everyMs: linkCheckTickMs, run: () => linkMonitor.tick() };
  if (!stores || !config.statistics) {
    const schedule = startSchedule(instanceSchedule({ linkCheck }), { logger, timers });
    return { stop: () => schedule.stop(), finish: () => schedule.finish(), settled: () => schedule.settled() };
  }
  const { retentionDays } = config.statistics;
  // This build recorded as a release once across instances (server/releases/); with the database down, again each round until it is.
  const releaseRecorder = releaseRecorderOf(stores.database.db, distDir, logger);
  const channels = config.alerts ? createDeliveryChannels(config.alerts) : {};
  // Alerts and the digest leave through the outbox: every instance sends what is due, each row once (server/delivery/).
  const sender = config.alerts ? createOutboxSender({ db: stores.database.db, channels, logger, availability: stores.database.availability }) : undefined;
  const enqueued = () => sender?.wake();
  // The weekly digest by e-mail, through the outbox, once across instances; none without e-mail or with DIGEST_DAY=off (server/digest/).
  const digestJob =
    config.alerts?.email && config.alerts.digest
      ? createDigestJob({ db: stores.database.db, reports: stores.reports, schedule: config.alerts.digest, siteUrl: config.siteUrl, logger, availability: stores.database.availability, enqueued })
      : undefined;
  // With BACKUP_DIR: a checked copy of the SQLite file each day, made in a thread of its own (server/backup/).
  const database = config.statistics.database;
  const dailyBackup =
    config.backupDir && database.engine === 'sqlite' ? createDailyBackup({ source: database.file, dir: config.backupDir, logger, ...(now ? { now } : {}) }) : undefined;
  // The alert rules, whenever statistics are on (incidents are recorded for /admin even with alerts off); each instance's own database rule (server/alerts/watch.ts).
  const alertWatch = createAlertWatch(stores, { alerts: config.alerts, siteUrl: config.siteUrl, checksLink: linkMonitor !== undefined, logger, channels, enqueued });

  // The report worker reads a first report once the first maintenance is done, not beside it: at start-up
  // after an upgrade or a db:copy, closing may have months of days to catch up, and a report meanwhile
  // reads every open day (dayCounts.ts) in the one worker that closing needs, which held closing's reads
  // past their time limit until the next round, 15 minutes on.
  let warmed = false;
  const warmUpOnce = () => {
    if (warmed) return;
    warmed = true;
    stores.reports.warmUp();
  };

  const schedule = startSchedule(
    instanceSchedule({
      statistics: {
        maintain: async () => {
          await runMaintenance(stores, logger, retentionDays);
          warmUpOnce();
        },
        ...(releaseRecorder ? { recordRelease: () => releaseRecorder.record() } : {}),
        // The reports the beacons did not count, added to the database every few seconds (a crash loses at most these).
        flushFiltered: () => stores.filtered.flush(),
        watch: () => alertWatch.tick(),
        ...(digestJob ? { checkDigest: () => digestJob.check() } : {}),
        ...(sender ? { sendOutbox: () => sender.poll() } : {}),
        // SQLite: whether the file at CLICKS_DB is still the one open, seen without traffic (server/db/sqliteFileGuard.ts).
        ...(stores.database.checkFile ? { checkDatabaseFile: stores.database.checkFile } : {}),
      },
      // After a check it made, the instance runs the link rule at once: a second broken answer alerts within seconds.
      linkCheck: linkMonitor && { everyMs: linkCheckTickMs, run: async () => (await linkMonitor.tick()) && (await alertWatch.linkChecked()) },
      // After a check it made, the instance runs the claims rule at once, as after a link check.
      ...(claimsWatch ? { claimsCheck: { everyMs: claimsCheckTickMs, run: async () => (await claimsWatch.tick()) && (await alertWatch.claimsChecked()) } } : {}),
      ...(dailyBackup ? { backup: () => dailyBackup.run() } : {}),
    }),
    { logger, timers },
  );

  let sendingStopped: Promise<void> | undefined;
  return {
    stop() {
      schedule.stop();
      // No new send starts; the one in flight finishes (bounded by its channel's timeouts). Killed first, its claim lapses and a sender sends it again.
      sendingStopped = sender?.stop();
    },
    async finish() {
      await schedule.finish();
      // The last requests' filtered counts, once no request can add more (a database down keeps them unwritten).
      await stores.filtered.flush();
      await sendingStopped;
      closeDeliveryChannels(channels);
    },
    settled: () => schedule.settled(),
  };
}
