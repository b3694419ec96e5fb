import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ClickStoreError, openClickStore, type ClickStore } from './clicks/clickStore';
import { ConfigError, loadConfig, SAMPLE_AFFILIATE_URL } from './config';
import { createHttpServer, shutDown } from './httpServer';
import { LinkMonitor } from './linkHealth';
import { consoleLogger } from './logger';
import { ManifestError } from './manifest';

/** A start-up problem the operator can fix: one clear line, exit code 1, no stack trace. */
function fail(message: string): never {
  process.stderr.write(`auctions-guide: ${message}\n`);
  process.exit(1);
}

/** Raw clicks past the retention period are folded into daily totals at start-up and then once a day. */
const foldIntervalMs = 24 * 60 * 60 * 1000;

function start() {
  const startedAt = performance.now();
  let config;
  let app;
  let clickStore: ClickStore | undefined;
  let linkMonitor: LinkMonitor | undefined;
  try {
    config = loadConfig();
    // Opened here, not inside createApp, so shutdown can close it after the last request is answered.
    clickStore = config.clickStats ? openClickStore(config.clickStats) : undefined;
    if (config.linkCheckHours) {
      linkMonitor = new LinkMonitor({ url: config.affiliateUrl, intervalMs: config.linkCheckHours * 3_600_000, logger: consoleLogger });
    }
    const monitor = linkMonitor;
    app = createApp(config, { clickStore, linkHealth: monitor && (() => monitor.state) });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ManifestError || error instanceof ClickStoreError) fail(error.message);
    throw error;
  }
  if (config.affiliateUrl === SAMPLE_AFFILIATE_URL) {
    consoleLogger.info(`AFFILIATE_URL is not set: the buttons point at the sample address ${SAMPLE_AFFILIATE_URL}`);
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
    consoleLogger.info(config.clickStats ? `Counting affiliate clicks in ${config.clickStats.dbPath}` : 'Click counting is off (CLICK_STATS=off)');
    linkMonitor?.start();
  });

  const foldTimer = setInterval(() => {
    try {
      const folded = clickStore?.foldOldClicks() ?? 0;
      if (folded > 0) consoleLogger.info(`Folded ${folded} clicks older than ${config.clickStats?.retentionDays} days into daily totals`);
    } catch (error) {
      consoleLogger.error('could not fold old clicks into daily totals', error);
    }
  }, foldIntervalMs).unref();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`${signal} received: finishing in-flight requests, then exiting`);
    clearInterval(foldTimer);
    linkMonitor?.stop();
    void shutDown(server, config.shutdownTimeoutMs).then((outcome) => {
      if (outcome === 'timeout') consoleLogger.info(`requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      // Every acknowledged click is already committed; closing folds the WAL back into the main file.
      clickStore?.close();
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

start();
