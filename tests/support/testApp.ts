import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { createHttpServer } from '../../server/httpServer';
import { silentLogger } from '../../server/logger';

export const testAffiliateUrl = 'https://partner.example.net/join?aff=guide&campaign=spring';
export const testSiteUrl = 'https://auctions.example.org';

export function testConfig(env: Record<string, string> = {}): Config {
  // An in-memory click database unless a test names a file: tests never write to data/.
  return loadConfig({ AFFILIATE_URL: testAffiliateUrl, SITE_URL: testSiteUrl, CLICKS_DB: ':memory:', ...env });
}

export function createTestApp(env: Record<string, string> = {}, options: AppOptions = {}) {
  return createApp(testConfig(env), { logger: silentLogger, ...options });
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the app on an ephemeral loopback port, as the browser tests need a real socket. */
export async function startTestServer(env: Record<string, string> = {}, options: AppOptions = {}): Promise<RunningServer> {
  const server = createHttpServer(createTestApp({ SITE_URL: 'http://127.0.0.1', ...env }, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
