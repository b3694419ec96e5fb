import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Engine } from '../../server/db/databaseSettings';
import { utcDay } from '../../server/lib/utcDay';
import { newClickId } from '../../shared/affiliate';
import { clickEndpoint } from '../../shared/clickBeacon';
import { leaveEndpoint } from '../../shared/leaveBeacon';
import { pagePaths } from '../../shared/routes';
import { viewEndpoint } from '../../shared/viewBeacon';
import { basicAuth } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { browserUserAgent } from '../support/beaconReports';
import { engines } from '../support/engines';
import { parseHtml } from '../support/html';
import { startListeningMain, stopMain, type ListeningMain } from '../support/listeningMain';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { runScript } from '../support/scriptProcess';

/**
 * What can differ between Node lines, end to end on the Node running this file: the built server starting
 * on each engine (better-sqlite3's native module, pg), every route and an asset (compression, the static
 * entries), one report of each kind and a postback (the beacons' routes, the stores), /admin (its report
 * worker thread), a clean stop on SIGTERM, and the operator's commands through tsx (stats, costs:import,
 * backup and restore). `.ci/run` runs this file and nodeRuntime.test.ts again on Node 22, the oldest line
 * package.json allows; docs/node.md says why these and not the whole suite.
 */
const adminToken = 'node-line-admin-token-0123456789';
const conversionsKey = 'node-line-conversions-key-0123456789';

interface Store {
  /** The server's and the commands' variables that name the database. */
  env: Record<string, string>;
  /** The SQLite file, for backup and restore (PostgreSQL's are pg_dump and pg_restore). */
  file?: string;
  remove(): Promise<void>;
}

async function openStore(engine: Engine, folder: string): Promise<Store> {
  if (engine === 'sqlite') {
    const file = path.join(folder, 'clicks.sqlite');
    return { env: { CLICKS_DB: file }, file, remove: async () => {} };
  }
  const created: TestDatabase = await createTestDatabase();
  return { env: { DATABASE_URL: created.url }, remove: () => created.drop() };
}

describe.each(engines)(`the built server and the commands on Node ${process.versions.node}, on %s`, (engine) => {
  let folder = '';
  let store: Store;
  let server: ListeningMain;
  const today = utcDay(new Date());
  const clickId = newClickId('hero');

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'auctions-guide-node-line-'));
    store = await openStore(engine, folder);
    server = await startListeningMain({
      CLICK_STATS: 'on',
      TRUST_PROXY: 'true',
      ADMIN_TOKEN: adminToken,
      CONVERSIONS_KEY: conversionsKey,
      AFFILIATE_SUBID_PARAM: 'subid',
      LINK_CHECK_HOURS: 'off',
      ...store.env,
    });
  });

  afterAll(async () => {
    try {
      if (server) await stopMain(server);
    } finally {
      await store?.remove();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  const report = (endpoint: string, body: object) =>
    fetch(`${server.url}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': '203.0.113.9', origin: server.url },
      body: JSON.stringify(body),
    });

  it('serves every route compressed, the scripts and styles it names, and the 404 page', async () => {
    const assets = new Set<string>();
    for (const page of pagePaths) {
      const response = await fetch(`${server.url}${page}`, { headers: { 'accept-encoding': 'br' } });
      expect([page, response.status, response.headers.get('content-encoding')]).toEqual([page, 200, 'br']);
      const html = parseHtml(await response.text());
      for (const script of html.all('script[src]')) assets.add(script.attr('src')!);
      for (const style of html.all('style[data-href]')) assets.add(style.attr('data-href')!);
    }
    expect(assets.size).toBeGreaterThan(1);
    for (const asset of assets) expect([asset, (await fetch(`${server.url}${asset}`)).status]).toEqual([asset, 200]);
    const missing = await fetch(`${server.url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/<html/);
  });

  it('records a view, a click, a leave report and a postback', async () => {
    const visit = { page: '/', referrer: '', source: 'newsletter', medium: 'email', campaign: 'november' };
    expect((await report(viewEndpoint, visit)).status).toBe(204);
    expect((await report(clickEndpoint, { placement: 'hero', page: '/', referrer: '', clickId, source: 'newsletter', campaign: 'november' })).status).toBe(204);
    expect((await report(leaveEndpoint, { page: '/', variants: '', sections: ['hero'], seen: ['hero'], engagedSeconds: 8 })).status).toBe(204);
    const postback = await fetch(`${server.url}/api/conversions?key=${conversionsKey}&txid=NODE-LINE-1&subid=${clickId}&payout=40.00&currency=USD`);
    expect([postback.status, await postback.text()]).toEqual([200, 'recorded\n']);
  });

  it("answers /admin with the day's figures, read by its report worker", async () => {
    const response = await fetch(`${server.url}/admin?days=1`, { headers: { authorization: basicAuth(adminToken) } });
    expect(response.status).toBe(200);
    const day = cells(rowHeaded(tableCaptioned(parseHtml(await response.text()), 'Views, clicks and conversions per day'), today));
    expect(day.slice(0, 3)).toEqual(['1 / 1', '1 / 1', '1']);
  });

  it('imports a cost report and reports the funnel with it through npm run stats', async () => {
    const costs = path.join(folder, 'costs.csv');
    writeFileSync(costs, `day,source,campaign,content,cost,currency\n${today},newsletter,november,,12.50,USD\n`);
    const imported = await runScript('scripts/costs-import.ts', [costs], store.env);
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });

    const stats = await runScript('scripts/stats.ts', ['--json', '--days', '1'], store.env);
    expect({ code: stats.code, stderr: stats.stderr }).toEqual({ code: 0, stderr: '' });
    const read = JSON.parse(stats.stdout) as { all: object; costs: { all: object } };
    expect(read.all).toMatchObject({ views: 1, clicks: 1, conversions: 1, leaves: 1 });
    expect(read.costs.all).toEqual({ cost: 12.5, costByCurrency: { USD: 12.5 }, profit: 27.5 });
  });

  if (engine === 'sqlite') it('backs the SQLite file up while the server runs, stops on SIGTERM with 0, and restores the copy', async () => {
    const backups = path.join(folder, 'backups');
    mkdirSync(backups);
    const backup = await runScript('scripts/backup.ts', ['--to', backups, '--db', store.file!]);
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
    const copy = path.join(backups, `clicks-${today}.sqlite`);

    expect(await stopMain(server)).toBe(0);
    const restoredFile = path.join(folder, 'restored.sqlite');
    const restored = await runScript('scripts/restore.ts', [copy, '--db', restoredFile]);
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' });
    const stats = await runScript('scripts/stats.ts', ['--json', '--days', '1', '--db', restoredFile]);
    expect((JSON.parse(stats.stdout) as { all: object }).all).toMatchObject({ views: 1, clicks: 1, conversions: 1 });
  });
});
