import path from 'node:path';
import { sql } from 'kysely';
import request from 'supertest';
import { createClickStore } from '../../server/clicks/clickStore';
import type { AppDatabase } from '../../server/db/openDatabase';
import { openDatabase } from '../../server/db/openDatabase';
import { createStatsStores } from '../../server/statsStores';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { SlowReportError } from '../../server/funnelReport/slowReport';
import { workerReportReader, type ReportReader } from '../../server/reports/reportReader';
import { silentLogger } from '../../server/lib/logger';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { assertSelector, parseHtml } from '../support/html';
import { useTempDir } from '../support/tempDir';
import { createTestApp } from '../support/testApp';

const token = 'test-admin-token-0123456789abcdef';
const basic = `Basic ${Buffer.from(`operator:${token}`).toString('base64')}`;
const today = new Date().toISOString().slice(0, 10);
const range = { from: today, to: today };

async function recordClicks(database: AppDatabase): Promise<void> {
  const store = createClickStore(database.db);
  for (const [placement, visitor] of [['hero', 'a'], ['hero', 'b'], ['bonus', 'a']] as const) {
    await store.record({ at: new Date(), placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', source: 'newsletter' });
  }
}

/** The admin page of an app whose reports come from `reports`, expecting `status`. */
async function adminWith(database: AppDatabase, reports: ReportReader, status: number) {
  const app = await createTestApp({ ADMIN_TOKEN: token }, { stores: createStatsStores(database, reports) });
  return request(app).get('/admin?days=30').set('Authorization', basic).expect(status);
}

/** The page's heading text. */
const heading = (html: string) => assertSelector(parseHtml(html), 'h1', 1)[0]!.text();

describe('the SQLite report worker', () => {
  const temp = useTempDir();
  let database: AppDatabase;
  let reader: ReportReader | undefined;
  beforeEach(async () => {
    database = await openDatabase({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') }, { logger: silentLogger });
    await recordClicks(database);
  });
  afterEach(async () => {
    await reader?.close();
    await database.close();
  });

  it('reads the same report as the serving thread would, from its own read-only connection', async () => {
    reader = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') });
    expect(await reader.readFunnel(range)).toEqual(await readFunnelReport(database.db, range));
    // The Map comes from another realm (the worker's answer is cloned), so its entries are compared.
    expect([...(await reader.readRawDay(today))]).toEqual([...(await readRawDayCounts(database.db, today))]);
  });

  it('stops a report past its time with SlowReportError, and the next report starts a fresh worker', async () => {
    reader = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') }, { timeoutMs: 1 });
    await expect(reader.readFunnel(range)).rejects.toThrow(SlowReportError);
    await expect(reader.readFunnel(range)).rejects.toThrow(/took longer than 0.001 s and was stopped; try a shorter range/);
  });

  it('makes /admin say the report was stopped, not that the database is not answering', async () => {
    reader = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') }, { timeoutMs: 1 });
    const response = await adminWith(database, reader, 503);
    expect(heading(response.text)).toBe('The report was stopped');
    expect(response.text).not.toMatch(/not answering/);
    expect(response.headers['retry-after']).toBe('30');
  });

  it('warms up in the background at start-up, and a warm-up that fails is silent', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const missing = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'missing.sqlite') });
      missing.warmUp();
      await expect(missing.readFunnel(range)).rejects.toThrow();
      await missing.close();
      reader = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') });
      reader.warmUp();
      expect(await reader.readFunnel(range)).toEqual(await readFunnelReport(database.db, range));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('serves /admin from the worker', async () => {
    reader = workerReportReader({ engine: 'sqlite', file: path.join(temp.dir(), 'clicks.sqlite') });
    const response = await adminWith(database, reader, 200);
    expect(response.text).toMatch(/3 clicks by 2 visitors/);
  });
});

describe('the PostgreSQL report worker', () => {
  let opened: TestEngineDatabase;
  let reader: ReportReader | undefined;
  beforeEach(async () => {
    opened = await openTestDatabase('postgres');
    await recordClicks(opened.database);
  });
  afterEach(async () => {
    await reader?.close();
    await opened.close();
  });

  it('reads on a pool of its own, in the worker', async () => {
    reader = workerReportReader({ engine: 'postgres', url: opened.url! });
    expect(await reader.readFunnel(range)).toEqual(await readFunnelReport(opened.database.db, range));
  });

  it('serves /admin rendered in the worker', async () => {
    reader = workerReportReader({ engine: 'postgres', url: opened.url! });
    const response = await adminWith(opened.database, reader, 200);
    expect(response.text).toMatch(/3 clicks by 2 visitors/);
  });

  it('has PostgreSQL stop a statement past its time, and /admin says the report was stopped, not that the database is not answering', async () => {
    // Enough raw rows today that counting them takes PostgreSQL longer than a millisecond.
    await sql`insert into views (at, day, page, source, device, visitor)
      select 0, ${today}, '/', 'source-' || (n % 500), 'mobile', 'visitor-' || n from generate_series(1, 50000) as n`.execute(opened.database.db);
    reader = workerReportReader({ engine: 'postgres', url: opened.url! }, { timeoutMs: 1 });
    await expect(reader.readFunnel(range)).rejects.toThrow(SlowReportError);
    const response = await adminWith(opened.database, reader, 503);
    expect(heading(response.text)).toBe('The report was stopped');
    // The recording side never noticed: the database answers.
    expect(opened.database.availability.available).toBe(true);
  });
});
