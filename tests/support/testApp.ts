import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { createApp, type AppOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase } from '../../server/db/openDatabase';
import { createStatsStores, type StatsStores } from '../../server/statsStores';
import { createHttpServer } from '../../server/httpServer';
import { silentLogger } from '../../server/lib/logger';
import { renderAllPages, type RenderedPages } from '../../server/pages';

export const testAffiliateUrl = 'https://partner.example.net/join?aff=guide&campaign=spring';
export const testSiteUrl = 'https://auctions.example.org';
export const testContactEmail = 'privacy@auctions.example.org';

export function testConfig(env: Record<string, string> = {}): Config {
  // An in-memory click database unless a test names a file: tests never write to data/.
  return loadConfig({ AFFILIATE_URL: testAffiliateUrl, SITE_URL: testSiteUrl, CONTACT_EMAIL: testContactEmail, CLICKS_DB: ':memory:', ...env });
}

/** Opens the stores the configuration names, as server/main.ts does; undefined when click counting is off. */
export async function openTestStores(config: Config): Promise<StatsStores | undefined> {
  if (!config.statistics) return undefined;
  return createStatsStores(await openDatabase(config.statistics.database, { logger: silentLogger }));
}

/** What renderPagesOnce rendered in this test process, by everything the pages are rendered from: the latest few. */
const renderedBefore = new Map<string, RenderedPages>();
const renderedKept = 8;

/**
 * renderAllPages, each result kept for the next app of the same settings in this process: the pages are
 * a pure function of the context, the assets and the experiments, and rendering and compressing all of
 * them took 0.3 to 0.8 s of CPU for each of the hundreds of apps the tests make (docs/testing.md).
 */
export const renderPagesOnce: typeof renderAllPages = (context, assets, experiments = []) => {
  const key = JSON.stringify([context, assets, experiments]);
  let rendered = renderedBefore.get(key);
  if (!rendered) {
    rendered = renderAllPages(context, assets, experiments);
    // A server on a port of its own has a SITE_URL of its own, so its pages are never asked for again.
    if (renderedBefore.size >= renderedKept) renderedBefore.delete(renderedBefore.keys().next().value!);
    renderedBefore.set(key, rendered);
  }
  return rendered;
};

/** The app on the given stores, or on stores of its own (an in-memory SQLite database unless env names another). */
export async function createTestApp(env: Record<string, string> = {}, options: AppOptions = {}): Promise<Express> {
  const config = testConfig(env);
  const stores = options.stores ?? (await openTestStores(config));
  return createApp(config, { logger: silentLogger, renderPages: renderPagesOnce, ...options, stores });
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts the app on an ephemeral loopback port, as the browser tests need a real socket. Its SITE_URL is
 * the address it listens on unless env names another, as visitors of a real site use SITE_URL: the
 * affiliate links' ping, absolute on SITE_URL, then reaches this server. The port is known only once
 * listening, so the app is made then; nothing can ask before this returns.
 */
export async function startTestServer(env: Record<string, string> = {}, options: AppOptions = {}): Promise<RunningServer> {
  let app: Express | undefined;
  const server = createHttpServer((req, res) => app!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  try {
    app = await createTestApp({ SITE_URL: url, ...env }, options);
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
