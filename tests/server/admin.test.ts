import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import type { Engine } from '../../server/db/databaseSettings';
import { createStatsStores } from '../../server/statsStores';
import { memoryLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertNoSelector, assertSelector, parseHtml, type HtmlNode } from '../support/html';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { createTestApp } from '../support/testApp';

const token = 'test-admin-token-0123456789abcdef';
const basic = (password: string) => `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

async function setUp(options: { linkHealth?: LinkMonitor; engine?: Engine } = {}) {
  const store = await openTestDatabase(options.engine ?? 'sqlite');
  const monitor = options.linkHealth;
  const app = await createTestApp(
    { ADMIN_TOKEN: token },
    { stores: createStatsStores(store.database), linkHealth: monitor && (() => monitor.state()) },
  );
  return { store, app };
}

async function recordClicks(opened: TestEngineDatabase) {
  const store = createClickStore(opened.database.db);
  const today = new Date();
  const base = { page: '/', referrerHost: 'www.google.com', device: 'mobile' as const, via: 'beacon' as const, at: today };
  await store.record({ ...base, placement: 'hero', visitor: 'a' });
  await store.record({ ...base, placement: 'hero', visitor: 'b' });
  await store.record({ ...base, placement: 'bonus', visitor: 'a', device: 'desktop' });
}

describe('GET /admin without ADMIN_TOKEN', () => {
  it('does not exist', async () => {
    await request(await createTestApp()).get('/admin').set('Authorization', basic(token)).expect(404);
  });
});

describe('GET /admin', () => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof setUp>>['app'];
  beforeEach(async () => {
    ({ store, app } = await setUp());
    await recordClicks(store);
  });
  afterEach(() => store.close().catch(() => {}));

  it('answers 401 with a Basic challenge, no-store and noindex when no token is sent', async () => {
    const response = await request(app).get('/admin').expect(401);
    expect(response.headers['www-authenticate']).toMatch(/^Basic realm="Auctions Guide admin"/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    // The raw response on purpose: no statistic may leak in any form, markup or not.
    expect(response.text).not.toContain('hero');
  });

  it.each([
    ['a wrong Basic password', basic('wrong-token-0123456789abcdef')],
    ['the token as user name instead of password', `Basic ${Buffer.from(`${token}:`).toString('base64')}`],
    ['a wrong Bearer token', 'Bearer nope'],
    ['a token that only starts right', `Bearer ${token.slice(0, -1)}`],
    ['an unknown scheme', `Token ${token}`],
    ['Basic credentials without a colon', `Basic ${Buffer.from(token).toString('base64')}`],
  ])('answers 401 to %s', async (_name, authorization) => {
    await request(app).get('/admin').set('Authorization', authorization).expect(401);
  });

  it.each([
    ['HTTP Basic (any user name, the token as password)', basic(token)],
    ['a Bearer token', `Bearer ${token}`],
  ])('opens with %s', async (_name, authorization) => {
    const response = await request(app).get('/admin').set('Authorization', authorization).expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  describe('the page', () => {
    let response: request.Response;
    let page: HtmlNode;
    beforeEach(async () => {
      response = await request(app).get('/admin').set('Authorization', basic(token)).expect(200);
      page = parseHtml(response.text);
    });

    it('is never cached or indexed', () => {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(page.attr('head meta[name="robots"]', 'content')).toBe('noindex, nofollow');
    });

    it('runs no script and allows only its own stylesheet', () => {
      const csp = response.headers['content-security-policy'] as string;
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
      assertNoSelector(page, 'script');
    });

    it('shows totals per placement for the last 30 days', () => {
      expect(page.text()).toContain('3 clicks by 2 visitors');
      for (const [placement, clicks, visitors, share] of [['hero', '2', '2', '67%'], ['bonus', '1', '1', '33%']] as const) {
        const row = rowHeaded(page, placement);
        assertSelector(row.one('th'), 'span', 1);
        expect(cells(row)).toEqual([clicks, visitors, share, '0', '0%', '–', '–']);
      }
    });

    it('draws one server-rendered SVG chart per placement, described for screen readers', () => {
      const charts = page.all('svg.chart[role="img"]').map((chart) => chart.attr('aria-label'));
      expect(charts).toHaveLength(6);
      expect(charts[0]).toMatch(/^hero: 2 clicks from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}, most on \d{4}-\d{2}-\d{2} \(2\)$/);
      expect(charts[1]).toMatch(/^explainer: no clicks/);
    });

    it('breaks clicks down by device and referring site', () => {
      for (const [name, clicks] of [['mobile', '2'], ['www.google.com', '3']] as const) {
        const row = rowHeaded(page, name);
        expect(row.text('th')).toBe(name);
        expect(cells(row)[0]).toBe(clicks);
      }
    });

    it('says the server does not check the link when LINK_CHECK_HOURS is unset', () => {
      expect(page.text()).toContain('The server does not check the affiliate link');
    });
  });

  it('takes a range from the query', async () => {
    const response = await request(app).get('/admin?from=2020-01-01&to=2020-01-07').set('Authorization', basic(token)).expect(200);
    const page = parseHtml(response.text);
    expect(page.text()).toContain('0 clicks by 0 visitors from 2020-01-01 to 2020-01-07');
    expect(page.one('ol.funnel').all('li').map((step) => step.text())).toEqual(['0 visitors 0 page views', '0 clicked an affiliate link', '0 conversions', '– revenue']);
    expect(page.attr('input[name="from"]', 'value')).toBe('2020-01-01');
  });

  it('explains a range it cannot read and shows the last 30 days instead', async () => {
    const response = await request(app).get('/admin?from=2020-13-01').set('Authorization', basic(token)).expect(200);
    const page = parseHtml(response.text);
    expect(page.text('[role="alert"]')).toContain('That range could not be shown: from must be a date written YYYY-MM-DD');
    expect(page.text()).toContain('3 clicks by 2 visitors');
  });

  it('escapes whatever the query holds', async () => {
    const response = await request(app).get('/admin?from=%3Cscript%3E').set('Authorization', basic(token)).expect(200);
    // The raw response on purpose: the query must come back escaped, byte for byte, wherever it is shown.
    expect(response.text).not.toContain('<script>');
  });

  it('answers HEAD and refuses POST with 405', async () => {
    await request(app).head('/admin').set('Authorization', basic(token)).expect(200);
    await request(app).post('/admin').set('Authorization', basic(token)).expect(405);
  });

  it('is linked from no public page, the sitemap or robots.txt', async () => {
    for (const path of [...pagePaths, '/sitemap.xml', '/robots.txt', '/no-such-page']) {
      const { text } = await request(app).get(path);
      // The raw response on purpose: not in a link, a script, a comment or plain text (robots.txt and the sitemap are not HTML).
      expect(text).not.toMatch(/\/admin/);
    }
  });
});

describe.each(engines)('GET /admin with views, clicks and conversions on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof setUp>>['app'];
  const sale = async (fields: ConversionFields, at: string) => {
    const parsed = parseConversion(fields);
    if (parsed.error) throw new Error(parsed.error.message);
    await createConversionStore(store.database.db).record(parsed.report, 'postback', new Date(at));
  };
  const adminPage = async (query = '?from=2026-11-20&to=2026-11-21') =>
    parseHtml((await request(app).get(`/admin${query}`).set('Authorization', basic(token)).expect(200)).text);

  beforeEach(async () => {
    ({ store, app } = await setUp({ engine }));
    const db = store.database.db;
    const views = createViewStore(db);
    const clicks = createClickStore(db);
    const at = new Date('2026-11-20T10:00:00Z');
    for (const [visitor, source] of [['a', 'newsletter'], ['b', 'newsletter'], ['c', 'newsletter'], ['g', 'www.google.com']] as const) {
      await views.record({ at, page: '/', referrerHost: null, source, medium: null, campaign: null, device: 'mobile', visitor });
    }
    const click = async (placement: AffiliatePlacement, visitor: string, source: string) => {
      const clickId = newClickId(placement);
      await clicks.record({ at, placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId, source } satisfies Click);
      return clickId;
    };
    const heroOfA = await click('hero', 'a', 'newsletter');
    const heroOfB = await click('hero', 'b', 'newsletter');
    const bonusOfG = await click('bonus', 'g', 'www.google.com');
    await sale({ txid: 'T1', subid: heroOfA, payout: '40' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T2', subid: bonusOfG, payout: '10' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T3', payout: '5' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T4', subid: heroOfB, payout: '99' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T4', status: 'chargeback' }, '2026-11-21T10:00:00Z');
  });
  afterEach(() => store.close());

  it('sums the funnel up first: visitors, visitors who clicked, conversions, revenue', async () => {
    const steps = (await adminPage()).one('ol.funnel').all('li').map((step) => step.text());
    expect(steps).toEqual([
      '4 visitors 4 page views',
      '3 clicked an affiliate link 75% of visitors',
      '3 conversions 100% of 3 clicks',
      '55.00 USD revenue 18.33 USD per click',
    ]);
  });

  it('shows per placement conversions, conversion rate, revenue and earnings per click, refunds left out', async () => {
    const table = tableCaptioned(await adminPage(), 'Clicks and conversions by placement');
    expect(table.all('thead th').map((cell) => cell.text())).toEqual([
      'Placement', 'Clicks', 'Visitors', 'Share of clicks', 'Conversions', 'Conversion rate', 'Revenue', 'Earnings per click',
    ]);
    assertSelector(table, 'thead th[scope="col"]', 8);
    expect(cells(rowHeaded(table, 'hero'))).toEqual(['2', '2', '67%', '1', '50%', '40.00 USD', '20.00 USD']);
    expect(cells(rowHeaded(table, 'bonus'))).toEqual(['1', '1', '33%', '1', '100%', '10.00 USD', '10.00 USD']);
    expect(cells(rowHeaded(table, 'explainer'))).toEqual(['0', '0', '0%', '0', '–', '–', '–']);
    expect(cells(rowHeaded(table, 'All placements'))).toEqual(['3', '3', '100%', '3', '100%', '55.00 USD', '18.33 USD']);
  });

  it('says how many conversions named no placement', async () => {
    expect((await adminPage()).text()).toContain('1 conversion named no placement');
  });

  it('shows per source visitors, visitors who clicked, clicks, click-through rate, conversions and revenue', async () => {
    const table = tableCaptioned(await adminPage(), 'Visitors, clicks and conversions by source');
    expect(table.all('thead th[scope="col"]').map((cell) => cell.text())).toEqual([
      'Source', 'Visitors', 'Visitors who clicked', 'Clicks', 'Click-through rate', 'Conversions', 'Revenue',
    ]);
    expect(table.all('tbody th[scope="row"]').map((cell) => cell.text())).toEqual(['newsletter', 'www.google.com', '(not known)']);
    expect(cells(rowHeaded(table, 'newsletter'))).toEqual(['3', '2', '2', '67%', '1', '40.00 USD']);
    expect(cells(rowHeaded(table, 'www.google.com'))).toEqual(['1', '1', '1', '100%', '1', '10.00 USD']);
    expect(cells(rowHeaded(table, '(not known)'))).toEqual(['0', '0', '0', '–', '1', '5.00 USD']);
  });

  it('shows views, clicks, conversions and revenue day by day, conversions under the day of their click', async () => {
    const table = tableCaptioned(await adminPage(), 'Views, clicks and conversions per day');
    expect(table.all('thead th').slice(0, 5).map((cell) => cell.text())).toEqual(['Day', 'Views', 'Clicks', 'Conversions', 'Revenue']);
    expect(cells(rowHeaded(table, '2026-11-21'))).toEqual(['–', '–', '1', '5.00 USD', '–', '–', '–', '–', '–', '–']);
    expect(cells(rowHeaded(table, '2026-11-20'))).toEqual(['4 / 4', '3 / 3', '2', '50.00 USD', '2 / 2', '–', '–', '–', '–', '1 / 1']);
  });

  it('shows each day\'s sources, newest first, a day\'s rows grouped under it', async () => {
    const table = tableCaptioned(await adminPage(), 'Sources per day');
    const groups = table.all('tbody');
    expect(groups.map((group) => group.one('th[scope="rowgroup"]').text())).toEqual(['2026-11-21', '2026-11-20']);
    expect(groups.map((group) => group.all('th[scope="row"]').map((cell) => cell.text()))).toEqual([['(not known)'], ['newsletter', 'www.google.com']]);
    expect(cells(rowHeaded(groups[0]!, '(not known)'))).toEqual(['0', '0', '0', '–', '1', '5.00 USD']);
    expect(cells(rowHeaded(groups[1]!, 'newsletter'))).toEqual(['3', '2', '2', '67%', '1', '40.00 USD']);
    expect(cells(rowHeaded(groups[1]!, 'www.google.com'))).toEqual(['1', '1', '1', '100%', '1', '10.00 USD']);
  });

  it('shows revenue in each currency, one a line, when there is more than one', async () => {
    await sale({ txid: 'E1', subid: 'bonus', payout: '7.5', currency: 'EUR' }, '2026-11-20T12:00:00Z');
    const page = await adminPage();
    const bonus = rowHeaded(tableCaptioned(page, 'Clicks and conversions by placement'), 'bonus');
    expect(bonus.all('td')[5]!.all('span.amount').map((amount) => amount.text())).toEqual(['10.00 USD', '7.50 EUR']);
    expect(cells(bonus)).toEqual(['1', '1', '33%', '2', '200%', '10.00 USD 7.50 EUR', '10.00 USD 7.50 EUR']);
    expect(page.one('ol.funnel').all('li')[3]!.text()).toBe('55.00 USD 7.50 EUR revenue 18.33 USD + 2.50 EUR per click');
  });
});

describe('GET /admin with CLICK_STATS=off', () => {
  it('says counting is off', async () => {
    const app = await createTestApp({ ADMIN_TOKEN: token, CLICK_STATS: 'off' });
    const { text } = await request(app).get('/admin').set('Authorization', `Bearer ${token}`).expect(200);
    expect(parseHtml(text).text()).toContain('Click counting is off');
  });
});

describe('GET /admin with link checks', () => {
  let partner: Server;
  let partnerStatus = 200;
  let partnerUrl = '';
  beforeAll(async () => {
    partner = createServer((_req, res) => res.writeHead(partnerStatus).end()).listen(0, '127.0.0.1');
    await once(partner, 'listening');
    partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/join`;
  });
  afterAll(() => new Promise((resolve) => partner.close(resolve)));

  async function adminAfterChecks(statuses: number[]) {
    const monitor = new LinkMonitor({ url: partnerUrl, intervalMs: 3_600_000, logger: silentLogger, log: memoryLinkCheckLog() });
    for (const status of statuses) {
      partnerStatus = status;
      await monitor.runCheck();
    }
    const { app, store } = await setUp({ linkHealth: monitor });
    const { text } = await request(app).get('/admin').set('Authorization', basic(token)).expect(200);
    await store.close();
    return parseHtml(text);
  }

  function expectNoBanner(page: HtmlNode) {
    assertNoSelector(page, '.banner');
    expect(page.text()).not.toContain('looks broken');
  }

  it('shows the last check', async () => {
    const page = await adminAfterChecks([200]);
    expect(page.text()).toContain(`Link check of ${partnerUrl}`);
    expect(page.text()).toContain('200 OK');
    expectNoBanner(page);
  });

  it('shows a banner after two 404s in a row', async () => {
    const page = await adminAfterChecks([404, 404]);
    const [banner] = assertSelector(page, 'div.banner[role="alert"]', 1);
    expect(banner!.text()).toContain('The affiliate link looks broken. 2 checks in a row found the page gone (404 or 410).');
  });

  it('keeps the banner when a refused check (403) comes between broken ones, and clears it once the link works', async () => {
    expect((await adminAfterChecks([404, 403, 410])).text('.banner')).toContain('2 checks in a row found the page gone');
    expectNoBanner(await adminAfterChecks([404, 404, 200]));
  });

  it('shows no banner after a single 410, nor when the partner answers 403', async () => {
    expectNoBanner(await adminAfterChecks([410]));
    expectNoBanner(await adminAfterChecks([403, 403]));
  });
});

describe('GET /admin while the database does not answer', () => {
  it('answers 503 with Retry-After and a page that says so, still private', async () => {
    const { app, store } = await setUp();
    await store.close();
    const response = await request(app).get('/admin').set('Authorization', `Bearer ${token}`).expect(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(parseHtml(response.text).text()).toContain('The statistics database (CLICKS_DB :memory:) is not answering');
    await request(app).get('/').expect(200);
  });
});

describe.each(engines)('GET /admin with thousands of sources on %s', (engine) => {
  it('lists the top 20 sources and adds up the rest in one row that says how many, and the page stays small', async () => {
    const { app, store } = await setUp({ engine });
    try {
      const day = new Date().toISOString().slice(0, 10);
      const views = Array.from({ length: 3000 }, (_, index) => ({
        at: Date.now(),
        day,
        page: '/',
        referrer_host: null,
        // Source 0 brings three visitors, sources 1 to 2,999 one each.
        source: `campaign-${index < 3 ? 0 : index}`,
        medium: null,
        campaign: null,
        device: 'mobile',
        visitor: `visitor-${index}`,
      }));
      for (let start = 0; start < views.length; start += 500) await store.database.db.insertInto('views').values(views.slice(start, start + 500)).execute();
      const response = await request(app).get('/admin?days=365').set('Authorization', `Bearer ${token}`).expect(200);
      // The budget the issue sets for a flood of sources: well under 300 KB, whatever the number of sources.
      expect(Buffer.byteLength(response.text)).toBeLessThan(300_000);
      const page = parseHtml(response.text);
      const sources = tableCaptioned(page, 'Visitors, clicks and conversions by source');
      expect(cells(rowHeaded(sources, 'campaign-0')).slice(0, 1)).toEqual(['3']);
      expect(cells(rowHeaded(sources, '2978 other sources')).slice(0, 3)).toEqual(['2978', '0', '0']);
      expect(sources.all('tbody tr')).toHaveLength(21);
      expect(page.text()).toContain('npm run stats -- --json --all-sources');
      // The day's own table: its 5 top sources and the rest.
      expect(cells(rowHeaded(tableCaptioned(page, 'Sources per day'), '2993 other sources')).slice(0, 1)).toEqual(['2993']);
    } finally {
      await store.close();
    }
  });
});

describe('GET /admin over a long range with something every day', () => {
  it('shows the newest 31 days in the day tables, says where the rest are, and draws at most 92 bars a chart', async () => {
    const { app, store } = await setUp();
    try {
      const rows = Array.from({ length: 200 }, (_, index) => {
        const at = Date.now() - index * 86_400_000;
        const day = new Date(at).toISOString().slice(0, 10);
        return { at, day, placement: 'hero', page: '/', referrer_host: null, device: 'mobile', visitor: `v${index}`, via: 'beacon', source: 'newsletter' };
      });
      await store.database.db.insertInto('clicks').values(rows).execute();
      const response = await request(app).get('/admin?days=365').set('Authorization', `Bearer ${token}`).expect(200);
      const page = parseHtml(response.text);
      expect(tableCaptioned(page, 'Views, clicks and conversions per day').all('tbody tr')).toHaveLength(31);
      expect(tableCaptioned(page, 'Sources per day').all('tbody')).toHaveLength(31);
      expect(page.text()).toContain('169 older days are not shown here: npm run stats -- --csv or --json lists every day.');
      const heroChart = page.all('svg.chart').find((chart) => chart.attr('aria-label')?.startsWith('hero:'));
      expect(heroChart?.all('rect').length).toBeLessThanOrEqual(92);
      expect(heroChart?.attr('aria-label')).toMatch(/^hero: 200 clicks from /);
    } finally {
      await store.close();
    }
  });
});
