import { connect } from 'node:net';
import request from 'supertest';
import { createRateLimiter } from '../../server/limits/rateLimiter';
import { addressRateLimit, visitorRateLimit } from '../../server/clicks/clickRoute';
import { viewAddressRateLimit, viewVisitorRateLimit } from '../../server/views/viewRoute';
import { createStatsStores } from '../../server/statsStores';
import type { AppOptions } from '../../server/app';
import { browserUserAgent, sendReport } from '../support/beaconReports';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertNoSelector, parseHtml } from '../support/html';
import { createTestApp, startTestServer, testSiteUrl } from '../support/testApp';

/**
 * What every report from a visitor's browser answers alike (server/beacons/beaconRoute.ts), for each
 * endpoint: clicks and page views. What each report holds is tested in clickRoute.test.ts and viewRoute.test.ts.
 */
const beacons = [
  {
    endpoint: '/api/clicks',
    table: 'clicks',
    valid: { placement: 'hero', page: '/', referrer: '' },
    maxBytes: 1024,
    visitorBurst: 10,
    addressBurst: 60,
    limits: { visitor: visitorRateLimit, address: addressRateLimit },
    visitorLimiter: 'clickRateLimiter',
    addressLimiter: 'addressRateLimiter',
  },
  {
    endpoint: '/api/views',
    table: 'views',
    valid: { page: '/', referrer: '', source: 'direct', medium: '', campaign: '' },
    maxBytes: 1024,
    visitorBurst: 30,
    addressBurst: 120,
    limits: { visitor: viewVisitorRateLimit, address: viewAddressRateLimit },
    visitorLimiter: 'viewRateLimiter',
    addressLimiter: 'viewAddressRateLimiter',
  },
] as const;

describe.each(beacons)('POST $endpoint', ({ endpoint, table, valid, maxBytes, visitorBurst, addressBurst, limits, visitorLimiter, addressLimiter }) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof createTestApp>>;
  /**
   * The app with the route's own bursts, refilled once an hour rather than every few seconds: what these
   * tests count is who spends which allowance, and a slow machine (a report every 50 ms under a parallel
   * flood) must not see a token come back halfway through a burst.
   */
  const setUp = async (options: AppOptions = {}) => {
    store = await openTestDatabase('sqlite');
    const slowRefill = { [visitorLimiter]: createRateLimiter({ burst: visitorBurst, refillMs: 3_600_000 }), [addressLimiter]: createRateLimiter({ burst: addressBurst, refillMs: 3_600_000 }) };
    app = await createTestApp({ TRUST_PROXY: 'true' }, { stores: createStatsStores(store.database), ...slowRefill, ...options });
  };

  it('tests the bursts the route itself uses', () => {
    expect([limits.visitor.burst, limits.address.burst]).toEqual([visitorBurst, addressBurst]);
  });
  beforeEach(() => setUp());
  afterEach(() => store.close().catch(() => {}));

  const report = (body: string | object | null = valid, headers: Record<string, string> = {}) => sendReport(app, endpoint, body, headers);
  const rowCount = async () => (await store.database.db.selectFrom(table).select('id').execute()).length;

  it('answers 204 to a valid report, with no cookie and no caching', async () => {
    const response = await report().expect(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await rowCount()).toBe(1);
  });

  it.each([
    ['malformed JSON', '{"page":"/",'],
    ['an empty body', ''],
    ['an array', [valid]],
    ['null', null],
    ['a JSON string', '"/"'],
  ])('answers 400 to %s and records nothing', async (_name, body) => {
    const response = await report(body).expect(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await rowCount()).toBe(0);
  });

  it(`takes a body of ${maxBytes} bytes and answers 400 to one byte more`, async () => {
    // Fields a report does not know are ignored, so only the size decides here.
    const padded = (bytes: number) => JSON.stringify({ ...valid, padding: 'a'.repeat(bytes - JSON.stringify({ ...valid, padding: '' }).length) });
    await report(padded(maxBytes)).expect(204);
    await report(padded(maxBytes + 1)).expect(400);
    expect(await rowCount()).toBe(1);
  });

  it('answers 400 to a compressed body rather than inflating it', async () => {
    await report('x', { 'Content-Encoding': 'gzip' }).expect(400);
  });

  it.each([
    ['Googlebot', { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['a headless browser', { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36' }],
    ['no user agent at all', { 'User-Agent': '' }],
    ['a prefetch (Sec-Purpose)', { 'Sec-Purpose': 'prefetch' }],
    ['a prerender (Sec-Purpose)', { 'Sec-Purpose': 'prefetch;prerender' }],
    ['a prefetch (Purpose)', { Purpose: 'prefetch' }],
    ['a visitor sending Global Privacy Control', { 'Sec-GPC': '1' }],
    ['a visitor sending Do Not Track', { DNT: '1' }],
  ])('answers %s with 204 but does not count it', async (_name, headers) => {
    await report(valid, headers).expect(204);
    expect(await rowCount()).toBe(0);
  });

  it('refuses reports from another site with 403', async () => {
    await report(valid, { Origin: 'https://elsewhere.example' }).expect(403);
    await report(valid, { 'Sec-Fetch-Site': 'cross-site' }).expect(403);
    expect(await rowCount()).toBe(0);
  });

  it('accepts reports whose Origin is this site', async () => {
    await report(valid, { Origin: testSiteUrl, 'Sec-Fetch-Site': 'same-origin' }).expect(204);
    expect(await rowCount()).toBe(1);
  });

  it(`limits each visitor to a burst of ${visitorBurst} reports, answering 429 with Retry-After`, async () => {
    for (let i = 0; i < visitorBurst; i += 1) await report().expect(204);
    const limited = await report().expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another visitor (another address) is not held back.
    await report(valid, { 'X-Forwarded-For': '198.51.100.4' }).expect(204);
    expect(await rowCount()).toBe(visitorBurst + 1);
  });

  it(`holds one address to a burst of ${addressBurst} reports, however often it changes its user agent`, async () => {
    await store.close();
    await setUp({ [visitorLimiter]: createRateLimiter({ burst: 1e9, refillMs: 1 }) });
    for (let i = 0; i < addressBurst; i += 1) await report(valid, { 'User-Agent': `${browserUserAgent} build/${i}` }).expect(204);
    const limited = await report(valid, { 'User-Agent': `${browserUserAgent} build/${addressBurst}` }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await report(valid, { 'X-Forwarded-For': '198.51.100.4' }).expect(204);
    expect(await rowCount()).toBe(addressBurst + 1);
  });

  describe('counting an address', () => {
    /** Reports from `address`, each with a user agent of its own (so each is another visitor), as many as `count`: their statuses. */
    const fromAddress = async (address: string, count: number, name = 'build') => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i += 1) statuses.push((await report(valid, { 'X-Forwarded-For': address, 'User-Agent': `${browserUserAgent} ${name}/${i}` })).status);
      return statuses;
    };

    it(`counts every IPv6 address of one /64 against one allowance of ${addressBurst}, and another /64 apart`, async () => {
      const half = addressBurst / 2;
      expect(await fromAddress('2001:db8:1:2::a', half)).toEqual(Array(half).fill(204));
      expect(await fromAddress('2001:db8:1:2:ffff:ffff:ffff:fffe', half)).toEqual(Array(half).fill(204));
      expect(await fromAddress('2001:DB8:1:2::b', 1)).toEqual([429]);
      expect(await fromAddress('2001:db8:1:3::a', 1)).toEqual([204]);
      expect(await rowCount()).toBe(addressBurst + 1);
    });

    it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries', async () => {
      expect(await fromAddress('203.0.113.9', addressBurst)).toEqual(Array(addressBurst).fill(204));
      expect(await fromAddress('::ffff:203.0.113.9', 1)).toEqual([429]);
      expect(await fromAddress('::ffff:203.0.113.10', 1)).toEqual([204]);
    });

    it("spends none of an address's allowance on reports its visitor limit refused, so a stuck visitor does not stop its neighbours' counting", async () => {
      const stuck: number[] = [];
      for (let i = 0; i < addressBurst + 1; i += 1) stuck.push((await report()).status);
      expect(stuck).toEqual([...Array(visitorBurst).fill(204), ...Array(addressBurst + 1 - visitorBurst).fill(429)]);
      // Its neighbours behind the same address still have everything the stuck visitor did not use.
      const neighbours = await fromAddress('203.0.113.9', addressBurst - visitorBurst + 1, 'neighbour');
      expect(neighbours).toEqual([...Array(addressBurst - visitorBurst).fill(204), 429]);
      expect(await rowCount()).toBe(addressBurst);
    });
  });

  it('answers 503 with Retry-After, and acknowledges nothing, when the database cannot take it', async () => {
    await store.database.db.schema.dropTable(table).execute();
    const response = await report().expect(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 503 when the database is closed, and still serves pages', async () => {
    await store.close();
    await report().expect(503);
    await request(app).get('/').expect(200);
    await request(app).get('/healthz').expect(200);
  });

  it.each(['GET', 'PUT', 'DELETE'] as const)('answers %s with 405 and Allow: POST', async (method) => {
    const response = await request(app)[method.toLowerCase() as 'get' | 'put' | 'delete'](endpoint).expect(405);
    expect(response.headers.allow).toBe('POST');
  });

  it('refuses a report that declares too big a body with 400 at once, without waiting for the body, and closes the connection', async () => {
    const site = await startTestServer({}, { stores: createStatsStores(store.database) });
    try {
      const { port } = new URL(site.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(`POST ${endpoint} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 10000000\r\nUser-Agent: ${browserUserAgent}\r\n\r\n{"page":`);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      // The server answers and closes without the other 9,999,992 bytes ever being sent.
      await new Promise((resolve) => socket.on('close', resolve));
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    } finally {
      await site.close();
    }
  });
});

describe('CLICK_STATS=off', () => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    app = await createTestApp({ CLICK_STATS: 'off', AFFILIATE_SUBID_PARAM: 'subid' });
  });

  it.each(beacons.map(({ endpoint, valid }) => [endpoint, valid] as const))('has no %s endpoint: 404 to every method', async (endpoint, valid) => {
    await sendReport(app, endpoint, valid).expect(404);
    await request(app).get(endpoint).expect(404);
  });

  it('renders pages whose entry script names no report endpoint and no sub-ID parameter, so nothing is reported', async () => {
    const page = parseHtml((await request(app).get('/').expect(200)).text);
    assertNoSelector(page, '[data-click-endpoint]');
    assertNoSelector(page, '[data-view-endpoint]');
    assertNoSelector(page, '[data-subid-param]');
  });
});
