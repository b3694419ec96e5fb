import request from 'supertest';
import { affiliatePlacements, newClickId } from '../../shared/affiliate';
import { createStatsStores } from '../../server/statsStores';
import type { AppDatabase } from '../../server/db/openDatabase';
import { browserUserAgent, sendReport } from '../support/beaconReports';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertNoSelector, assertSelector, parseHtml } from '../support/html';
import { createTestApp, testSiteUrl } from '../support/testApp';

/** What every report answers alike (cross-site, bots, opt-outs, size, rate limits, 503, 405) is in beaconRoute.test.ts. */
async function setUp(env: Record<string, string> = {}) {
  const opened = await openTestDatabase('sqlite');
  const app = await createTestApp({ TRUST_PROXY: 'true', ...env }, { stores: createStatsStores(opened.database) });
  return { store: opened, app };
}

const rows = (store: TestEngineDatabase) => store.database.db.selectFrom('clicks').selectAll().orderBy('id').execute() as Promise<Record<string, unknown>[]>;
const everything = async (database: AppDatabase) =>
  JSON.stringify([
    await database.db.selectFrom('clicks').selectAll().execute(),
    await database.db.selectFrom('daily_counts').selectAll().execute(),
  ]);

function report(app: Awaited<ReturnType<typeof setUp>>['app'], body: string | object, headers: Record<string, string> = {}) {
  return sendReport(app, '/api/clicks', body, headers);
}

/** A hyperlink-auditing ping as Chromium sends it; pingFrom null leaves Ping-From out. */
function ping(app: Awaited<ReturnType<typeof setUp>>['app'], url: string, pingFrom: string | null = `${testSiteUrl}/`, body = 'PING') {
  const call = request(app).post(url).set({ 'Content-Type': 'text/ping', 'User-Agent': browserUserAgent });
  if (pingFrom) call.set('Ping-From', pingFrom);
  return call.send(body);
}

describe('POST /api/clicks', () => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof setUp>>['app'];
  beforeEach(async () => {
    ({ store, app } = await setUp());
  });
  afterEach(() => store.close().catch(() => {}));

  it.each(affiliatePlacements)('records a beacon report of the %s placement and answers 204', async (placement) => {
    await report(app, { placement, page: '/', referrer: 'www.google.com' }).expect(204);
    expect(await rows(store)).toEqual([
      expect.objectContaining({ placement, page: '/', referrer_host: 'www.google.com', device: 'mobile', via: 'beacon' }),
    ]);
  });

  it('stores the time, the UTC day and a visitor hash, but no IP address or user agent', async () => {
    const before = Date.now();
    await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(204);
    const [row] = await rows(store);
    expect(row?.at).toBeGreaterThanOrEqual(before);
    expect(row?.day).toBe(new Date().toISOString().slice(0, 10));
    expect(row?.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row?.referrer_host).toBeNull();
    const stored = await everything(store.database);
    expect(stored).not.toContain('203.0.113.9');
    expect(stored).not.toContain('Pixel');
  });

  it('counts a referral from this site itself as no referrer', async () => {
    await report(app, { placement: 'hero', page: '/', referrer: '127.0.0.1' }, { Host: '127.0.0.1' }).expect(204);
    expect((await rows(store))[0]?.referrer_host).toBeNull();
  });

  it('records a ping (the link ping attribute, when JavaScript is off) with its placement and page', async () => {
    await ping(app, '/api/clicks?placement=bonus').expect(204);
    expect(await rows(store)).toEqual([expect.objectContaining({ placement: 'bonus', page: '/', via: 'ping', referrer_host: null, click_id: null, source: null })]);
  });

  it.each([
    ['an unknown placement', { placement: 'sidebar', page: '/', referrer: '' }],
    ['an unknown page', { placement: 'hero', page: '/admin', referrer: '' }],
    ['a missing page', { placement: 'hero' }],
    ['a placement of the wrong type', { placement: ['hero'], page: '/' }],
    ['a referrer that is not a host name', { placement: 'hero', page: '/', referrer: 'https://evil.example/<script>' }],
  ])('answers 400 to %s and records nothing', async (_name, body) => {
    await report(app, JSON.stringify(body)).expect(400);
    expect(await rows(store)).toHaveLength(0);
  });

  it.each([
    ['a ping with a body other than PING', 'NOPE', '/api/clicks?placement=hero', `${testSiteUrl}/`],
    ['a ping without a known placement', 'PING', '/api/clicks?placement=nope', `${testSiteUrl}/`],
    ['a ping from an unknown page', 'PING', '/api/clicks?placement=hero', `${testSiteUrl}/nope`],
    ['a ping without Ping-From', 'PING', '/api/clicks?placement=hero', null],
  ])('answers 400 to %s', async (_name, body, url, pingFrom) => {
    await ping(app, url, pingFrom, body).expect(400);
    expect(await rows(store)).toHaveLength(0);
  });

  describe('with a click ID and a source', () => {
    it('stores the click ID in lower case, as a sub-ID is read back, and the source', async () => {
      const clickId = newClickId('bonus');
      await report(app, { placement: 'bonus', page: '/about-us', referrer: '', clickId: clickId.toUpperCase(), source: 'newsletter' }).expect(204);
      expect(await rows(store)).toEqual([expect.objectContaining({ placement: 'bonus', page: '/about-us', via: 'beacon', click_id: clickId, source: 'newsletter' })]);
    });

    it("stores the visit's campaign and ad (content) beside its source, and empty ones as not known", async () => {
      await report(app, { placement: 'bonus', page: '/', referrer: '', clickId: newClickId('bonus'), source: 'google', campaign: 'spring', content: 'banner-a' }).expect(204);
      await report(app, { placement: 'bonus', page: '/', referrer: '', source: 'google', campaign: '', content: '' }).expect(204);
      expect((await rows(store)).map((row) => [row.source, row.campaign, row.content])).toEqual([
        ['google', 'spring', 'banner-a'],
        ['google', null, null],
      ]);
    });

    it('stores an empty source, and a report without either, as not known', async () => {
      await report(app, { placement: 'hero', page: '/', referrer: '', clickId: newClickId('hero'), source: '' }).expect(204);
      await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(204);
      expect((await rows(store)).map((row) => [typeof row.click_id, row.source])).toEqual([
        ['string', null],
        ['object', null],
      ]);
    });

    it.each([
      ['a click ID of another placement', { clickId: newClickId('hero') }],
      ['a placement name instead of a click ID', { clickId: 'bonus' }],
      ['a click ID with a character outside base32', { clickId: `bo${'1'.repeat(20)}` }],
      ['a click ID one character too long', { clickId: `${newClickId('bonus')}a` }],
      ['an empty click ID', { clickId: '' }],
      ['a click ID that is not a string', { clickId: 42 }],
      ['a source over 100 characters', { source: 'a'.repeat(101) }],
      ['a source with a control character', { source: 'news\nletter' }],
      ['a source that is not a string', { source: 7 }],
      ['a campaign over 100 characters', { campaign: 'c'.repeat(101) }],
      ['a content with a control character', { content: 'ad\u00001' }],
      ['a content that is not a string', { content: 3 }],
    ])('answers 400 to %s and records nothing', async (_name, fields) => {
      await report(app, { placement: 'bonus', page: '/', referrer: '', ...fields }).expect(400);
      expect(await rows(store)).toHaveLength(0);
    });

    it('records a ping that carries the click ID of its placement (sendBeacon refused), in any case', async () => {
      const clickId = newClickId('check-auctions-image');
      await ping(app, `/api/clicks?placement=check-auctions-image&click=${clickId.toUpperCase()}`).expect(204);
      expect(await rows(store)).toEqual([expect.objectContaining({ placement: 'check-auctions-image', via: 'ping', click_id: clickId, source: null })]);
    });

    it.each([
      ['a click ID of another placement', `/api/clicks?placement=hero&click=${newClickId('bonus')}`],
      ['a click parameter that is no click ID', '/api/clicks?placement=hero&click=hero'],
      ['an empty click parameter', '/api/clicks?placement=hero&click='],
      ['two click parameters', `/api/clicks?placement=hero&click=${newClickId('hero')}&click=${newClickId('hero')}`],
    ])('answers 400 to a ping with %s', async (_name, url) => {
      await ping(app, url).expect(400);
      expect(await rows(store)).toHaveLength(0);
    });
  });
});

describe('affiliate links with click counting on', () => {
  it('carry a ping to the click endpoint on SITE_URL for their placement, and the page names the endpoint for the script', async () => {
    const { app, store } = await setUp();
    const page = parseHtml((await request(app).get('/').expect(200)).text);
    for (const placement of affiliatePlacements) {
      // Absolute, as the HTML standard asks of ping.
      expect(page.attr(`a[data-placement="${placement}"]`, 'ping')).toBe(`${testSiteUrl}/api/clicks?placement=${placement}`);
    }
    expect(page.attr('script[data-click-endpoint]', 'data-click-endpoint')).toBe('/api/clicks');
    await store.close();
  });
});

describe('CLICK_STATS=off', () => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    app = await createTestApp({ CLICK_STATS: 'off' });
  });

  it('renders links without ping and pages without the endpoint, so no listener is added', async () => {
    const page = parseHtml((await request(app).get('/').expect(200)).text);
    assertSelector(page, 'a[data-placement="hero"]', 1);
    assertNoSelector(page, '[ping]');
    assertNoSelector(page, '[data-click-endpoint]');
  });
});
