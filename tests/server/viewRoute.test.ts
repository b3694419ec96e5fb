import request from 'supertest';
import { createStatsStores } from '../../server/statsStores';
import { viewAddressRateLimit, viewVisitorRateLimit } from '../../server/views/viewRoute';
import { pagePaths } from '../../shared/routes';
import { sendReport } from '../support/beaconReports';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertNoSelector, parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

/** What every report answers alike (cross-site, bots, opt-outs, size, rate limits, 503, 405) is in beaconRoute.test.ts. */
const landing = { page: '/', referrer: 'news.example.com', source: 'newsletter', medium: 'email', campaign: 'spring-sale', content: 'banner-a' };

async function setUp(engine: (typeof engines)[number], env: Record<string, string> = {}) {
  const store = await openTestDatabase(engine);
  const app = await createTestApp({ TRUST_PROXY: 'true', ...env }, { stores: createStatsStores(store.database) });
  return { store, app };
}

describe.each(engines)('POST /api/views on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof setUp>>['app'];
  beforeEach(async () => {
    ({ store, app } = await setUp(engine));
  });
  afterEach(() => store.close().catch(() => {}));

  const report = (body: string | object, headers: Record<string, string> = {}) => sendReport(app, '/api/views', body, headers);
  const rows = () =>
    store.database.db.selectFrom('views').select(['page', 'referrer_host', 'source', 'medium', 'campaign', 'content', 'device', 'day', 'at', 'visitor']).orderBy('id').execute();

  it('records a landing view with its page, referring host, source, medium, campaign and content, device and UTC day, and answers 204', async () => {
    const before = Date.now();
    await report(landing).expect(204);
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toEqual({
      page: '/',
      referrer_host: 'news.example.com',
      source: 'newsletter',
      medium: 'email',
      campaign: 'spring-sale',
      content: 'banner-a',
      device: 'mobile',
      day: new Date().toISOString().slice(0, 10),
      at: expect.any(Number),
      visitor: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(Number(row!.at)).toBeGreaterThanOrEqual(before);
  });

  it.each(pagePaths)('records a view of %s after in-place navigation: no referrer, the landing source kept', async (page) => {
    await report({ ...landing, page, referrer: '' }).expect(204);
    expect(await rows()).toEqual([expect.objectContaining({ page, referrer_host: null, source: 'newsletter', medium: 'email', campaign: 'spring-sale' })]);
  });

  it('stores empty values as not known, and a referral from this site itself as no referrer', async () => {
    await report({ page: '/about-us', referrer: '127.0.0.1', source: '', medium: '', campaign: '' }, { Host: '127.0.0.1' }).expect(204);
    await report({ page: '/about-us' }).expect(204);
    expect(await rows()).toEqual([
      expect.objectContaining({ page: '/about-us', referrer_host: null, source: null, medium: null, campaign: null }),
      expect.objectContaining({ page: '/about-us', referrer_host: null, source: null, medium: null, campaign: null }),
    ]);
  });

  it('keeps one visitor hash for one visitor, and a desktop device for a desktop browser', async () => {
    const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    await report(landing, { 'User-Agent': desktop }).expect(204);
    await report({ ...landing, page: '/privacy-policy', referrer: '' }, { 'User-Agent': desktop }).expect(204);
    const [first, second] = await rows();
    expect(first!.visitor).toBe(second!.visitor);
    expect([first!.device, second!.device]).toEqual(['desktop', 'desktop']);
  });

  it('stores no IP address or user agent', async () => {
    await report(landing).expect(204);
    const stored = JSON.stringify(await store.database.db.selectFrom('views').selectAll().execute());
    expect(stored).not.toContain('203.0.113.9');
    expect(stored).not.toContain('Pixel');
  });
});

describe('POST /api/views: what a report must hold', () => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof setUp>>['app'];
  beforeEach(async () => {
    ({ store, app } = await setUp('sqlite'));
  });
  afterEach(() => store.close().catch(() => {}));

  it.each([
    ['an unknown page', { ...landing, page: '/admin' }],
    ['a page not folded to its canonical path', { ...landing, page: '/About-Us/' }],
    ['a missing page', { referrer: '', source: 'direct' }],
    ['a page of the wrong type', { ...landing, page: ['/'] }],
    ['a referrer that is not a host name', { ...landing, referrer: 'https://evil.example/<script>' }],
    ['a referrer that is not a string', { ...landing, referrer: 1 }],
    ['a source over 100 characters', { ...landing, source: 'a'.repeat(101) }],
    ['a source that is not a string', { ...landing, source: null }],
    ['a medium with a control character', { ...landing, medium: 'e\u0000mail' }],
    ['a campaign that is not a string', { ...landing, campaign: 2026 }],
    ['a content over 100 characters', { ...landing, content: 'c'.repeat(101) }],
    ['a content with a control character', { ...landing, content: 'ad\u00071' }],
  ])('answers 400 to %s and records nothing', async (_name, body) => {
    await sendReport(app, '/api/views', body).expect(400);
    expect(await store.database.db.selectFrom('views').select('id').execute()).toEqual([]);
  });

  it('takes values of exactly 100 characters', async () => {
    const longest = 'a'.repeat(100);
    await sendReport(app, '/api/views', { ...landing, source: longest, medium: longest, campaign: longest, content: longest }).expect(204);
  });
});

describe('view reporting in the page', () => {
  const entry = async (env: Record<string, string>) => {
    const { app, store } = await setUp('sqlite', env);
    const page = parseHtml((await request(app).get('/about-us').expect(200)).text);
    await store.close();
    return page;
  };

  it('names the view endpoint on the entry script while counting is on, and no sub-ID parameter without AFFILIATE_SUBID_PARAM', async () => {
    const page = await entry({});
    expect(page.attr('script[data-view-endpoint]', 'data-view-endpoint')).toBe('/api/views');
    assertNoSelector(page, '[data-subid-param]');
  });

  it('names the sub-ID parameter with AFFILIATE_SUBID_PARAM, and the links still carry PARAM=<placement> for visitors without JavaScript', async () => {
    const page = await entry({ AFFILIATE_SUBID_PARAM: 'subid' });
    expect(page.attr('script[data-subid-param]', 'data-subid-param')).toBe('subid');
    const home = parseHtml((await request(await createTestApp({ AFFILIATE_SUBID_PARAM: 'subid' })).get('/').expect(200)).text);
    expect(new URL(home.attr('a[data-placement="bonus"]', 'href')!).searchParams.get('subid')).toBe('bonus');
  });
});

describe('the view rate limits', () => {
  it('are a burst of 30 then one every 2 s per visitor, and a burst of 120 then one every 0.5 s per address', () => {
    expect(viewVisitorRateLimit).toEqual({ burst: 30, refillMs: 2000 });
    expect(viewAddressRateLimit).toEqual({ burst: 120, refillMs: 500 });
  });
});
