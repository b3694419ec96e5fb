import express, { type Express } from 'express';
import request from 'supertest';
import { conversionRoutes } from '../../server/conversions/conversionRoute';
import { engines } from '../support/engines';
import { key, network, usePostbackApp, wrongKey, type Fields } from '../support/postbackApp';
import { createTestApp } from '../support/testApp';

describe.each(engines)('/api/conversions on %s', (engine) => {
  const postbacks = usePostbackApp(engine);
  const { db, conversions, get, postJson } = postbacks;

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
      await request(postbacks.app).get(`/api/conversions?key=${key}&txid=A&txid=B`).expect(400, 'txid must be given once\n');
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
      await request(postbacks.app).post(`/api/conversions?key=${key}`).type(type).send(body).expect(status);
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
      await request(postbacks.app).post('/api/conversions').type('json').send(`{"key":"${key}","txid":`).expect(400);
      await get({ key: wrongKey, txid: 'L-2' }).expect(403);
      await postbacks.opened.close();
      await get({ key, txid: 'L-3' }).expect(503);
      expect(postbacks.logged.lines.length).toBeGreaterThan(4);
      expect(postbacks.logged.lines.join('\n')).not.toContain(key);
      expect(postbacks.logged.lines.join('\n')).not.toContain(wrongKey);
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
    const response = await request(postbacks.app)[method](`/api/conversions?key=${key}&txid=M-1`).expect(405);
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
