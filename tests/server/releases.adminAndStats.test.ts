import path from 'node:path';
import type { Kysely } from 'kysely';
import request from 'supertest';
import { main as statsMain } from '../../scripts/stats';
import { createClickStore } from '../../server/clicks/clickStore';
import { createConversionStore } from '../../server/conversions/conversionStore';
import type { Schema } from '../../server/db/schema';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { parseHtml } from '../support/html';
import { conversion } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const stamp = '3f9a1b2c4d5e'.padEnd(64, '7');
const label = 'Release 3f9a1b2c4d5e first served 14:02 UTC';

/**
 * A release first served on 2026-11-10 at 14:02; the week before it, 50 page views and 5 clicks of the
 * hero, one of which sold for 40 USD; the week from it, 50 views and 10 clicks, two sold.
 */
async function layOut(db: Kysely<Schema>) {
  await db.insertInto('releases').values({ stamp, first_served_at: Date.parse('2026-11-10T14:02:00Z'), files: '{}', note: 'changed shared/content/home.ts' }).execute();
  const views = createViewStore(db);
  const clicks = createClickStore(db);
  const sales = createConversionStore(db);
  for (const [day, viewCount, clickCount, saleCount] of [['2026-11-05', 50, 5, 1], ['2026-11-10', 50, 10, 2]] as const) {
    const at = new Date(`${day}T16:00:00Z`);
    for (let index = 0; index < viewCount; index += 1) {
      await views.record({ at, page: '/', referrerHost: null, source: null, medium: null, campaign: null, device: 'mobile', visitor: `${day}-${index}` });
    }
    for (let index = 0; index < clickCount; index += 1) {
      const clickId = newClickId('hero');
      await clicks.record({ at, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: `${day}-${index}`, via: 'beacon', clickId, source: null });
      if (index < saleCount) await sales.record(conversion({ txid: `${day}-${index}`, subid: clickId, payout: '40' }), 'postback', at);
    }
  }
}

describe.each(engines)('releases on /admin on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof openAdminApp>>['app'];
  const adminPage = async () => parseHtml((await request(app).get('/admin?from=2026-11-01&to=2026-11-20').set('Authorization', basicAuth(adminToken)).expect(200)).text);

  beforeEach(async () => {
    ({ store, app } = await openAdminApp({ engine }));
    await layOut(store.database.db);
  });
  afterEach(() => store.close());

  it('marks the release\'s day in the daily table, with a label screen readers read', async () => {
    const table = tableCaptioned(await adminPage(), 'Views, clicks and conversions per day');
    const day = table.all('tbody th.day').find((cell) => cell.ownText() === '2026-11-10')!;
    const [mark] = day.all('.release-mark');
    expect(mark?.attr('role')).toBe('img');
    expect(mark?.attr('aria-label')).toBe(label);
    expect(mark?.attr('title')).toBe(label);
    expect(table.all('tbody th.day').find((cell) => cell.ownText() === '2026-11-05')!.all('.release-mark')).toEqual([]);
  });

  it('marks the release on the main chart, of a placement\'s clicks too, and names it in the chart\'s description', async () => {
    const page = parseHtml((await request(app).get('/admin?from=2026-11-01&to=2026-11-20&metric=clicks-hero').set('Authorization', basicAuth(adminToken)).expect(200)).text);
    const chart = page.one('svg.main-chart');
    expect(chart.text('title#chart-title')).toBe('hero clicks, 2026-11-01 to 2026-11-20');
    expect(chart.text('desc')).toBe(`a bar a day. Total 15; highest 10 (2026-11-10). Lines at 2, 4, 6, 8, 10. ${label} on 2026-11-10. The figures are in the table below the chart.`);
    expect(chart.one('g.release-mark').text('title')).toBe(`${label} on 2026-11-10`);
    // The visitors' chart, drawn by default, marks it as well.
    expect((await adminPage()).one('svg.main-chart').one('g.release-mark').text('title')).toBe(`${label} on 2026-11-10`);
  });

  it('compares per placement the week before and the week from the release, with intervals, as an observation', async () => {
    const page = await adminPage();
    const table = tableCaptioned(page, 'Releases (observed, not a controlled test)');
    expect(table.all('thead th').map((cell) => cell.text())).toEqual(['Placement', 'Click-through before', 'Click-through after', 'Earnings per click before', 'Earnings per click after']);
    expect(table.one('th[scope="colgroup"]').text()).toBe(
      'Release 3f9a1b2c4d5e, first served 2026-11-10 14:02 UTC Changed shared/content/home.ts. Before: the 7 days before 2026-11-10; after: 7 days from it.',
    );
    expect(cells(rowHeaded(table, 'hero'))).toEqual(['10.0% (4.3%–21.4%)', '20.0% (11.2%–33.0%)', '8.00 USD (1.45–24.98)', '8.00 USD (2.27–20.39)']);
    expect(table.all('tbody th[scope="row"]').map((cell) => cell.text())).toEqual(['hero']);
    expect(page.text()).toContain('An observation, not a controlled test');
  });

  it('says when no release was first served in the range', async () => {
    const page = parseHtml((await request(app).get('/admin?from=2026-11-11&to=2026-11-20').set('Authorization', basicAuth(adminToken)).expect(200)).text);
    expect(page.text()).toContain('No release was first served from 2026-11-11 to 2026-11-20.');
    expect(page.all('.release-mark')).toEqual([]);
  });
});

describe.each(engines)('releases in npm run stats on %s', (engine) => {
  async function run(argv: string[], env: Record<string, string>) {
    let out = '';
    let err = '';
    const code = await statsMain(argv, env, (text) => (out += text), (text) => (err += text));
    return { code, out, err };
  }
  let close: () => Promise<void>;
  let env: Record<string, string>;
  beforeEach(async () => {
    if (engine === 'postgres') {
      const opened = await openTestDatabase(engine);
      await layOut(opened.database.db);
      env = { DATABASE_URL: opened.url! };
      close = () => opened.close();
    } else {
      const file = path.join(temp.dir(), 'stats.sqlite');
      const database = await openDatabase({ engine, file }, { logger: silentLogger });
      await layOut(database.db);
      env = { CLICKS_DB: file };
      close = () => database.close();
    }
  });
  afterEach(() => close());

  it('has the releases in --json, with each placement\'s weeks and intervals', async () => {
    const { code, out } = await run(['--json', '--from', '2026-11-01', '--to', '2026-11-20'], env);
    expect(code).toBe(0);
    const { releases } = JSON.parse(out);
    expect(releases.inRange).toBe(1);
    expect(releases.compared[0]).toMatchObject({ stamp: '3f9a1b2c4d5e', firstServedAt: '2026-11-10T14:02:00.000Z', day: '2026-11-10', note: 'changed shared/content/home.ts' });
    const hero = releases.compared[0].placements.find((row: { placement: string }) => row.placement === 'hero');
    expect(hero.before).toMatchObject({ days: 7, views: 50, clicks: 5, conversions: 1, revenue: 40, clickThrough: 0.1, earningsPerClick: 8 });
    expect(hero.after).toMatchObject({ days: 7, views: 50, clicks: 10, conversions: 2, revenue: 80, clickThrough: 0.2, earningsPerClick: 8 });
    expect(hero.after.clickThroughInterval.low).toBeCloseTo(0.1124, 4);
  });

  it('lists the releases briefly in the table it prints', async () => {
    const { code, out } = await run(['--from', '2026-11-01', '--to', '2026-11-20'], env);
    expect(code).toBe(0);
    expect(out).toContain('Releases (observed, not a controlled test)');
    expect(out).toContain('3f9a1b2c4d5e  2026-11-10 14:02 UTC  changed shared/content/home.ts');
    expect(out).toMatch(/hero\s+10\.0% \(4\.3%–21\.4%\)\s+20\.0% \(11\.2%–33\.0%\)\s+8\.00 USD \(1\.45–24\.98\)\s+8\.00 USD \(2\.27–20\.39\)/);
  });
});
