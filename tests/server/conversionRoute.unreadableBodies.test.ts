import { gzipSync } from 'node:zlib';
import express, { type Express } from 'express';
import request from 'supertest';
import { conversionRoutes } from '../../server/conversions/conversionRoute';
import { key, network, wrongKey } from '../support/postbackApp';

const form = 'application/x-www-form-urlencoded';

interface Unreadable {
  type: string;
  body: (key: string) => string | Buffer;
  encoding?: string;
  status: number;
  line: string;
}

/** Bodies that cannot be read, each with the key inside it, and the answer each gets. */
const unreadable: Record<string, Unreadable> = {
  'a text body': { type: 'text/plain', body: (k) => `key=${k}&txid=U-1`, status: 400, line: 'body must be a form (application/x-www-form-urlencoded) or JSON (application/json)' },
  'a multipart form': {
    type: 'multipart/form-data; boundary=XX',
    body: (k) => `--XX\r\nContent-Disposition: form-data; name="key"\r\n\r\n${k}\r\n--XX--\r\n`,
    status: 400,
    line: 'body must be a form (application/x-www-form-urlencoded) or JSON (application/json)',
  },
  'malformed JSON': { type: 'application/json', body: (k) => `{"key":"${k}","txid":`, status: 400, line: 'body must be valid JSON: one object of fields' },
  'a JSON array': { type: 'application/json', body: (k) => JSON.stringify([{ key: k, txid: 'U-1' }]), status: 400, line: 'body must be valid JSON: one object of fields' },
  'a charset it cannot read': { type: `${form}; charset=koi8-r`, body: (k) => `key=${k}&txid=U-1`, status: 415, line: 'body must be UTF-8 text' },
  'bytes that are not UTF-8': { type: form, body: (k) => Buffer.concat([Buffer.from(`key=${k}&txid=U-`), Buffer.from([0xff, 0xfe])]), status: 400, line: 'body must be UTF-8 text' },
  'JSON bytes that are not UTF-8': {
    type: 'application/json',
    body: (k) => Buffer.concat([Buffer.from(`{"key":"${k}","txid":"U-`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    status: 400,
    line: 'body must be UTF-8 text',
  },
  'a compressed body': { type: form, encoding: 'gzip', body: (k) => gzipSync(`key=${k}&txid=U-1`), status: 415, line: 'body must not be compressed (no Content-Encoding)' },
  'a body over 8 KB': { type: form, body: (k) => `key=${k}&txid=U-1&pad=${'p'.repeat(9000)}`, status: 413, line: 'body must be at most 8192 bytes' },
  'a form of over 100 fields': { type: form, body: (k) => `key=${k}&txid=U-1&${Array.from({ length: 120 }, (_, i) => `f${i}=1`).join('&')}`, status: 413, line: 'body must hold at most 100 fields' },
  'the key given twice': { type: form, body: (k) => `key=${k}&key=${k}&txid=U-1`, status: 400, line: 'key must be given once' },
  'the key as a JSON array': { type: 'application/json', body: (k) => JSON.stringify({ key: [k], txid: 'U-1' }), status: 400, line: 'key must be given once' },
};

describe('POST /api/conversions with a body that cannot be read', () => {
  let app: Express;
  let recorded: string[];
  let clock: number;
  beforeEach(() => {
    recorded = [];
    clock = 1_000_000;
    app = express();
    app.set('trust proxy', 1);
    const store = { record: async (report: { txid: string }) => (recorded.push(report.txid), 'recorded' as const) };
    // A frozen clock: no try an address spends comes back during the test.
    app.use(conversionRoutes({ key, store, throttle: { now: () => clock } }));
  });

  /** The raw bytes, as a network would send them (no serializing by the test client). */
  function post({ type, body, encoding }: Unreadable, bodyKey: string, path = '/api/conversions') {
    const call = request(app).post(path).set({ 'Content-Type': type, 'X-Forwarded-For': network });
    if (encoding) call.set('Content-Encoding', encoding);
    return call.serialize((data: unknown) => data as string).send(body(bodyKey) as string);
  }

  describe.each(Object.entries(unreadable))('(%s)', (_name, body) => {
    it('with the right key inside gets the body’s error, not "Wrong or missing key", and records nothing', async () => {
      const response = await post(body, key).expect(body.status);
      expect(response.text).toBe(`${body.line}\n`);
      expect(recorded).toEqual([]);
    });

    it('with the right key in the query string gets the same answer', async () => {
      await post(body, key, `/api/conversions?key=${key}`).expect(body.status, `${body.line}\n`);
      expect(recorded).toEqual([]);
    });

    it('spends no wrong-key try, whatever key it holds: after 12 of them the address still has all 10', async () => {
      for (let i = 0; i < 6; i += 1) {
        await post(body, key).expect(body.status);
        await post(body, wrongKey).expect(body.status);
      }
      await request(app).get(`/api/conversions?key=${key}&txid=OK-1`).set('X-Forwarded-For', network).expect(200, 'recorded\n');
      for (let i = 0; i < 10; i += 1) await request(app).get(`/api/conversions?key=${wrongKey}&txid=W`).set('X-Forwarded-For', network).expect(403);
      await request(app).get(`/api/conversions?key=${key}&txid=OK-2`).set('X-Forwarded-For', network).expect(429);
      expect(recorded).toEqual(['OK-1']);
    });
  });

  it('still answers a wrong key in a readable body 403 and counts it', async () => {
    for (let i = 0; i < 10; i += 1) {
      await request(app).post('/api/conversions').set('X-Forwarded-For', network).type('form').send(`key=${wrongKey}&txid=W`).expect(403, 'Wrong or missing key\n');
    }
    await request(app).get(`/api/conversions?key=${key}&txid=OK-3`).set('X-Forwarded-For', network).expect(429);
  });

  it('keeps an address held back after 10 wrong keys held back, also for an unreadable body', async () => {
    for (let i = 0; i < 10; i += 1) await request(app).get(`/api/conversions?key=${wrongKey}&txid=W`).set('X-Forwarded-For', network).expect(403);
    await post(unreadable['malformed JSON']!, key).expect(429);
  });
});
