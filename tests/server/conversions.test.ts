import express, { type Express } from 'express';
import request from 'supertest';
import { conversionRoutes } from '../../server/conversions/conversionRoute';
import { readConversionTotals } from '../../server/conversions/conversionStore';
import { createStatsStores } from '../../server/statsStores';
import type { Logger } from '../../server/lib/logger';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { standInNetwork } from '../support/standInNetwork';
import { createTestApp, startTestServer, type RunningServer } from '../support/testApp';

const key = 'c0nv3rs10ns-k3y-0123456789abcdef0123';
const wrongKey = 'wr0ng-k3y-0123456789abcdef0123456789';
const network = '203.0.113.50';

function capturingLogger() {
  const lines: string[] = [];
  const logger: Logger = { info: (line) => lines.push(line), error: (message, error) => lines.push(`${message} ${String(error)}`) };
  return { logger, lines };
}

type Fields = Record<string, string | number>;
const query = (fields: Fields) => new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString();

describe.each(engines)('/api/conversions on %s', (engine) => {
  let opened: TestEngineDatabase;
  let app: Express;
  let logged: ReturnType<typeof capturingLogger>;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    logged = capturingLogger();
    const stores = createStatsStores(opened.database);
    app = await createTestApp({ CONVERSIONS_KEY: key, TRUST_PROXY: '1' }, { stores, logger: logged.logger });
  });
  afterEach(() => opened.close().catch(() => {}));

  const db = () => opened.database.db;
  const conversions = () => db().selectFrom('conversions').selectAll().orderBy('id').execute();
  const events = () => db().selectFrom('conversion_events').select(['txid', 'status', 'outcome', 'via']).orderBy('id').execute();
  const totals = () => readConversionTotals(db());
  const get = (fields: Fields, from = network) => request(app).get(`/api/conversions?${query(fields)}`).set('X-Forwarded-For', from);
  const postForm = (fields: Fields) => request(app).post('/api/conversions').set('X-Forwarded-For', network).type('form').send(query(fields));
  const postJson = (body: unknown, path = '/api/conversions') => request(app).post(path).set('X-Forwarded-For', network).send(body as object);

  describe('a sale', () => {
    it('sent in the query string is recorded and answered 200 "recorded"', async () => {
      const response = await get({ key, txid: 'T-1', subid: 'heabcdefghij234567abcd', payout: '12.50', currency: 'EUR' }).expect(200);
      expect(response.text).toBe('recorded\n');
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(await conversions()).toEqual([
        expect.objectContaining({ txid: 'T-1', subid: 'heabcdefghij234567abcd', click_id: 'heabcdefghij234567abcd', placement: 'hero', payout_micros: 12_500_000, status: 'sale', reversed_at: null }),
      ]);
      expect((await conversions())[0]!.currency.trim()).toBe('EUR');
    });

    it('sent as a form body is recorded', async () => {
      await postForm({ key, txid: 'T-2', payout: '3' }).expect(200, 'recorded\n');
      expect(await totals()).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 3_000_000 }] });
    });

    it('sent as JSON, numbers included, is recorded', async () => {
      await postJson({ key, txid: 987654, payout: 19.99, status: 'sale' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ txid: '987654', payout_micros: 19_990_000 })]);
    });

    it('may carry the key in the URL and the fields in the body', async () => {
      await postJson({ txid: 'T-3' }, `/api/conversions?key=${key}`).expect(200, 'recorded\n');
    });

    it('whose txid is already recorded is answered 200 "duplicate" and adds nothing, as networks retry', async () => {
      await get({ key, txid: 'T-4', payout: '10' }).expect(200, 'recorded\n');
      await get({ key, txid: 'T-4', payout: '10' }).expect(200, 'duplicate\n');
      await postForm({ key, txid: 'T-4', payout: '99' }).expect(200, 'duplicate\n');
      expect(await totals()).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 10_000_000 }] });
      expect((await events()).map((event) => event.outcome)).toEqual(['recorded', 'duplicate', 'duplicate']);
    });

    it('with a sub-ID that matches no click is kept as unattributed, never dropped', async () => {
      await get({ key, txid: 'T-5', subid: 'newsletter_june-2026' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ subid: 'newsletter_june-2026', click_id: null, placement: null })]);
      expect(await totals()).toMatchObject({ conversions: 1, unattributed: 1 });
    });

    it('with a bare placement as its sub-ID (a link followed without JavaScript) keeps the placement', async () => {
      await get({ key, txid: 'T-6', subid: 'HERO' }).expect(200);
      expect(await conversions()).toEqual([expect.objectContaining({ subid: 'HERO', placement: 'hero', click_id: null })]);
    });

    it("may name its transaction ID tid, as Keitaro's postbacks do", async () => {
      await get({ key, tid: 'K-1', subid: 'heabcdefghij234567abcd', status: 'sale', payout: '5' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ txid: 'K-1' })]);
    });
  });

  describe('a refund or chargeback', () => {
    it('of a known txid reverses it: it no longer counts, and the history stays', async () => {
      await get({ key, txid: 'R-1', payout: '40' }).expect(200, 'recorded\n');
      await get({ key, txid: 'R-2', payout: '2' }).expect(200, 'recorded\n');
      await get({ key, txid: 'R-1', status: 'refund' }).expect(200, 'reversed\n');
      expect(await totals()).toEqual({ conversions: 1, unattributed: 1, reversed: 1, revenue: [{ currency: 'USD', payoutMicros: 2_000_000 }] });
      expect(await events()).toEqual([
        { txid: 'R-1', status: 'sale', outcome: 'recorded', via: 'postback' },
        { txid: 'R-2', status: 'sale', outcome: 'recorded', via: 'postback' },
        { txid: 'R-1', status: 'refund', outcome: 'reversed', via: 'postback' },
      ]);
      expect(await conversions()).toEqual([
        expect.objectContaining({ txid: 'R-1', status: 'refund', payout_micros: 40_000_000, reversed_at: expect.any(Number) }),
        expect.objectContaining({ txid: 'R-2', status: 'sale', reversed_at: null }),
      ]);
    });

    it('of a chargeback is kept as such', async () => {
      await get({ key, txid: 'C-1' }).expect(200);
      await postJson({ key, txid: 'C-1', status: 'chargeback' }).expect(200, 'reversed\n');
      expect(await conversions()).toEqual([expect.objectContaining({ status: 'chargeback' })]);
    });

    it('sent again is answered "already reversed" and changes nothing', async () => {
      await get({ key, txid: 'R-3' }).expect(200);
      await get({ key, txid: 'R-3', status: 'refund' }).expect(200, 'reversed\n');
      const [before] = await conversions();
      await get({ key, txid: 'R-3', status: 'chargeback' }).expect(200, 'already reversed\n');
      expect(await conversions()).toEqual([before]);
    });

    it('of a txid never seen is answered "unknown txid" and kept, so its late sale arrives reversed', async () => {
      await get({ key, txid: 'R-4', status: 'refund' }).expect(200, 'unknown txid\n');
      await get({ key, txid: 'R-4', payout: '15' }).expect(200, 'duplicate\n');
      expect(await totals()).toEqual({ conversions: 0, unattributed: 0, reversed: 1, revenue: [] });
    });
  });

  describe('network status names', () => {
    it('are read through sale_status, refund_status and chargeback_status in the postback URL', async () => {
      const lists = { sale_status: 'APPROVED,PENDING', refund_status: 'REVERSED', chargeback_status: 'DISPUTED' };
      await get({ key, ...lists, txid: 'I-1', status: 'PENDING' }).expect(200, 'recorded\n');
      await get({ key, ...lists, txid: 'I-1', status: 'APPROVED' }).expect(200, 'duplicate\n');
      await get({ key, ...lists, txid: 'I-1', status: 'REVERSED' }).expect(200, 'reversed\n');
      expect(await totals()).toMatchObject({ conversions: 0, reversed: 1 });
    });
  });

  describe('an invalid field', () => {
    it.each([
      ['no txid', { payout: '1' }, "txid is required: the network's transaction ID"],
      ['an unfilled macro as txid', { txid: '{ActionId}' }, 'txid is a macro the network did not fill in: check the macro name in the postback URL'],
      ['a negative payout', { txid: 'B-1', payout: '-3' }, 'payout must be a decimal number from 0 to 1000000 with at most 6 decimal places, such as 12.50'],
      ['a payout with a comma', { txid: 'B-1', payout: '1,5' }, 'payout must be a decimal number from 0 to 1000000 with at most 6 decimal places, such as 12.50'],
      ['an unknown currency', { txid: 'B-1', currency: 'DOGE' }, 'currency must be an ISO 4217 currency code such as USD or EUR'],
      ['an unknown status', { txid: 'B-1', status: 'approved' }, 'status must be sale, refund or chargeback, or a status the postback maps with sale_status, refund_status or chargeback_status'],
      ['txid and tid that differ', { txid: 'B-1', tid: 'B-2' }, 'txid and tid are both given, with different values'],
      ['a status listed twice', { txid: 'B-1', sale_status: 'ok', refund_status: 'OK' }, expect.stringMatching(/^refund_status must list status names/)],
    ])('is answered 400 with one line naming it: %s', async (_name, fields, message) => {
      const response = await get({ key, ...(fields as Fields) }).expect(400);
      expect(response.text).toEqual(typeof message === 'string' ? `${message}\n` : message);
      expect(response.text.trim().split('\n')).toHaveLength(1);
      expect(await conversions()).toEqual([]);
    });

    it('given twice in the query string is refused', async () => {
      await request(app).get(`/api/conversions?key=${key}&txid=A&txid=B`).expect(400, 'txid must be given once\n');
    });

    it('given differently in the query string and the body is refused', async () => {
      await postJson({ txid: 'B' }, `/api/conversions?key=${key}&txid=A`).expect(400, 'txid is given twice with different values\n');
    });

    it('of the wrong JSON type is refused', async () => {
      await postJson({ key, txid: { id: 1 } }).expect(400, 'txid must be a string\n');
    });

    it.each([
      ['malformed JSON', 'application/json', `{"key":"${key}","txid":`, 400],
      ['a body over 8 KB', 'application/json', JSON.stringify({ key, txid: 'x', pad: 'p'.repeat(9000) }), 413],
      ['a text body', 'text/plain', 'txid=x', 400],
    ])('in an unreadable body (%s) is refused without recording', async (_name, type, body, status) => {
      await request(app).post(`/api/conversions?key=${key}`).type(type).send(body).expect(status);
      expect(await conversions()).toEqual([]);
    });
  });

  describe('the key', () => {
    it('when wrong or missing is answered 403 and nothing is recorded', async () => {
      await get({ key: wrongKey, txid: 'W-1' }).expect(403, 'Wrong or missing key\n');
      await get({ txid: 'W-1' }).expect(403);
      await postJson({ key: key.slice(0, -1), txid: 'W-1' }).expect(403);
      expect(await conversions()).toEqual([]);
    });

    it('holds an address back after 10 wrong keys: 429 with Retry-After, even for the right key', async () => {
      for (let i = 0; i < 10; i += 1) await get({ key: `${wrongKey}${i}`, txid: 'W-2' }, '198.51.100.7').expect(403);
      const held = await get({ key, txid: 'W-2' }, '198.51.100.7').expect(429, 'Too many wrong keys from this address; try again after Retry-After seconds\n');
      // At most 6 s: the ten requests took some time, during which the bucket began to refill.
      expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(6);
      await get({ key, txid: 'W-2' }).expect(200, 'recorded\n');
      expect(await conversions()).toHaveLength(1);
    });

    it('never counts the right key against its address', async () => {
      for (let i = 0; i < 30; i += 1) await get({ key, txid: `OK-${i}` }).expect(200);
      await get({ key: wrongKey, txid: 'W-3' }).expect(403);
    });

    it('never appears in a log line, whatever the request', async () => {
      await get({ key, txid: 'L-1' }).expect(200);
      await get({ key, txid: 'L-1', payout: 'x' }).expect(400);
      await request(app).post('/api/conversions').type('json').send(`{"key":"${key}","txid":`).expect(400);
      await get({ key: wrongKey, txid: 'L-2' }).expect(403);
      await opened.close();
      await get({ key, txid: 'L-3' }).expect(503);
      expect(logged.lines.length).toBeGreaterThan(4);
      expect(logged.lines.join('\n')).not.toContain(key);
      expect(logged.lines.join('\n')).not.toContain(wrongKey);
    });
  });

  describe('while the database cannot take it', () => {
    it('answers 503 with Retry-After, acknowledging nothing', async () => {
      await db().schema.dropTable('conversion_events').execute();
      const response = await get({ key, txid: 'D-1' }).expect(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(await conversions()).toEqual([]);
    });
  });

  it.each(['put', 'delete', 'head'] as const)('answers %s with 405 and Allow: GET, POST', async (method) => {
    const response = await request(app)[method](`/api/conversions?key=${key}&txid=M-1`).expect(405);
    expect(response.headers.allow).toBe('GET, POST');
    expect(await conversions()).toEqual([]);
  });
});

describe('conversionRoutes with an injected clock', () => {
  let clock: number;
  let app: Express;
  let recorded: string[];
  beforeEach(() => {
    clock = 1_000_000;
    recorded = [];
    app = express();
    app.set('trust proxy', 1);
    const store = { record: async (report: { txid: string }) => (recorded.push(report.txid), 'recorded' as const) };
    app.use(conversionRoutes({ key, store, throttle: { now: () => clock } }));
  });
  const attempt = (withKey: string) => request(app).get(`/api/conversions?key=${withKey}&txid=X-1`).set('X-Forwarded-For', network);

  it('holds an address back for 6 s after 10 wrong keys, then allows one more try every 6 s', async () => {
    for (let i = 0; i < 10; i += 1) await attempt(wrongKey).expect(403);
    expect((await attempt(key).expect(429)).headers['retry-after']).toBe('6');
    clock += 6_000;
    await attempt(wrongKey).expect(403);
    await attempt(wrongKey).expect(429);
    clock += 6_000;
    await attempt(key).expect(200, 'recorded\n');
    expect(recorded).toEqual(['X-1']);
  });
});

describe('without CONVERSIONS_KEY', () => {
  it('has no /api/conversions: 404 to every method', async () => {
    const app = await createTestApp();
    await request(app).get(`/api/conversions?key=${key}&txid=N-1`).expect(404);
    await request(app).post('/api/conversions').type('form').send(`key=${key}&txid=N-1`).expect(404);
    await request(app).put('/api/conversions').expect(404);
    // Only missing API paths: a page still answers other methods with 405.
    await request(app).post('/').expect(405);
  });
});

describe.each(engines)('a stand-in network sending postbacks over HTTP, on %s', (engine) => {
  let opened: TestEngineDatabase;
  let site: RunningServer;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    site = await startTestServer({ CONVERSIONS_KEY: key }, { stores: createStatsStores(opened.database) });
  });
  afterEach(async () => {
    await site.close();
    await opened.close();
  });

  it("records Impact-style postbacks with its own macros: sales, a retry, a reversal, garbage and a wrong key", async () => {
    const template = (withKey: string) =>
      `${site.url}/api/conversions?key=${withKey}&txid={ActionId}&subid={SubId1}&status={Status}&payout={Payout}&currency={Currency}` +
      '&sale_status=PENDING,APPROVED&refund_status=REVERSED';
    const impact = standInNetwork({ template: template(key), macro: (name) => `{${name}}` });
    const sale = { SubId1: 'heabcdefghij234567abcd', Payout: '24.00', Currency: 'USD', Status: 'PENDING' };
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1', Status: 'APPROVED' })).toEqual({ status: 200, text: 'duplicate' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.2', SubId1: 'no-such-click!' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.3', SubId1: 'bonus', Payout: '6.5' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1', Status: 'REVERSED' })).toEqual({ status: 200, text: 'reversed' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.4', Payout: 'N/A' })).toMatchObject({ status: 400, text: expect.stringMatching(/^payout /) });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.5', Currency: '$' })).toMatchObject({ status: 400, text: expect.stringMatching(/^currency /) });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.6', Status: 'DECLINED' })).toMatchObject({ status: 400, text: expect.stringMatching(/^status /) });
    const impostor = standInNetwork({ template: template(wrongKey), macro: (name) => `{${name}}` });
    expect(await impostor.send({ ...sale, ActionId: '1001.2002.7' })).toEqual({ status: 403, text: 'Wrong or missing key' });

    expect(await readConversionTotals(opened.database.db)).toEqual({
      conversions: 2,
      unattributed: 1,
      reversed: 1,
      revenue: [{ currency: 'USD', payoutMicros: 30_500_000 }],
    });
  });

  it('records ShareASale-style postbacks posted as a form', async () => {
    const shareASale = standInNetwork({
      template: `${site.url}/api/conversions?key=${key}&txid=!!transID!!&subid=!!afftrack!!&payout=!!commission!!`,
      macro: (name) => `!!${name}!!`,
      method: 'POST',
    });
    expect(await shareASale.send({ transID: '90817263', afftrack: 'heabcdefghij234567abcd', commission: '7.25' })).toEqual({ status: 200, text: 'recorded' });
    expect(await shareASale.send({ transID: '90817263', afftrack: 'heabcdefghij234567abcd', commission: '7.25' })).toEqual({ status: 200, text: 'duplicate' });
    expect(await readConversionTotals(opened.database.db)).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 7_250_000 }] });
  });
});
