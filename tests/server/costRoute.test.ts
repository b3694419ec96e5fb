import type { Express } from 'express';
import request from 'supertest';
import { maxCostRows } from '../../server/costs/costRoute';
import { createStatsStores } from '../../server/statsStores';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { inParallel } from '../support/standInNetwork';
import { createTestApp, startTestServer } from '../support/testApp';

const key = 'c0nv3rs10ns-k3y-0123456789abcdef0123';
const wrongKey = 'wr0ng-k3y-0123456789abcdef0123456789';
const sender = '203.0.113.60';

const row = (fields: Record<string, unknown> = {}) => ({ day: '2026-11-20', source: 'facebook', campaign: 'spring', content: 'ad-1', cost: '12.50', currency: 'USD', ...fields });

describe.each(engines)('POST /api/costs on %s', (engine) => {
  let opened: TestEngineDatabase;
  let app: Express;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    app = await createTestApp({ CONVERSIONS_KEY: key, TRUST_PROXY: '1' }, { stores: createStatsStores(opened.database) });
  });
  afterEach(() => opened.close());

  const post = (body: unknown, { bearer = key as string | null, from = sender } = {}) => {
    const pending = request(app).post('/api/costs').set('X-Forwarded-For', from).set('Content-Type', 'application/json');
    if (bearer !== null) pending.set('Authorization', `Bearer ${bearer}`);
    return pending.send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const held = async () =>
    (await opened.database.db.selectFrom('costs').select(['day', 'source', 'campaign', 'content', 'currency', 'amount_micros']).orderBy('day').orderBy('content').execute()).map(
      (stored) => ({ ...stored, amount_micros: Number(stored.amount_micros) }),
    );

  it('answers 200 with what it applied, and holds each row as the state of its day, source, campaign, ad and currency', async () => {
    const answer = await post({ rows: [row(), row({ content: 'ad-2', cost: 3 }), row({ day: '2026-11-21', campaign: undefined, content: undefined, cost: '0.000001', currency: 'eur' })] }).expect(200);
    expect(answer.body).toEqual({ applied: 3, unchanged: 0, rejected: [] });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(await held()).toEqual([
      { day: '2026-11-20', source: 'facebook', campaign: 'spring', content: 'ad-1', currency: 'USD', amount_micros: 12_500_000 },
      { day: '2026-11-20', source: 'facebook', campaign: 'spring', content: 'ad-2', currency: 'USD', amount_micros: 3_000_000 },
      { day: '2026-11-21', source: 'facebook', campaign: '', content: '', currency: 'EUR', amount_micros: 1 },
    ]);
  });

  it('changes nothing when the same rows are posted again', async () => {
    await post({ rows: [row(), row({ content: 'ad-2' })] }).expect(200);
    const before = await opened.database.db.selectFrom('costs').select('updated_at').execute();
    expect((await post({ rows: [row(), row({ content: 'ad-2' })] }).expect(200)).body).toEqual({ applied: 0, unchanged: 2, rejected: [] });
    expect(await held()).toHaveLength(2);
    expect(await opened.database.db.selectFrom('costs').select('updated_at').execute()).toEqual(before);
  });

  it('replaces an amount with a corrected one, never adding to it', async () => {
    await post({ rows: [row()] }).expect(200);
    expect((await post({ rows: [row({ cost: '10.25' })] }).expect(200)).body).toEqual({ applied: 1, unchanged: 0, rejected: [] });
    expect(await held()).toEqual([expect.objectContaining({ content: 'ad-1', amount_micros: 10_250_000 })]);
  });

  it('writes each row once when two requests send the same rows at once', async () => {
    const rows = Array.from({ length: 200 }, (_, index) => row({ content: `ad-${index}`, cost: `${index}.5` }));
    const answers = await inParallel([0, 1, 2, 3].map(() => () => post({ rows })), 4);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((sum, answer) => sum + answer.body.applied, 0)).toBe(200);
    expect(answers.reduce((sum, answer) => sum + answer.body.unchanged, 0)).toBe(600);
    expect(await held()).toHaveLength(200);
  });

  it('applies the good rows and names each refused one by its index and reason, quoting nothing', async () => {
    const answer = await post({
      rows: [
        row({ day: '2026-02-30' }),
        row({ day: '2099-01-01' }),
        row({ source: '' }),
        row({ source: 'x'.repeat(101) }),
        row({ campaign: 'bad\u0000name' }),
        row({ cost: '-1' }),
        row({ cost: '1.0000001' }),
        row({ cost: { amount: 1 } }),
        row({ currency: 'US' }),
        'not a row',
        row({ source: '<script>alert(1)</script>' }),
        row({ source: '<script>alert(1)</script>', cost: '2' }),
      ],
    }).expect(200);
    expect(answer.body.applied).toBe(1);
    expect(answer.body.rejected.map((rejected: { index: number }) => rejected.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    expect(answer.body.rejected[0].reason).toBe('day must be a real date written YYYY-MM-DD');
    expect(answer.body.rejected[1].reason).toBe('day must not be later than tomorrow (UTC)');
    expect(answer.body.rejected[10].reason).toBe('row 10 already gives this day, source, campaign, content and currency');
    expect(answer.text).not.toContain('<script>');
    expect(answer.text).not.toContain('\\u0000');
    expect(await held()).toEqual([expect.objectContaining({ source: '<script>alert(1)</script>', amount_micros: 12_500_000 })]);
  });

  it('takes the key as a query parameter too, as conversions do', async () => {
    await request(app).post(`/api/costs?key=${key}`).set('X-Forwarded-For', sender).send({ rows: [row()] }).expect(200);
  });

  it('answers 403 to a wrong or missing key, and 429 after ten wrong keys in a row', async () => {
    await post({ rows: [row()] }, { bearer: null }).expect(403);
    await post({ rows: [row()] }, { bearer: wrongKey }).expect(403);
    for (let attempt = 0; attempt < 8; attempt += 1) await post({ rows: [row()] }, { bearer: wrongKey }).expect(403);
    const held429 = await post({ rows: [row()] }).expect(429);
    expect(held429.headers['retry-after']).toBeDefined();
    await post({ rows: [row()] }, { from: '203.0.113.61' }).expect(200);
  });

  it('answers 400 to a body that is not such JSON, before any key is compared', async () => {
    for (const body of ['not json', '[1,2]', '"rows"', 'null', '{"rows": {}}', '{"rows": "all"}', '{}']) {
      const answer = await post(body).expect(400);
      expect(answer.body.error).toMatch(/^body must be JSON/);
    }
    await post({ rows: [row()] }, { bearer: null }).expect(403);
  });

  it('refuses a huge body, too many rows, a compressed or binary body in one line, and keeps serving', async () => {
    expect((await post(`{"rows": [${'"x",'.repeat(200_000)}"x"]}`).expect(413)).body.error).toMatch(/^body must be at most/);
    expect((await post({ rows: Array.from({ length: maxCostRows + 1 }, () => ({})) }).expect(413)).body.error).toMatch(/at most 1000 rows/);
    await post(JSON.stringify({ rows: [row()] })).set('Content-Encoding', 'gzip').expect(415);
    await request(app).post('/api/costs').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json; charset=utf-8').send(Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d])).expect(400);
    await post({ rows: [row()] }).expect(200);
  });

  it('answers 405 to other methods', async () => {
    await request(app).get('/api/costs').expect(405);
  });
});

describe('POST /api/costs without CONVERSIONS_KEY', () => {
  it('does not exist', async () => {
    const opened = await openTestDatabase('sqlite');
    try {
      const app = await createTestApp({}, { stores: createStatsStores(opened.database) });
      await request(app).post('/api/costs').send({ rows: [] }).expect(404);
    } finally {
      await opened.close();
    }
  });
});

describe.each(engines)('two servers on one %s database', (engine) => {
  it('post the same rows at once and hold each row once', async () => {
    const opened = await openTestDatabase(engine);
    const sites = [await startTestServer({ CONVERSIONS_KEY: key }, { stores: createStatsStores(opened.database) }), await startTestServer({ CONVERSIONS_KEY: key }, { stores: createStatsStores(opened.database) })];
    try {
      const rows = Array.from({ length: 500 }, (_, index) => row({ content: `ad-${index}` }));
      const answers = await inParallel(
        sites.map((site) => () => fetch(`${site.url}/api/costs`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ rows }) }).then((answer) => answer.json())),
        2,
      );
      expect(answers.map((answer) => answer.applied + answer.unchanged)).toEqual([500, 500]);
      expect(answers[0].applied + answers[1].applied).toBe(500);
      const count = await opened.database.db.selectFrom('costs').select((eb) => eb.fn.countAll<number>().as('rows')).executeTakeFirstOrThrow();
      expect(Number(count.rows)).toBe(500);
    } finally {
      for (const site of sites) await site.close();
      await opened.close();
    }
  });
});
