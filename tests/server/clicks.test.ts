import request from 'supertest';
import { affiliatePlacements } from '../../shared/affiliate';
import { connect } from 'node:net';
import { createRateLimiter } from '../../server/clicks/rateLimiter';
import { createStatsStores } from '../../server/db/statsStores';
import type { AppDatabase } from '../../server/db/openDatabase';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertNoSelector, assertSelector, parseHtml } from '../support/html';
import { createTestApp, startTestServer, testSiteUrl } from '../support/testApp';

const browserUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

async function setUp(env: Record<string, string> = {}, options: Parameters<typeof createTestApp>[1] = {}) {
  const opened = await openTestDatabase('sqlite');
  const app = await createTestApp({ TRUST_PROXY: 'true', ...env }, { stores: createStatsStores(opened.database, { retentionDays: 400 }), ...options });
  return { store: opened, app };
}

const rows = (store: TestEngineDatabase) => store.database.db.selectFrom('clicks').selectAll().orderBy('id').execute() as Promise<Record<string, unknown>[]>;
const everything = async (database: AppDatabase) =>
  JSON.stringify([
    await database.db.selectFrom('clicks').selectAll().execute(),
    await database.db.selectFrom('daily_totals').selectAll().execute(),
  ]);

function report(app: Awaited<ReturnType<typeof setUp>>['app'], body: string | object, headers: Record<string, string> = {}) {
  return request(app)
    .post('/api/clicks')
    .set({ 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': browserUserAgent, 'X-Forwarded-For': '203.0.113.9', ...headers })
    .send(typeof body === 'string' ? body : JSON.stringify(body));
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

  it('sets no cookie', async () => {
    const response = await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('counts a referral from this site itself as no referrer', async () => {
    await report(app, { placement: 'hero', page: '/', referrer: '127.0.0.1' }, { Host: '127.0.0.1' }).expect(204);
    expect((await rows(store))[0]?.referrer_host).toBeNull();
  });

  it('records a ping (the link ping attribute, when JavaScript is off) with its placement and page', async () => {
    await request(app)
      .post('/api/clicks?placement=bonus')
      .set({ 'Content-Type': 'text/ping', 'Ping-From': `${testSiteUrl}/`, 'Ping-To': 'https://partner.example.net/join', 'User-Agent': browserUserAgent })
      .send('PING')
      .expect(204);
    expect(await rows(store)).toEqual([expect.objectContaining({ placement: 'bonus', page: '/', via: 'ping', referrer_host: null })]);
  });

  it.each([
    ['an unknown placement', { placement: 'sidebar', page: '/', referrer: '' }],
    ['an unknown page', { placement: 'hero', page: '/admin', referrer: '' }],
    ['a missing page', { placement: 'hero' }],
    ['a placement of the wrong type', { placement: ['hero'], page: '/' }],
    ['a referrer that is not a host name', { placement: 'hero', page: '/', referrer: 'https://evil.example/<script>' }],
    ['an array', [{ placement: 'hero', page: '/' }]],
    ['null', null],
  ])('answers 400 to %s and records nothing', async (_name, body) => {
    await report(app, JSON.stringify(body)).expect(400);
    expect(await rows(store)).toHaveLength(0);
  });

  it.each([
    ['malformed JSON', '{"placement":"hero",'],
    ['an empty body', ''],
    ['a body over 512 bytes', JSON.stringify({ placement: 'hero', page: '/', referrer: `${'a'.repeat(500)}.example` })],
  ])('answers 400 to %s', async (_name, body) => {
    await report(app, body).expect(400);
    expect(await rows(store)).toHaveLength(0);
  });

  it('answers 400 to a compressed body rather than inflating it', async () => {
    await report(app, 'x', { 'Content-Encoding': 'gzip' }).expect(400);
  });

  it.each([
    ['a ping with a body other than PING', 'NOPE', '/api/clicks?placement=hero', `${testSiteUrl}/`],
    ['a ping without a known placement', 'PING', '/api/clicks?placement=nope', `${testSiteUrl}/`],
    ['a ping from an unknown page', 'PING', '/api/clicks?placement=hero', `${testSiteUrl}/nope`],
    ['a ping without Ping-From', 'PING', '/api/clicks?placement=hero', undefined],
  ])('answers 400 to %s', async (_name, body, url, pingFrom) => {
    const call = request(app).post(url).set({ 'Content-Type': 'text/ping', 'User-Agent': browserUserAgent });
    if (pingFrom) call.set('Ping-From', pingFrom);
    await call.send(body).expect(400);
    expect(await rows(store)).toHaveLength(0);
  });

  it.each([
    ['Googlebot', { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['a headless browser', { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36' }],
    ['no user agent at all', { 'User-Agent': '' }],
    ['a prefetch (Sec-Purpose)', { 'Sec-Purpose': 'prefetch' }],
    ['a prefetch (Purpose)', { Purpose: 'prefetch' }],
    ['a visitor sending Global Privacy Control', { 'Sec-GPC': '1' }],
    ['a visitor sending Do Not Track', { DNT: '1' }],
  ])('answers %s with 204 but does not count it', async (_name, headers) => {
    await report(app, { placement: 'hero', page: '/', referrer: '' }, headers).expect(204);
    expect(await rows(store)).toHaveLength(0);
  });

  it('refuses reports from another site with 403', async () => {
    await report(app, { placement: 'hero', page: '/', referrer: '' }, { Origin: 'https://elsewhere.example' }).expect(403);
    await report(app, { placement: 'hero', page: '/', referrer: '' }, { 'Sec-Fetch-Site': 'cross-site' }).expect(403);
    expect(await rows(store)).toHaveLength(0);
  });

  it('accepts reports whose Origin is this site', async () => {
    await report(app, { placement: 'hero', page: '/', referrer: '' }, { Origin: testSiteUrl, 'Sec-Fetch-Site': 'same-origin' }).expect(204);
    expect(await rows(store)).toHaveLength(1);
  });

  it('limits each visitor to a burst of reports, answering 429 with Retry-After', async () => {
    for (let i = 0; i < 10; i += 1) await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(204);
    const limited = await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another visitor (another address) is not held back.
    await report(app, { placement: 'hero', page: '/', referrer: '' }, { 'X-Forwarded-For': '198.51.100.4' }).expect(204);
    expect(await rows(store)).toHaveLength(11);
  });

  it('holds one address to a burst of 60 reports, however often it changes its user agent', async () => {
    ({ store, app } = await setUp({}, { clickRateLimiter: createRateLimiter({ burst: 1e9, refillMs: 1 }) }));
    for (let i = 0; i < 60; i += 1) {
      await report(app, { placement: 'hero', page: '/', referrer: '' }, { 'User-Agent': `${browserUserAgent} build/${i}` }).expect(204);
    }
    const limited = await report(app, { placement: 'hero', page: '/', referrer: '' }, { 'User-Agent': `${browserUserAgent} build/60` }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await report(app, { placement: 'hero', page: '/', referrer: '' }, { 'X-Forwarded-For': '198.51.100.4' }).expect(204);
    expect(await rows(store)).toHaveLength(61);
  });

  it('answers 503 with Retry-After, and does not acknowledge the click, when the database cannot take it', async () => {
    await store.database.db.schema.dropTable('clicks').execute();
    const response = await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 503 when the database is closed, and still serves pages', async () => {
    await store.close();
    await report(app, { placement: 'hero', page: '/', referrer: '' }).expect(503);
    await request(app).get('/').expect(200);
    await request(app).get('/healthz').expect(200);
  });

  it.each(['GET', 'PUT', 'DELETE'] as const)('answers %s with 405 and Allow: POST', async (method) => {
    const response = await request(app)[method.toLowerCase() as 'get' | 'put' | 'delete']('/api/clicks').expect(405);
    expect(response.headers.allow).toBe('POST');
  });
});

describe('affiliate links with click counting on', () => {
  it('carry a ping to the click endpoint for their placement, and the page names the endpoint for the script', async () => {
    const { app, store } = await setUp();
    const page = parseHtml((await request(app).get('/').expect(200)).text);
    for (const placement of affiliatePlacements) {
      expect(page.attr(`a[data-placement="${placement}"]`, 'ping')).toBe(`/api/clicks?placement=${placement}`);
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

  it('has no click endpoint', async () => {
    await request(app).post('/api/clicks').set('Content-Type', 'text/plain').send('{"placement":"hero","page":"/"}').expect(404);
    await request(app).get('/api/clicks').expect(404);
  });

  it('renders links without ping and pages without the endpoint, so no listener is added', async () => {
    const page = parseHtml((await request(app).get('/').expect(200)).text);
    assertSelector(page, 'a[data-placement="hero"]', 1);
    assertNoSelector(page, '[ping]');
    assertNoSelector(page, '[data-click-endpoint]');
  });
});

describe('a click report that declares too big a body', () => {
  it('is refused with 400 at once, without waiting for the body, and the connection is closed', async () => {
    const { store } = await setUp();
    const site = await startTestServer({}, { stores: createStatsStores(store.database, { retentionDays: 400 }) });
    try {
      const { port } = new URL(site.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(`POST /api/clicks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 10000000\r\nUser-Agent: ${browserUserAgent}\r\n\r\n{"placement":`);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      // The server answers and closes without the other 9,999,987 bytes ever being sent.
      await new Promise((resolve) => socket.on('close', resolve));
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    } finally {
      await site.close();
      await store.close();
    }
  });
});
