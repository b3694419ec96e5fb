import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ConfigError, loadConfig, SAMPLE_AFFILIATE_URL } from './config';
import { createHttpServer, shutDown } from './httpServer';
import { consoleLogger } from './logger';
import { ManifestError } from './manifest';

/** A start-up problem the operator can fix: one clear line, exit code 1, no stack trace. */
function fail(message: string): never {
  process.stderr.write(`auctions-guide: ${message}\n`);
  process.exit(1);
}

function start() {
  const startedAt = performance.now();
  let config;
  let app;
  try {
    config = loadConfig();
    app = createApp(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ManifestError) fail(error.message);
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
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`${signal} received: finishing in-flight requests, then exiting`);
    void shutDown(server, config.shutdownTimeoutMs).then((outcome) => {
      if (outcome === 'timeout') consoleLogger.info(`requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

start();
