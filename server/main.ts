// First of all: on an older Node it prints one line and exits, before better-sqlite3 could crash the process.
import './nodeVersion';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ConfigError, loadConfig, SAMPLE_AFFILIATE_URL, type Config } from './config';
import { DatabaseError, openDatabase } from './db/openDatabase';
import { createStatsStores, type StatsStores } from './statsStores';
import { createHttpServer, shutDown } from './httpServer';
import { memoryLinkCheckLog } from './linkHealth/linkCheckLog';
import { checkLink } from './linkHealth/checkLink';
import { ClaimsWatch, claimsCheckOff } from './claims/claimsWatch';
import { longestRecheckMs, recheckMs } from './lib/recheckBackoff';
import { databaseHostHolds } from './fetching/hostHolds';
import { createSiteFetcher } from './fetching/siteFetcher';
import { claimList } from '../shared/content/claims';
import { LinkMonitor, linkCheckOff, recheckAfterBrokenMs, startUpSkipMs } from './linkHealth/linkMonitor';
import { createLogger, formatLogRecord, logStyleOf, type LogStyle } from './lib/logger';
import { ManifestError } from './manifest';
import { openReportReader } from './reports/reportReader';
import { startBackgroundWork, type BackgroundWork } from './backgroundWork';

/**
 * The log's form before the settings are read (and when LOG_FORMAT itself is wrong): JSON only if asked for
 * plainly, so a start-up failure reaches journald with its priority and Loki as JSON all the same.
 */
const earlyStyle = logStyleOf(process.env.LOG_FORMAT?.trim().toLowerCase() === 'json' ? 'json' : 'text');

/** A start-up problem the operator can fix: one clear line, exit code 1, no stack trace. */
function fail(message: string, style: LogStyle = earlyStyle): never {
  process.stderr.write(formatLogRecord({ time: new Date(), level: 'error', message: `auctions-guide: ${message}`, plain: true }, style));
  process.exit(1);
}

/** Everything start-up opens, or a start-up error the operator can fix, which stops the process with one line. */
async function prepare() {
  try {
    const config = loadConfig();
    const logger = createLogger(logStyleOf(config.logFormat));
    // Opened here, not inside createApp, so shutdown can close it after the last request is answered.
    const database = config.statistics && (await openDatabase(config.statistics.database, { logger }));
    const stores: StatsStores | undefined =
      database && config.statistics ? createStatsStores(database, openReportReader(config.statistics.database, database.db)) : undefined;
    // One fetcher for the link check and the claims watch: one request at a time per host, robots.txt and Retry-After
    // shared; each Retry-After kept in the database too, for a restart and the other instances.
    const fetcher = createSiteFetcher(config.siteUrl, database ? { holds: databaseHostHolds(database.db) } : {});
    const linkMonitor = !linkCheckOff(config.affiliateUrl, config.linkCheckHours) && config.linkCheckHours
      ? new LinkMonitor({
          url: config.affiliateUrl,
          intervalMs: config.linkCheckHours * 3_600_000,
          logger,
          check: (url) => checkLink(url, { fetcher }),
          // Shared through the database when there is one, so instances take turns and show the same state.
          log: stores?.linkChecks ?? memoryLinkCheckLog(),
        })
      : undefined;
    const claimsOff = claimsCheckOff(config.merchantUrl, config.claimsCheckHours, stores !== undefined);
    const claimsWatch =
      !claimsOff && stores && config.claimsCheckHours
        ? new ClaimsWatch({
            claims: claimList,
            merchantUrl: config.merchantUrl,
            fetcher,
            store: stores.claims,
            intervalMs: config.claimsCheckHours * 3_600_000,
            logger,
            claimRun: stores.claimJobRun,
            now: Date.now,
          })
        : undefined;
    const app = createApp(config, { stores, logger, linkHealth: linkMonitor && (() => linkMonitor.state()) });
    return { config, logger, stores, linkMonitor, claimsWatch, claimsOff, app };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ManifestError || error instanceof DatabaseError) fail(error.message);
    throw error;
  }
}

function describeCounting(config: Config, stores: StatsStores | undefined): string {
  if (!stores || !config.statistics) return 'Click counting is off (CLICK_STATS=off)';
  return `Counting affiliate clicks in ${stores.database.name}`;
}

const usage = `Usage: npm start (or node dist/server/main.cjs): serves the site; it takes no arguments, every setting is an environment variable (README.md, Configuration).
Exit codes: 0 stopped by SIGTERM or SIGINT once its requests were answered, 1 a start-up problem (one line names it: a setting, the database, the port, the build).
`;

async function start() {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(usage);
    return;
  }
  const startedAt = performance.now();
  const { config, logger, stores, linkMonitor, claimsWatch, claimsOff, app } = await prepare();
  if (config.affiliateUrl === SAMPLE_AFFILIATE_URL) {
    logger.warning(`AFFILIATE_URL is not set: the buttons point at the sample address ${SAMPLE_AFFILIATE_URL}`);
  }
  const linkOff = linkCheckOff(config.affiliateUrl, config.linkCheckHours);
  logger.info(
    linkOff
      ? `The affiliate link is not checked: ${linkOff}`
      : `Checking the affiliate link at start-up (unless checked in the last ${startUpSkipMs / 60_000} minutes), every ${config.linkCheckHours} hours, and ${recheckAfterBrokenMs / 60_000} minutes after a broken answer`,
  );
  logger.info(
    claimsOff
      ? `The claims are not checked against the merchant's pages: ${claimsOff}`
      : `Checking the claims against ${config.merchantUrl} every ${config.claimsCheckHours} hours (at start-up when due), every ${recheckMs / 60_000} minutes while one is contradicted or missing, and every ${recheckMs / 60_000} minutes to ${longestRecheckMs / 3_600_000} hours while one cannot be read`,
  );
  if (!config.contactEmail) {
    logger.warning('CONTACT_EMAIL is not set: the policies say no contact address is published yet (required once SITE_URL is https)');
  }

  const server = createHttpServer(app);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') fail(`port ${config.port} on ${config.host} is already in use (set PORT to another port)`);
    if (error.code === 'EACCES') fail(`not allowed to listen on port ${config.port} (choose a PORT above 1023 or run behind a proxy)`);
    if (error.code === 'EADDRNOTAVAIL') fail(`HOST ${config.host} is not an address of this machine`);
    fail(`cannot listen on ${config.host}:${config.port}: ${error.message}`);
  });
  // Every timer (maintenance, releases, filtered counts, the outbox's sender, the digest, the alert watch, the link check), once listening: server/schedule/schedule.ts.
  let background: BackgroundWork | undefined;
  let stopping = false;
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    const ms = (performance.now() - startedAt).toFixed(0);
    logger.info(`Auctions Guide is listening on http://${config.host}:${port} (public URL ${config.siteUrl}; ready in ${ms} ms)`);
    logger.info(describeCounting(config, stores));
    if (!stopping) background = startBackgroundWork(config, stores, { ...(linkMonitor ? { linkMonitor } : {}), ...(claimsWatch ? { claimsWatch } : {}), logger });
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests, then exiting`);
    background?.stop();
    void shutDown(server, config.shutdownTimeoutMs).then(async (outcome) => {
      if (outcome === 'timeout') logger.warning(`requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      await background?.finish();
      // Every acknowledged click is already committed; closing folds SQLite's WAL back into the main file.
      await stores?.reports.close().catch((error: unknown) => logger.error('closing the report reader failed', error));
      await stores?.database.close().catch((error: unknown) => logger.error('closing the database failed', error));
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void start();
