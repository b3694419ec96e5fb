import type { Kysely } from 'kysely';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import type { Schema } from '../../server/db/schema';
import { maxValuesPerDay, othersValue } from '../../server/dayCounts/dimensions';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { forgetRawRows } from '../../server/jobs/forgetRawRows';
import { databaseAtSchema } from '../support/databaseAtSchema';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const now = new Date('2026-11-21T15:00:00Z');

interface RawRow {
  at: string;
  visitor: string;
  source?: string | null;
  page?: string;
  device?: string;
  referrer?: string | null;
}

async function addViews(db: Kysely<Schema>, rows: RawRow[]): Promise<void> {
  const values = rows.map((row) => ({
    at: Date.parse(row.at),
    day: row.at.slice(0, 10),
    page: row.page ?? '/',
    referrer_host: row.referrer ?? null,
    source: row.source === undefined ? 'direct' : row.source,
    medium: null,
    campaign: null,
    device: row.device ?? 'mobile',
    visitor: row.visitor,
  }));
  for (let start = 0; start < values.length; start += 500) await db.insertInto('views').values(values.slice(start, start + 500)).execute();
}

async function addClicks(db: Kysely<Schema>, rows: (RawRow & { placement: string })[]): Promise<void> {
  const values = rows.map((row) => ({
    at: Date.parse(row.at),
    day: row.at.slice(0, 10),
    placement: row.placement,
    page: row.page ?? '/',
    referrer_host: row.referrer ?? null,
    device: row.device ?? 'mobile',
    visitor: row.visitor,
    via: 'beacon',
    source: row.source === undefined ? 'direct' : row.source,
  }));
  for (let start = 0; start < values.length; start += 500) await db.insertInto('clicks').values(values.slice(start, start + 500)).execute();
}

describe.each(engines)('closing days on %s', (engine) => {
  let opened: TestEngineDatabase;
  const db = () => opened.database.db;
  const close = (at: Date = now) => closeFinishedDays(db(), (day) => readRawDayCounts(db(), day), at);
  const counts = (day: string, dimension: string) =>
    db()
      .selectFrom('daily_counts')
      .select(['value', 'views', 'visitors', 'clicks', 'clickers', 'distinct_values'])
      .where('day', '=', day)
      .where('dimension', '=', dimension)
      .orderBy('value')
      .execute();

  beforeEach(async () => {
    opened = await openTestDatabase(engine);
  });
  afterEach(() => opened.close());

  it('closes every finished day from the first raw one, each dimension with its visitors and visitors who clicked', async () => {
    await addViews(db(), [
      { at: '2026-11-18T08:00:00Z', visitor: 'a', source: 'newsletter', referrer: 'mail.example.com' },
      { at: '2026-11-18T08:01:00Z', visitor: 'a', source: 'newsletter', page: '/about-us' },
      { at: '2026-11-18T09:00:00Z', visitor: 'b', source: null, device: 'desktop' },
      { at: '2026-11-21T09:00:00Z', visitor: 'c' },
    ]);
    await addClicks(db(), [
      { at: '2026-11-18T08:02:00Z', visitor: 'a', source: 'newsletter', placement: 'hero' },
      { at: '2026-11-18T08:03:00Z', visitor: 'a', source: 'newsletter', placement: 'bonus', page: '/about-us' },
    ]);

    expect(await close()).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);

    expect(await db().selectFrom('closed_days').select('day').orderBy('day').execute()).toEqual([{ day: '2026-11-18' }, { day: '2026-11-19' }, { day: '2026-11-20' }]);
    expect(await counts('2026-11-18', 'all')).toEqual([{ value: '', views: 3, visitors: 2, clicks: 2, clickers: 1, distinct_values: 1 }]);
    expect(await counts('2026-11-18', 'placement')).toEqual([
      { value: 'bonus', views: 0, visitors: 0, clicks: 1, clickers: 1, distinct_values: 1 },
      { value: 'hero', views: 0, visitors: 0, clicks: 1, clickers: 1, distinct_values: 1 },
    ]);
    expect(await counts('2026-11-18', 'source')).toEqual([
      { value: '', views: 1, visitors: 1, clicks: 0, clickers: 0, distinct_values: 1 },
      { value: 'newsletter', views: 2, visitors: 1, clicks: 2, clickers: 1, distinct_values: 1 },
    ]);
    expect(await counts('2026-11-18', 'page')).toEqual([
      { value: '/', views: 2, visitors: 2, clicks: 1, clickers: 1, distinct_values: 1 },
      { value: '/about-us', views: 1, visitors: 1, clicks: 1, clickers: 1, distinct_values: 1 },
    ]);
    expect(await counts('2026-11-18', 'device')).toEqual([
      { value: 'desktop', views: 1, visitors: 1, clicks: 0, clickers: 0, distinct_values: 1 },
      { value: 'mobile', views: 2, visitors: 1, clicks: 2, clickers: 1, distinct_values: 1 },
    ]);
    expect(await counts('2026-11-18', 'referrer')).toEqual([
      { value: '', views: 2, visitors: 2, clicks: 2, clickers: 1, distinct_values: 1 },
      { value: 'mail.example.com', views: 1, visitors: 1, clicks: 0, clickers: 0, distinct_values: 1 },
    ]);
    // Today stays open: its rows are still arriving.
    expect(await counts('2026-11-21', 'all')).toEqual([]);
    // Raw rows stay until the retention period.
    expect(await db().selectFrom('views').select('id').execute()).toHaveLength(4);
  });

  it('closes a day only once it has been over for five minutes, and never twice', async () => {
    await addViews(db(), [{ at: '2026-11-20T23:59:59Z', visitor: 'a' }]);
    // Before 00:05 the last finished day is the 19th, before the first day with rows: nothing to close.
    expect(await close(new Date('2026-11-21T00:04:59Z'))).toEqual([]);
    expect(await close(new Date('2026-11-21T00:05:00Z'))).toEqual(['2026-11-20']);
    expect(await close(new Date('2026-11-21T12:00:00Z'))).toEqual([]);
    expect(await counts('2026-11-20', 'all')).toEqual([{ value: '', views: 1, visitors: 1, clicks: 0, clickers: 0, distinct_values: 1 }]);
  });

  it('closes each day once when two instances close at the same moment', async () => {
    await addViews(db(), [
      { at: '2026-11-10T10:00:00Z', visitor: 'a' },
      { at: '2026-11-15T10:00:00Z', visitor: 'b' },
    ]);
    const [first, second] = await Promise.all([close(), close()]);
    expect([...first, ...second].sort()).toEqual(Array.from({ length: 11 }, (_, index) => `2026-11-${String(10 + index).padStart(2, '0')}`));
    expect(new Set([...first, ...second]).size).toBe(first.length + second.length);
    const all = await db().selectFrom('daily_counts').select(['day', 'views']).where('dimension', '=', 'all').orderBy('day').execute();
    expect(all).toEqual([
      { day: '2026-11-10', views: 1 },
      { day: '2026-11-15', views: 1 },
    ]);
  });

  it(`keeps at most ${maxValuesPerDay} values of a day and adds up the rest in one row that says how many it holds`, async () => {
    const sources = Array.from({ length: maxValuesPerDay + 5 }, (_, index) => `flood-${String(index).padStart(4, '0')}`);
    // The first ten sources have two visitors each, so they are certainly among those kept.
    await addViews(db(), [
      ...sources.map((source, index) => ({ at: '2026-11-20T10:00:00Z', visitor: `v${index}`, source })),
      ...sources.slice(0, 10).map((source, index) => ({ at: '2026-11-20T11:00:00Z', visitor: `w${index}`, source })),
    ]);
    await close();
    const rows = await counts('2026-11-20', 'source');
    expect(rows).toHaveLength(maxValuesPerDay + 1);
    expect(rows.find((row) => row.value === othersValue)).toEqual({ value: othersValue, views: 5, visitors: 5, clicks: 0, clickers: 0, distinct_values: 5 });
    expect(rows.filter((row) => row.visitors === 2).map((row) => row.value)).toEqual(sources.slice(0, 10));

    const report = await readFunnelReport(db(), { from: '2026-11-20', to: '2026-11-20' });
    expect(report.sources).toHaveLength(20);
    // The top 20: the ten with two visitors, then ten with one; the others are the rest of the 1,015 visitors.
    expect(report.otherSources).toMatchObject({ sourceCount: sources.length - 20, visitors: sources.length + 10 - (10 * 2 + 10) });
    expect(report.days[0]!.sources).toHaveLength(5);
    expect(report.days[0]!.otherSources).toMatchObject({ sourceCount: sources.length - 5 });
    const everySource = await readFunnelReport(db(), { from: '2026-11-20', to: '2026-11-20' }, { sources: 'all', daySources: 'all' });
    // Every source the closed day kept by name; the ones past the cap only as their sum.
    expect(everySource.sources).toHaveLength(maxValuesPerDay);
    expect(everySource.otherSources).toBeUndefined();
  });

  it('deletes raw rows past the retention period only once their day is closed, and the report reads the same', async () => {
    await addViews(db(), [
      { at: '2026-11-01T10:00:00Z', visitor: 'a', source: 'newsletter' },
      { at: '2026-11-02T10:00:00Z', visitor: 'b' },
      { at: '2026-11-20T10:00:00Z', visitor: 'c' },
    ]);
    await addClicks(db(), [{ at: '2026-11-01T10:01:00Z', visitor: 'a', source: 'newsletter', placement: 'hero' }]);
    // Nothing is closed yet, so nothing is deleted, whatever the retention period says.
    expect(await forgetRawRows(db(), 10, now)).toEqual({ views: 0, clicks: 0, leaves: 0 });
    const range = { from: '2026-11-01', to: '2026-11-21' };
    const before = await readFunnelReport(db(), range);
    await close();
    expect(await forgetRawRows(db(), 10, now)).toEqual({ views: 2, clicks: 1, leaves: 0 });
    expect(await db().selectFrom('views').select('day').execute()).toEqual([{ day: '2026-11-20' }]);
    expect(await readFunnelReport(db(), range)).toEqual(before);
  });

  it('deletes a busy day past retention a batch at a time, every row of it', async () => {
    await addViews(db(), Array.from({ length: 4500 }, (_, index) => ({ at: '2026-11-01T10:00:00Z', visitor: `v${index}` })));
    await close();
    expect(await forgetRawRows(db(), 10, now)).toEqual({ views: 4500, clicks: 0, leaves: 0 });
    expect(await db().selectFrom('views').select('id').execute()).toEqual([]);
    // Past 128 a day's distinct visitors are a sketch's estimate (server/dayCounts/distinctCount.ts): within 3 standard errors.
    const [all] = await counts('2026-11-01', 'all');
    expect(all).toEqual({ value: '', views: 4500, visitors: expect.any(Number), clicks: 0, clickers: 0, distinct_values: 1 });
    expect(Math.abs(Number(all!.visitors) - 4500) / 4500).toBeLessThan(3 * 0.0163);
  });
});

describe.each(engines)('schema 5 on %s', (engine) => {
  it('turns the days folded into daily_totals and daily_sources into closed days', async () => {
    // Schema 4, with folded days in the tables schema 5 replaces.
    const legacy = await databaseAtSchema(engine, 4);
    try {
      const { db } = legacy;
      await db
        .insertInto('daily_totals')
        .values([
          { day: '2025-01-01', placement: '*', clicks: 3, visitors: 2 },
          { day: '2025-01-01', placement: 'hero', clicks: 2, visitors: 1 },
          { day: '2025-01-01', placement: 'bonus', clicks: 1, visitors: 1 },
        ])
        .execute();
      await db
        .insertInto('daily_sources')
        .values([
          { day: '2025-01-01', source: '*', views: 9, visitors: 4, clicks: 0, clickers: 0 },
          { day: '2025-01-01', source: 'newsletter', views: 9, visitors: 4, clicks: 3, clickers: 2 },
          { day: '2025-01-02', source: '*', views: 1, visitors: 1, clicks: 0, clickers: 0 },
          { day: '2025-01-02', source: 'direct', views: 1, visitors: 1, clicks: 0, clickers: 0 },
        ])
        .execute();

      expect(await migrate(db, engine)).toBe(migrations.length);

      expect(await db.selectFrom('closed_days').select('day').orderBy('day').execute()).toEqual([{ day: '2025-01-01' }, { day: '2025-01-02' }]);
      const report = await readFunnelReport(db as Kysely<Schema>, { from: '2025-01-01', to: '2025-01-02' });
      expect(report.all).toMatchObject({ views: 10, viewVisitors: 5, clicks: 3, visitors: 2 });
      expect(report.totals.find((row) => row.placement === 'hero')).toMatchObject({ clicks: 2, visitors: 1 });
      expect(report.sources.map(({ source, visitors, clicks, clickers }) => ({ source, visitors, clicks, clickers }))).toEqual([
        { source: 'newsletter', visitors: 4, clicks: 3, clickers: 2 },
        { source: 'direct', visitors: 1, clicks: 0, clickers: 0 },
      ]);
      for (const table of ['daily_totals', 'daily_sources']) {
        await expect(db.selectFrom(table).selectAll().execute()).rejects.toThrow();
      }
    } finally {
      await legacy.close();
    }
  });
});
