import request from 'supertest';
import { createClickStore } from '../../server/clicks/clickStore';
import { affiliatePlacements } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { cells, rowHeaded } from '../support/adminTables';
import type { TestEngineDatabase } from '../support/engines';
import { assertNoSelector, assertSelector, parseHtml, type HtmlNode } from '../support/html';
import { createTestApp } from '../support/testApp';

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
    await request(await createTestApp()).get('/admin').set('Authorization', basicAuth(adminToken)).expect(404);
  });
});

describe('GET /admin', () => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof openAdminApp>>['app'];
  beforeEach(async () => {
    ({ store, app } = await openAdminApp());
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
    ['a wrong Basic password', basicAuth('wrong-token-0123456789abcdef')],
    ['the token as user name instead of password', `Basic ${Buffer.from(`${adminToken}:`).toString('base64')}`],
    ['a wrong Bearer token', 'Bearer nope'],
    ['a token that only starts right', `Bearer ${adminToken.slice(0, -1)}`],
    ['an unknown scheme', `Token ${adminToken}`],
    ['Basic credentials without a colon', `Basic ${Buffer.from(adminToken).toString('base64')}`],
  ])('answers 401 to %s', async (_name, authorization) => {
    await request(app).get('/admin').set('Authorization', authorization).expect(401);
  });

  it.each([
    ['HTTP Basic (any user name, the token as password)', basicAuth(adminToken)],
    ['a Bearer token', `Bearer ${adminToken}`],
  ])('opens with %s', async (_name, authorization) => {
    const response = await request(app).get('/admin').set('Authorization', authorization).expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  describe('the page', () => {
    let response: request.Response;
    let page: HtmlNode;
    beforeEach(async () => {
      response = await request(app).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
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
        // Saw and its click-through first: nobody is known to have seen a placement without leave reports.
        expect(cells(row)).toEqual(['0', '–', clicks, visitors, share, '0', '0%', '–', '–', '–']);
      }
    });

    it('draws one server-rendered SVG chart of the chosen figure, titled and described for screen readers, with a link per placement', async () => {
      const chart = page.one('svg.main-chart[role="img"]');
      expect(chart.text('title#chart-title')).toMatch(/^Visitors, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
      // Clicks only, no page view recorded: visitors are nothing.
      expect(chart.text('desc#chart-desc')).toBe('a bar a day. Nothing in this range. The figures are in the table below the chart.');
      const links = page.one('nav.metrics').all('a');
      expect(links.map((link) => link.text())).toEqual(['Clicks', ...affiliatePlacements.map((placement) => `${placement} clicks`)]);
      const hero = parseHtml((await request(app).get(links[1]!.attr('href')!).set('Authorization', basicAuth(adminToken)).expect(200)).text);
      expect(hero.text('desc#chart-desc')).toMatch(/^a bar a day\. Total 2; highest 2 \(\d{4}-\d{2}-\d{2}\)\./);
      const explainer = parseHtml((await request(app).get(links[2]!.attr('href')!).set('Authorization', basicAuth(adminToken)).expect(200)).text);
      expect(explainer.text('desc#chart-desc')).toMatch(/^a bar a day\. Nothing in this range\./);
    });

    it('breaks clicks down by device and referring site', () => {
      for (const [name, clicks] of [['mobile', '2'], ['www.google.com', '3']] as const) {
        const row = rowHeaded(page, name);
        expect(row.text('th')).toBe(name);
        expect(cells(row)[0]).toBe(clicks);
      }
    });

    it('says the server does not check the link, and why, when it has no link monitor', () => {
      expect(page.text()).toContain('The server does not check the affiliate link: LINK_CHECK_HOURS is off, or AFFILIATE_URL is on a');
    });
  });

  it('takes a range from the query', async () => {
    const response = await request(app).get('/admin?from=2020-01-01&to=2020-01-07').set('Authorization', basicAuth(adminToken)).expect(200);
    const page = parseHtml(response.text);
    expect(page.text()).toContain('0 clicks by 0 visitors from 2020-01-01 to 2020-01-07');
    expect(page.one('ol.funnel').all('li').map((step) => step.text())).toEqual(['0 visitors 0 page views', '0 clicked an affiliate link', '0 conversions', '– revenue']);
    expect(page.attr('input[name="from"]', 'value')).toBe('2020-01-01');
  });

  it('explains a range it cannot read and shows the last 30 days instead', async () => {
    const response = await request(app).get('/admin?from=2020-13-01').set('Authorization', basicAuth(adminToken)).expect(200);
    const page = parseHtml(response.text);
    expect(page.text('[role="alert"]')).toContain('That range could not be shown: from must be a date written YYYY-MM-DD');
    expect(page.text()).toContain('3 clicks by 2 visitors');
  });

  it('escapes whatever the query holds', async () => {
    const response = await request(app).get('/admin?from=%3Cscript%3E').set('Authorization', basicAuth(adminToken)).expect(200);
    // The raw response on purpose: the query must come back escaped, byte for byte, wherever it is shown.
    expect(response.text).not.toContain('<script>');
  });

  it('answers HEAD and refuses POST with 405', async () => {
    await request(app).head('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
    await request(app).post('/admin').set('Authorization', basicAuth(adminToken)).expect(405);
  });

  it('is linked from no public page, the sitemap or robots.txt', async () => {
    for (const path of [...pagePaths, '/sitemap.xml', '/robots.txt', '/no-such-page']) {
      const { text } = await request(app).get(path);
      // The raw response on purpose: not in a link, a script, a comment or plain text (robots.txt and the sitemap are not HTML).
      expect(text).not.toMatch(/\/admin/);
    }
  });
});

describe('GET /admin with CLICK_STATS=off', () => {
  it('says counting is off', async () => {
    const app = await createTestApp({ ADMIN_TOKEN: adminToken, CLICK_STATS: 'off' });
    const { text } = await request(app).get('/admin').set('Authorization', `Bearer ${adminToken}`).expect(200);
    expect(parseHtml(text).text()).toContain('Click counting is off');
  });
});

describe('GET /admin while the database does not answer', () => {
  it('answers 503 with Retry-After and a page that says so, still private', async () => {
    const { app, store } = await openAdminApp();
    await store.close();
    const response = await request(app).get('/admin').set('Authorization', `Bearer ${adminToken}`).expect(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(parseHtml(response.text).text()).toContain('The statistics database (CLICKS_DB :memory:) is not answering');
    await request(app).get('/').expect(200);
  });
});
