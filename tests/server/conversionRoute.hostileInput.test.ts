import fc from 'fast-check';
import request from 'supertest';
import { newClickId } from '../../shared/affiliate';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { answered, expectStillServing, hangMs, headerText, listen, queryString, type Listening } from '../support/hostileInput';

/** /api/conversions answers whatever postback it is sent (tests/support/hostileInput.ts says how to replay a failure). */

const conversionsKey = 'h0st1le-c0nv3rs10ns-k3y-0123456789ab';
const wrongKey = 'wr0ng-c0nv3rs10ns-k3y-0123456789abcdef';

describe('/api/conversions with hostile postbacks', () => {
  let database: TestEngineDatabase;
  let server: Listening;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    server = await listen(database, { CONVERSIONS_KEY: conversionsKey, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });

  /** What the route reads at most (conversionRoute.ts); a larger body may be cut off unread. */
  const maxPostbackBytes = 8 * 1024;
  const fieldNames = ['key', 'txid', 'tid', 'subid', 'payout', 'currency', 'status', 'sale_status', 'refund_status', 'chargeback_status'] as const;
  /** A field's value: plausible ones (so some postbacks are recorded), the keys, and anything at all. */
  const fieldValue = fc.oneof(
    { arbitrary: fc.constantFrom(conversionsKey, wrongKey, 'T-1', 'sale', 'refund', 'chargeback', 'APPROVED,PENDING', '12.50', '-1', '1e308', 'NaN', 'USD', 'usd', 'EURO', 'hero', newClickId('hero')), weight: 4 },
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.double().map(String),
    fc.bigInt().map(String),
    fc.nat({ max: 10_000 }).map((length) => '9'.repeat(length)),
  );
  const keyValue = fc.oneof({ arbitrary: fc.constant(conversionsKey), weight: 12 }, fc.constantFrom(wrongKey, '', `${conversionsKey} `, conversionsKey.toUpperCase()), fc.string({ maxLength: 40 }));
  /** A plausible value most of the time, so that some postbacks are recorded or reversed; anything now and then. */
  const mostly = (plausible: fc.Arbitrary<string>) => fc.oneof({ arbitrary: plausible, weight: 9 }, fieldValue);
  const plausibleFields = fc.record(
    {
      key: keyValue,
      txid: mostly(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/)),
      subid: mostly(fc.constantFrom('hero', 'bonus', newClickId('hero'), 'newsletter_june')),
      payout: mostly(fc.integer({ min: 0, max: 100_000 }).map((cents) => (cents / 100).toFixed(2))),
      currency: mostly(fc.constantFrom('USD', 'EUR', 'GBP')),
      status: mostly(fc.constantFrom('sale', 'refund', 'chargeback')),
    },
    { requiredKeys: ['key', 'txid'] },
  );
  const anyFields = fc.record(
    { key: keyValue, txid: fieldValue, tid: fieldValue, subid: fieldValue, payout: fieldValue, currency: fieldValue, status: fieldValue, sale_status: fieldValue, refund_status: fieldValue, chargeback_status: fieldValue },
    { requiredKeys: [] },
  );
  const fields: fc.Arbitrary<Partial<Record<(typeof fieldNames)[number], string>>> = fc.oneof({ arbitrary: plausibleFields, weight: 3 }, anyFields);
  const formBody = fc.tuple(fields, fc.dictionary(fc.string({ maxLength: 10 }), fieldValue, { maxKeys: 4 })).map(([known, extra]) => new URLSearchParams({ ...extra, ...known }).toString());
  /** JSON bodies: objects of fields whose values are any JSON (numbers, arrays, nested objects, null), and any JSON at all. */
  const jsonBody = fc.oneof(
    { arbitrary: fc.tuple(fields, fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })).map(([known, odd]) => JSON.stringify({ ...known, ...odd })), weight: 3 },
    fc.json({ maxDepth: 3 }),
    fc.jsonValue().map((value) => `${JSON.stringify(value) ?? ''}`.slice(0, -1)),
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded; charset=UTF-8'), weight: 4 },
    fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/x-www-form-urlencoded; charset=koi8-r', 'application/octet-stream', 'application/*', '*/*', ';', 'application/json; charset='),
    headerText(40),
  );
  const body = fc.oneof(
    { arbitrary: fc.tuple(fc.constant('application/x-www-form-urlencoded'), formBody), weight: 3 },
    { arbitrary: fc.tuple(fc.constant('application/json'), jsonBody), weight: 3 },
    fc.tuple(contentType, fc.oneof(formBody, jsonBody)),
    fc.tuple(contentType, fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes))),
    // Just past the 8 KB a postback may be, and far past it.
    fc.tuple(contentType, fc.constantFrom(8 * 1024 + 1, 64 * 1024).map((length) => `txid=${'x'.repeat(length)}`)),
  );
  const extraHeaders = fc.record(
    {
      // Any encoding but identity is refused (415) before anything else is read: now and then only.
      'Content-Encoding': fc.oneof({ arbitrary: fc.constant('identity'), weight: 6 }, fc.constantFrom('gzip', 'deflate', 'br', 'zstd'), headerText(20)),
      'User-Agent': headerText(),
      Accept: headerText(),
    },
    { requiredKeys: [] },
  );
  let nextAddress = 0;
  /** A fresh address for most postbacks, so wrong keys do not hold every later one back (429 is an allowed answer, not the point). */
  const address = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 9 },
    fc.constantFrom('203.0.113.50', '2001:db8::1', 'not-an-address', '::ffff:203.0.113.50', ''),
    headerText(40),
  );
  const postback = fc.record({
    method: fc.constantFrom('GET', 'POST', 'POST', 'POST'),
    query: fc.oneof(fc.constant(''), queryString(fieldNames, fieldValue), fields.map((known) => new URLSearchParams(known).toString())),
    body,
    headers: extraHeaders,
    address,
  });

  it('answers any postback, by query string or body of any type, with a status below 500 within 1 s', async () => {
    const statuses = new Map<number | 'reset', number>();
    await fc.assert(
      fc.asyncProperty(postback, async ({ method, query, body: [type, content], headers, address: from }) => {
        nextAddress += 1;
        const forwardedFor = from ?? `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
        const target = `/api/conversions?${query}`;
        let pending = method === 'GET' ? request(server.url).get(target) : request(server.url).post(target);
        pending = pending.set({ ...headers, 'X-Forwarded-For': forwardedFor });
        if (method === 'POST') pending = pending.set('Content-Type', type).send(content);
        const response = await answered(server, pending, { oversize: method === 'POST' && Buffer.byteLength(content) > maxPostbackBytes });
        const status = response === 'reset' ? 'reset' : response.status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
      { numRuns: 300, timeout: hangMs },
    );
    // The arbitraries reach the store and every refusal, not just the first gate.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 403]));
    await expectStillServing(server);
  });
});
