import type { Config } from './config';
import { maintenanceIntervalMs, runMaintenance } from './jobs/maintenance';
import type { StatsStores } from './statsStores';
import type { Logger } from './lib/logger';
import { releaseRecorderOf } from './releases/recordRelease';
import { distDir } from './lib/paths';
import { flushIntervalMs } from './beacons/filteredCounter';
import { createDigestJob } from './digest/digestJob';
import { createAlertSender, createDeliveryChannels } from './alerts/alertSender';
import { createAlertWatch } from './alerts/watch';

/** What a running instance does besides answering requests, started together and stopped in order. */
export interface BackgroundWork {
  /** At the stop signal: no timer starts anything new, and no new alert send begins. */
  stop(): void;
  /** Once the last request is answered, before the database closes: the last filtered counts written, the send in flight finished. */
  finish(): Promise<void>;
}

/**
 * Starts every timer of a running instance. Each is unref'd and never throws, and none runs long work on
 * this thread: the maintenance (old salts, closing days, retention), this build recorded as a release, the
 * beacons' filtered counts written, the alert rules, the weekly digest and the sender that delivers both.
 */
export function startBackgroundWork(config: Config, stores: StatsStores | undefined, { checksLink, logger }: { checksLink: boolean; logger: Logger }): BackgroundWork {
  if (!stores || !config.statistics) return { stop: () => {}, finish: async () => {} };
  const { retentionDays } = config.statistics;
  // This build recorded as a release once across instances (server/releases/); with the database down, again each round until it is.
  const releaseRecorder = releaseRecorderOf(stores.database.db, distDir, logger);
  const maintain = () => {
    void runMaintenance(stores, logger, retentionDays);
    void releaseRecorder?.record();
  };
  maintain();
  stores.reports.warmUp();
  const maintenanceTimer = setInterval(maintain, maintenanceIntervalMs).unref();
  // The reports the beacons did not count, added to the database every few seconds (a crash loses at most these).
  const filteredTimer = setInterval(() => void stores.filtered.flush(), flushIntervalMs).unref();
  // Alerts and the digest leave through the outbox: every instance sends what is due, each row once (server/alerts/alertSender.ts).
  const alertSender = config.alerts
    ? createAlertSender({ db: stores.database.db, channels: createDeliveryChannels(config.alerts), logger, availability: stores.database.availability })
    : undefined;
  const enqueued = () => alertSender?.wake();
  // The weekly digest by e-mail, through the outbox, once across instances; none without e-mail or with DIGEST_DAY=off (server/digest/).
  const digestJob =
    config.alerts?.email && config.alerts.digest
      ? createDigestJob({ db: stores.database.db, reports: stores.reports, schedule: config.alerts.digest, siteUrl: config.siteUrl, logger, availability: stores.database.availability, enqueued })
      : undefined;
  // The alert rules, whenever statistics are on (incidents are recorded for /admin even with alerts off); each instance's own database rule (server/alerts/watch.ts).
  const alertWatch = createAlertWatch(stores, { alerts: config.alerts, siteUrl: config.siteUrl, checksLink, logger, enqueued });
  alertSender?.start();
  digestJob?.start();
  alertWatch.start();

  let alertsStopped: Promise<void> | undefined;
  return {
    stop() {
      clearInterval(maintenanceTimer);
      clearInterval(filteredTimer);
      digestJob?.stop();
      alertWatch.stop();
      // No new send starts; the one in flight finishes (bounded by its channel's timeouts). Killed first, its claim lapses and a sender sends it again.
      alertsStopped = alertSender?.stop();
    },
    async finish() {
      // The last requests' filtered counts, once no request can add more (a database down keeps them unwritten).
      await stores.filtered.flush();
      await alertsStopped;
    },
  };
}
