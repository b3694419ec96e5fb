// First of all: on an older Node it prints one line and exits, before better-sqlite3 could crash the process.
import './nodeVersion';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ConfigError, loadConfig, SAMPLE_AFFILIATE_URL, type Config } from './config';
import { maintenanceIntervalMs, runMaintenance } from './jobs/maintenance';
import { DatabaseError, openDatabase } from './db/openDatabase';
import { createStatsStores, type StatsStores } from './statsStores';
import { createHttpServer, shutDown } from './httpServer';
import { memoryLinkCheckLog } from './linkHealth/linkCheckLog';
import { LinkMonitor } from './linkHealth/linkMonitor';
import { consoleLogger } from './lib/logger';
import { ManifestError } from './manifest';
import { openReportReader } from './reports/reportReader';
import { releaseRecorderOf } from './releases/recordRelease';
import { distDir } from './lib/paths';
import { flushIntervalMs } from './beacons/filteredCounter';
import { createDigestJob } from './digest/digestJob';
import { createAlertSender, createDeliveryChannels } from './alerts/alertSender';
import { createAlertWatch } from './alerts/watch';

/** A start-up problem the operator can fix: one clear line, exit code 1, no stack trace. */
function fail(message: string): never {
  process.stderr.write(`auctions-guide: ${message}\n`);
  process.exit(1);
}

/** Everything start-up opens, or a start-up error the operator can fix, which stops the process with one line. */
async function prepare() {
  try {
    const config = loadConfig();
    // Opened here, not inside createApp, so shutdown can close it after the last request is answered.
    const database = config.statistics && (await openDatabase(config.statistics.database, { logger: consoleLogger }));
    const stores: StatsStores | undefined =
      database && config.statistics ? createStatsStores(database, openReportReader(config.statistics.database, database.db)) : undefined;
    const linkMonitor = config.linkCheckHours
      ? new LinkMonitor({
          url: config.affiliateUrl,
          intervalMs: config.linkCheckHours * 3_600_000,
          logger: consoleLogger,
          // Shared through the database when there is one, so instances take turns and show the same state.
          log: stores?.linkChecks ?? memoryLinkCheckLog(),
        })
      : undefined;
    const app = createApp(config, { stores, linkHealth: linkMonitor && (() => linkMonitor.state()) });
    return { config, stores, linkMonitor, app };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ManifestError || error instanceof DatabaseError) fail(error.message);
    throw error;
  }
}

function describeCounting(config: Config, stores: StatsStores | undefined): string {
  if (!stores || !config.statistics) return 'Click counting is off (CLICK_STATS=off)';
  return `Counting affiliate clicks in ${stores.database.name}`;
}

async function start() {
  const startedAt = performance.now();
  const { config, stores, linkMonitor, app } = await prepare();
  if (config.affiliateUrl === SAMPLE_AFFILIATE_URL) {
    consoleLogger.info(`AFFILIATE_URL is not set: the buttons point at the sample address ${SAMPLE_AFFILIATE_URL}`);
  }
  if (!config.contactEmail) {
    consoleLogger.info('CONTACT_EMAIL is not set: the policies say no contact address is published yet (required once SITE_URL is https)');
  }

  const server = createHttpServer(app);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') fail(`port ${config.port} on ${config.host} is already in use (set PORT to another port)`);
    if (error.code === 'EACCES') fail(`not allowed to listen on port ${config.port} (choose a PORT above 1023 or run behind a proxy)`);
    if (error.code === 'EADDRNOTAVAIL') fail(`HOST ${config.host} is not an address of this machine`);
    fail(`cannot listen on ${config.host}:${config.port}: ${error.message}`);
  });
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    const ms = (performance.now() - startedAt).toFixed(0);
    consoleLogger.info(`Auctions Guide is listening on http://${config.host}:${port} (public URL ${config.siteUrl}; ready in ${ms} ms)`);
    consoleLogger.info(describeCounting(config, stores));
    linkMonitor?.start();
  });

  // Old salts deleted, finished days closed, raw rows past the retention period deleted: now, and then every few minutes (see jobs/maintenance.ts).
  // This build recorded as a release once across instances (server/releases/); with the database down, again each round until it is.
  const releaseRecorder = stores && releaseRecorderOf(stores.database.db, distDir, consoleLogger);
  const maintain = () => {
    if (stores && config.statistics) void runMaintenance(stores, consoleLogger, config.statistics.retentionDays);
    void releaseRecorder?.record();
  };
  maintain();
  stores?.reports.warmUp();
  const maintenanceTimer = setInterval(maintain, maintenanceIntervalMs).unref();
  // The reports the beacons did not count, added to the database every few seconds (a crash loses at most these).
  const filteredTimer = setInterval(() => void stores?.filtered.flush(), flushIntervalMs).unref();
  // Alerts and the digest leave through the outbox: every instance sends what is due, each row once (server/alerts/alertSender.ts).
  const alertSender =
    stores && config.alerts
      ? createAlertSender({ db: stores.database.db, channels: createDeliveryChannels(config.alerts), logger: consoleLogger, availability: stores.database.availability })
      : undefined;
  alertSender?.start();
  // The weekly digest by e-mail, through the outbox, once across instances; none without e-mail or with DIGEST_DAY=off (server/digest/).
  const digestJob =
    stores && config.alerts?.email && config.alerts.digest
      ? createDigestJob({ db: stores.database.db, reports: stores.reports, schedule: config.alerts.digest, siteUrl: config.siteUrl, logger: consoleLogger, availability: stores.database.availability, enqueued: () => alertSender?.wake() })
      : undefined;
  digestJob?.start();
  // The alert rules, whenever statistics are on (incidents are recorded for /admin even with alerts off); each instance's own database rule (server/alerts/watch.ts).
  const alertWatch =
    stores && createAlertWatch(stores, { alerts: config.alerts, siteUrl: config.siteUrl, checksLink: linkMonitor !== undefined, logger: consoleLogger, enqueued: () => alertSender?.wake() });
  alertWatch?.start();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`${signal} received: finishing in-flight requests, then exiting`);
    clearInterval(maintenanceTimer);
    clearInterval(filteredTimer);
    linkMonitor?.stop();
    digestJob?.stop();
    alertWatch?.stop();
    // No new send starts; the one in flight finishes (bounded by its channel's timeouts). Killed first, its claim lapses and a sender sends it again.
    const alertsStopped = alertSender?.stop();
    void shutDown(server, config.shutdownTimeoutMs).then(async (outcome) => {
      if (outcome === 'timeout') consoleLogger.info(`requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      // The last requests' filtered counts, once no request can add more (a database down keeps them unwritten).
      await stores?.filtered.flush();
      await alertsStopped;
      // Every acknowledged click is already committed; closing folds SQLite's WAL back into the main file.
      await stores?.reports.close().catch((error: unknown) => consoleLogger.error('closing the report reader failed', error));
      await stores?.database.close().catch((error: unknown) => consoleLogger.error('closing the database failed', error));
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void start();
