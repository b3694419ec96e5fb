import fc from 'fast-check';
import request from 'supertest';
import { affiliatePlacements, newClickId } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import { browserUserAgent } from '../support/beaconReports';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { answer, answered, expectStillServing, hangMs, headerText, hostileText, listen, queryString, siteOrigin, type Listening } from '../support/hostileInput';

/** Both beacons answer whatever report they are sent (tests/support/hostileInput.ts says how to replay a failure). */

const beacons = [
  {
    endpoint: '/api/clicks',
    valid: { placement: 'hero', page: '/', referrer: '', clickId: newClickId('hero'), source: 'newsletter' },
    maxBytes: 1024,
  },
  {
    endpoint: '/api/views',
    valid: { page: '/', referrer: '', source: 'direct', medium: '', campaign: '' },
    maxBytes: 1024,
  },
] as const;

describe.each(beacons)('POST $endpoint with hostile reports', ({ endpoint, valid, maxBytes }) => {
  let database: TestEngineDatabase;
  let server: Listening;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    server = await listen(database, { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });

  /** A field's value: the ones a report may hold, look-alikes, and any JSON at all. */
  const fieldValue = fc.oneof(
    { arbitrary: fc.constantFrom<unknown>(...pagePaths, ...affiliatePlacements, newClickId('hero'), newClickId('bonus'), 'www.google.com', 'direct', ''), weight: 4 },
    fc.constantFrom<unknown>('/ABOUT-US', '//', '/..', '/%2e%2e/', 'HERO', 'hero ', `${newClickId('hero')}x`, 'a'.repeat(600), 'www.google.com:99999', 'Ünïcode.example', '127.0.0.1', '[::1]', null, true, 0, -0, 1e308, [], {}),
    fc.jsonValue({ maxDepth: 2 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
  /** A valid report with fields changed, dropped or added. */
  const mutatedReport = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(valid).map(([name, value]) => [name, fc.oneof({ arbitrary: fc.constant<unknown>(value), weight: 3 }, fieldValue)])), { requiredKeys: [] }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'toString')), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    )
    .map(([fields, extra]) => JSON.stringify({ ...extra, ...fields }));
  const body = fc.oneof(
    { arbitrary: mutatedReport, weight: 6 },
    fc.json({ maxDepth: 3 }),
    fc.anything({ maxDepth: 2 }).map((value) => {
      try {
        return JSON.stringify(value) ?? '';
      } catch {
        return String(value);
      }
    }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom<string | Buffer>('PING', '', 'null', '[]', '"/"', '{', JSON.stringify(valid).padEnd(maxBytes + 1), JSON.stringify({ ...valid, padding: 'x'.repeat(20_000) })),
  );
  const headers = fc.record(
    {
      'Content-Type': fc.oneof({ arbitrary: fc.constantFrom('text/plain;charset=UTF-8', 'text/ping', 'application/json'), weight: 3 }, fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain; charset=utf-16'), headerText(40)),
      Origin: fc.oneof({ arbitrary: fc.constant(siteOrigin), weight: 3 }, fc.constantFrom('null', 'https://elsewhere.example', 'http://127.0.0.1:1', 'not a url', ''), headerText(40)),
      'Sec-Fetch-Site': fc.oneof(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'), headerText(20)),
      'User-Agent': fc.oneof({ arbitrary: fc.constant(browserUserAgent), weight: 4 }, fc.constantFrom('Googlebot/2.1', 'HeadlessChrome', 'curl/8.0', ''), headerText()),
      'Sec-CH-UA-Mobile': fc.oneof(fc.constantFrom('?0', '?1'), headerText(10)),
      'Sec-GPC': headerText(5),
      DNT: headerText(5),
      'Sec-Purpose': fc.oneof(fc.constantFrom('prefetch', 'prefetch;prerender'), headerText(20)),
      'Ping-From': fc.oneof(fc.constantFrom(`${siteOrigin}/`, `${siteOrigin}/about-us`, 'https://elsewhere.example/', '/'), headerText(40)),
      'Ping-To': headerText(40),
      'Content-Encoding': fc.oneof(fc.constantFrom('gzip', 'deflate', 'br', 'identity'), headerText(20)),
      'X-Forwarded-Host': fc.oneof(fc.constantFrom('127.0.0.1', ',', ', evil.example', '', 'EVIL.example:80'), headerText(40)),
      'X-Forwarded-For': fc.oneof(fc.constantFrom('203.0.113.9', '2001:db8::1', '::ffff:203.0.113.9', 'fe80::1%eth0', 'not-an-address', '', ', ,'), fc.ipV4(), fc.ipV6(), headerText(40)),
    },
    { requiredKeys: ['Content-Type', 'User-Agent'] },
  );
  /** The ping's URL query (placement, click ID) and anything else. */
  const query = fc.oneof(
    { arbitrary: fc.constant(''), weight: 3 },
    queryString(['placement', 'click'], fc.oneof(fc.constantFrom(...affiliatePlacements, newClickId('hero'), newClickId('bonus')), hostileText)),
  );

  // Found by the property below: Express's req.host is undefined for these, and reading the report threw.
  it.each([
    ['an empty Host header', { Host: '' }],
    ['an empty first X-Forwarded-Host behind a trusted proxy', { 'X-Forwarded-Host': ', evil.example' }],
  ])('counts a valid report sent with %s', async (_name, sent) => {
    const response = await answer(
      server,
      request(server.url).post(endpoint).set({ 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': browserUserAgent, 'X-Forwarded-For': '198.51.100.77', ...sent }).send(JSON.stringify(valid)),
    );
    expect(response.status).toBe(204);
  });

  let nextAddress = 0;

  it('answers any body, headers and content type with a status below 500 within 1 s', async () => {
    const statuses = new Map<number | 'reset', number>();
    await fc.assert(
      fc.asyncProperty(body, headers, query, async (content, sent, search) => {
        nextAddress += 1;
        // A fresh address unless the case brings its own, so the per-address limit does not answer everything 429.
        const forwardedFor = sent['X-Forwarded-For'] ?? `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
        const pending = request(server.url).post(`${endpoint}${search ? `?${search}` : ''}`).set({ ...sent, 'X-Forwarded-For': forwardedFor }).send(content);
        const response = await answered(server, pending, { oversize: Buffer.byteLength(content) > maxBytes });
        const status = response === 'reset' ? 'reset' : response.status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
      { numRuns: 250, timeout: hangMs },
    );
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([204, 400, 403]));
    await expectStillServing(server);
  });
});
