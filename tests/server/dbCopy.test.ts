import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createCostStore } from '../../server/costs/costStore';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { migrations } from '../../server/db/migrations/index';
import type { Schema } from '../../server/db/schema';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { createFilteredCounter } from '../../server/beacons/filteredCounter';
import { recordRelease } from '../../server/releases/recordRelease';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore, type View } from '../../server/views/viewStore';
import { main as copyMain } from '../../scripts/db-copy';
import { main as statsMain } from '../../scripts/stats';
import { newClickId } from '../../shared/affiliate';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { writeClaimRows } from '../support/claimRows';
import { closeDaysAndForget } from '../support/closeDays';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

async function run(main: typeof copyMain, argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

const today = new Date();
const longAgo = new Date('2025-01-15T10:00:00Z');
const click = (overrides: Partial<Click>): Click => ({ at: today, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'a', via: 'beacon', ...overrides });
const view = (overrides: Partial<View>): View => ({ at: today, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: 'a', ...overrides });

function report(fields: ConversionFields) {
  const parsed = parseConversion(fields);
  if (parsed.error) throw new Error(parsed.error.message);
  return parsed.report;
}

/** Every table the copy carries, with the columns of each row but its id. */
const copiedTables = ['clicks', 'views', 'conversions', 'conversion_events', 'daily_counts', 'closed_days', 'daily_conversions', 'daily_campaign_conversions', 'link_checks', 'filtered_counts', 'releases', 'incidents', 'costs', 'fixed_costs', 'claim_states', 'claim_evidence'] as const;

/** A table's rows without their ids, each value as text (PostgreSQL reads bigint back as a string), in one order. */
async function rowsOf(database: AppDatabase, table: (typeof copiedTables)[number]): Promise<string[]> {
  const rows = await (database.db as Kysely<any>).selectFrom(table).selectAll().execute();
  return rows
    .map((row: Record<string, unknown>) => {
      const { id: _id, ...rest } = row;
      return JSON.stringify(Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)).map(([column, value]) => [column, value === null ? null : String(value)])));
    })
    .sort();
}

async function allRows(database: AppDatabase) {
  return Object.fromEntries(await Promise.all(copiedTables.map(async (table) => [table, await rowsOf(database, table)] as const)));
}

/**
 * A SQLite file with rows in every table the copy carries: raw clicks (two of them identical, one with a
 * click ID and a source), page views, conversions (one joined to its click, one refunded, one without a
 * sub-ID) with their history, clicks, views and a conversion folded into their daily tables, a link check.
 */
async function sqliteWithEverything(): Promise<string> {
  const file = path.join(temp.dir(), 'clicks.sqlite');
  const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
  const clicks = createClickStore(database.db);
  const views = createViewStore(database.db);
  const conversions = createConversionStore(database.db);
  const sameMoment = new Date(today.getTime() - 1000);
  const clickId = newClickId('bonus');
  await clicks.record(click({ at: sameMoment }));
  await clicks.record(click({ at: sameMoment }));
  await clicks.record(click({ placement: 'bonus', page: '/about-us', visitor: 'b', device: 'tablet', clickId, source: 'newsletter' }));
  await clicks.record(click({ at: longAgo, placement: 'explainer', visitor: 'c', source: 'www.google.com' }));
  await views.record(view({ at: sameMoment, source: 'newsletter', medium: 'email', campaign: 'november', referrerHost: 'mail.example.com' }));
  await views.record(view({ at: sameMoment, source: 'newsletter', medium: 'email', campaign: 'november', referrerHost: 'mail.example.com' }));
  await views.record(view({ page: '/about-us', visitor: 'b', device: 'tablet', source: 'newsletter' }));
  await views.record(view({ at: longAgo, visitor: 'c', source: 'www.google.com', referrerHost: 'www.google.com' }));
  await conversions.record(report({ txid: 'T-1', subid: clickId, payout: '40.25' }), 'postback');
  await conversions.record(report({ txid: 'T-1', subid: clickId, payout: '40.25' }), 'postback');
  await conversions.record(report({ txid: 'T-2', subid: 'hero', payout: '12.5', currency: 'EUR' }), 'import');
  await conversions.record(report({ txid: 'T-2', subid: 'hero', status: 'refund' }), 'postback');
  await conversions.record(report({ txid: 'T-3' }), 'postback');
  await conversions.record(report({ txid: 'T-old', subid: 'explainer', payout: '9' }), 'postback', longAgo);
  // A sale long ago credited to its click's campaign and ad, folded into daily_campaign_conversions too
  // (its click adds the day's 'campaign' and 'ad' totals: 9 daily totals in all).
  const adClickId = newClickId('explainer');
  await clicks.record(click({ at: longAgo, placement: 'explainer', visitor: 'c', source: 'www.google.com', campaign: 'spring', content: 'video', clickId: adClickId }));
  await conversions.record(report({ txid: 'T-old-ad', subid: adClickId, payout: '11' }), 'postback', longAgo);
  await closeDaysAndForget(database.db, 30, today);
  await conversions.foldOldConversions(30, today);
  await databaseLinkCheckLog(database.db, async () => true).add({
    checkedAt: new Date('2026-11-20T10:00:00Z'),
    url: 'https://partner.example.net/join',
    finalUrl: 'https://partner.example.net/join',
    status: 200,
    redirects: 0,
    ms: 80,
    verdict: 'ok',
  });
  const filtered = createFilteredCounter(database.db);
  filtered.count('view', 'bot', today);
  filtered.count('view', 'bot', today);
  filtered.count('click', 'malformed', longAgo);
  await filtered.flush();
  await recordRelease(database.db, { stamp: 'a'.repeat(64), files: { 'art/hero.svg': '0123456789abcdef' } }, longAgo);
  await recordRelease(database.db, { stamp: 'b'.repeat(64), files: { 'art/hero.svg': 'fedcba9876543210' } }, today);
  await database.db
    .insertInto('incidents')
    .values([
      { rule: 'sales', subject: 'hero', opened_at: longAgo.getTime(), closed_at: longAgo.getTime() + 3_600_000, summary: 'No sale on hero since…', recovery: 'Sales on hero again.' },
      { rule: 'views', subject: '', opened_at: today.getTime() - 600_000, closed_at: null, summary: 'No page views recorded…', recovery: null },
    ])
    .execute();
  // More costs than one batch of the copy holds, so it pages through them by key.
  const costs = createCostStore(database.db);
  await costs.replaceCosts(Array.from({ length: 1001 }, (_, index) => ({ day: '2026-11-20', source: 'facebook', campaign: 'spring', content: `ad-${index}`, amountMicros: index, currency: 'USD' })), longAgo);
  await costs.replaceCosts([{ day: '2026-11-21', source: 'google', campaign: '', content: '', amountMicros: 12_500_000, currency: 'EUR' }], today);
  await costs.setFixedCost({ source: 'newsletter', campaign: '', from: '2026-01-01', to: '2026-01-31', dailyMicros: 12_500_000, perVisitorMicros: null, currency: 'USD' }, longAgo);
  await costs.setFixedCost({ source: 'partner', campaign: '', from: '2026-01-01', to: '2026-12-31', dailyMicros: null, perVisitorMicros: 350_000, currency: 'EUR' }, longAgo);
  await writeClaimRows(database.db, today.getTime());
  await database.close();
  return file;
}

/** A SQLite file left at schema 3 by an older version of the site: no page views, click IDs or sources yet. */
async function sqliteAtSchema3(): Promise<string> {
  const file = path.join(temp.dir(), 'old.sqlite');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite(file) }) });
  await db.schema.createTable('schema_migrations').addColumn('version', 'integer', (column) => column.primaryKey()).addColumn('applied_at', 'bigint').execute();
  for (const [index, migration] of migrations.slice(0, 3).entries()) {
    await migration(db, 'sqlite');
    await db.insertInto('schema_migrations').values({ version: index + 1, applied_at: Date.now() }).execute();
  }
  await db.insertInto('clicks').values({ at: today.getTime(), day: today.toISOString().slice(0, 10), placement: 'hero', page: '/', referrer_host: null, device: 'mobile', visitor: 'a', via: 'ping' }).execute();
  const conversion = { txid: 'T-9', subid: 'hero', currency: 'USD', status: 'sale', payout_micros: 5_000_000, received_at: today.getTime() };
  await db.insertInto('conversions').values({ ...conversion, click_id: null, placement: 'hero', day: today.toISOString().slice(0, 10), reversed_at: null }).execute();
  await db.insertInto('conversion_events').values({ ...conversion, outcome: 'recorded', via: 'import' }).execute();
  await db.destroy();
  return file;
}

describe('npm run db:copy', () => {
  let target: TestDatabase;
  beforeEach(async () => {
    target = await createTestDatabase();
  });
  afterEach(() => target.drop());

  const openTarget = () => openDatabase({ engine: 'postgres', url: target.url }, { logger: silentLogger });
  const openSource = (file: string) => openDatabase({ engine: 'sqlite', file }, { logger: silentLogger, readOnly: true });

  it('copies every table the site keeps from SQLite into PostgreSQL, and says what it copied', async () => {
    const file = await sqliteWithEverything();
    const { code, out, err } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('  raw clicks: 3 copied, 0 already there\n');
    expect(out).toContain('  page views: 3 copied, 0 already there\n');
    expect(out).toContain('  conversions: 3 copied, 0 already there\n');
    expect(out).toContain('  conversion history: 5 copied, 0 already there\n');
    // The old day's totals (all, placement, source, page, device, two referrers), and every closed day.
    expect(out).toContain('  daily totals of closed days: 9 copied, 0 already there\n');
    expect(out).toMatch(/\n  closed days: \d{3,} copied, 0 already there\n/);
    expect(out).toContain('  daily conversion totals: 2 copied, 0 already there\n');
    expect(out).toContain('  daily conversion totals in campaigns: 1 copied, 0 already there\n');
    expect(out).toContain('  link checks: 1 copied, 0 already there\n');
    expect(out).toContain('  reports not counted (per day, beacon and reason): 2 copied, 0 already there\n');
    expect(out).toContain('  releases: 2 copied, 0 already there\n');
    expect(out).toContain('  incidents: 2 copied, 0 already there\n');
    expect(out).toContain('  daily costs: 1002 copied, 0 already there\n');
    expect(out).toContain('  fixed-cost rules: 2 copied, 0 already there\n');

    const stats = await run(statsMain, ['--json', '--from', '2025-01-01', '--to', today.toISOString().slice(0, 10)], { DATABASE_URL: target.url });
    expect(JSON.parse(stats.out).all).toMatchObject({ clicks: 5, visitors: 3 });
  });

  it('gives the target the same rows, column for column, as the source', async () => {
    const file = await sqliteWithEverything();
    await run(copyMain, ['--from', file, '--to', target.url]);
    const [source, copy] = [await openSource(file), await openTarget()];
    try {
      const expected = await allRows(source);
      for (const table of copiedTables) expect({ table, rows: expected[table]!.length > 0 }).toEqual({ table, rows: true });
      expect(await allRows(copy)).toEqual(expected);
    } finally {
      await Promise.all([source.close(), copy.close()]);
    }
  });

  it('copies nothing when run twice', async () => {
    const file = await sqliteWithEverything();
    await run(copyMain, ['--from', file, '--to', target.url]);
    const copy = await openTarget();
    const afterFirst = await allRows(copy);
    const again = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('  raw clicks: 0 copied, 3 already there\n');
    expect(again.out).toContain('  page views: 0 copied, 3 already there\n');
    expect(again.out).toContain('  conversions: 0 copied, 3 already there\n');
    expect(again.out).toContain('  conversion history: 0 copied, 5 already there\n');
    expect(again.out).toContain('  daily totals of closed days: 0 copied, 9 already there\n');
    expect(again.out).toMatch(/\n  closed days: 0 copied, \d{3,} already there\n/);
    expect(again.out).toContain('  daily conversion totals: 0 copied, 2 already there\n');
    expect(again.out).toContain('  daily conversion totals in campaigns: 0 copied, 1 already there\n');
    expect(again.out).toContain('  link checks: 0 copied, 1 already there\n');
    expect(again.out).toContain('  reports not counted (per day, beacon and reason): 0 copied, 2 already there\n');
    expect(again.out).toContain('  releases: 0 copied, 2 already there\n');
    expect(again.out).toContain('  incidents: 0 copied, 2 already there\n');
    expect(again.out).toContain('  daily costs: 0 copied, 1002 already there\n');
    expect(again.out).toContain('  fixed-cost rules: 0 copied, 2 already there\n');
    expect(await allRows(copy)).toEqual(afterFirst);
    await copy.close();
  });

  it('keeps the target state of a txid it already holds differently, skips that conversion and its history, and names it', async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    // The target's instance heard of T-2 first and has not seen the refund the source recorded.
    await createConversionStore(copy.db).record(report({ txid: 'T-2', subid: 'hero', payout: '12.5', currency: 'EUR' }), 'postback', new Date('2026-11-21T09:00:00Z'));
    const { code, out } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(code).toBe(0);
    expect(out).toContain('  conversions: 2 copied, 0 already there, 1 skipped (the target holds these txids in another state and keeps its own)\n');
    expect(out).toContain(`    kept the target's state of txid "T-2"\n`);
    expect(out).toContain('  conversion history: 3 copied, 0 already there, 2 skipped (their conversion was skipped)\n');
    const held = await copy.db.selectFrom('conversions').select(['status', 'reversed_at']).where('txid', '=', 'T-2').execute();
    expect(held).toEqual([{ status: 'sale', reversed_at: null }]);
    expect(await copy.db.selectFrom('conversion_events').select('outcome').where('txid', '=', 'T-2').execute()).toEqual([{ outcome: 'recorded' }]);

    const again = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(again.out).toContain('  conversions: 0 copied, 2 already there, 1 skipped');
    expect(again.out).toContain('  conversion history: 0 copied, 3 already there, 2 skipped');
    await copy.close();
  });

  it('keeps the target figures of a day it already closed differently', async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    await copy.db.insertInto('daily_counts').values({ dimension: 'placement', day: '2025-01-15', value: 'explainer', views: 0, visitors: 0, clicks: 7, clickers: 5, distinct_values: 1 }).execute();
    const { out } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(out).toContain('  daily totals of closed days: 8 copied, 0 already there, 1 skipped (the target closed those days with other figures and keeps its own)\n');
    expect(await copy.db.selectFrom('daily_counts').select(['clicks', 'clickers']).where('day', '=', '2025-01-15').where('dimension', '=', 'placement').execute()).toEqual([
      { clicks: 7, clickers: 5 },
    ]);
    await copy.close();
  });

  it("keeps the amount the target holds for a day's cost, and copies the rest", async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    await createCostStore(copy.db).replaceCosts([{ day: '2026-11-21', source: 'google', campaign: '', content: '', amountMicros: 13_000_000, currency: 'EUR' }]);
    const { code, out } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(code).toBe(0);
    expect(out).toContain('  daily costs: 1001 copied, 0 already there, 1 skipped (the target holds other amounts for those days and keeps its own)\n');
    expect(await createCostStore(copy.db).readCosts({ from: '2026-11-21', to: '2026-11-21' })).toEqual([
      { day: '2026-11-21', source: 'google', campaign: '', content: '', amountMicros: 13_000_000, currency: 'EUR' },
    ]);
    await copy.close();
  });

  it('keeps the first time the target recorded a release it also holds', async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    await recordRelease(copy.db, { stamp: 'b'.repeat(64), files: {} }, new Date('2026-11-01T08:00:00Z'));
    const { code, out } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(code).toBe(0);
    expect(out).toContain('  releases: 1 copied, 0 already there, 1 skipped (the target recorded those builds first and keeps its own)\n');
    const held = await copy.db.selectFrom('releases').select('first_served_at').where('stamp', '=', 'b'.repeat(64)).executeTakeFirstOrThrow();
    expect(Number(held.first_served_at)).toBe(Date.parse('2026-11-01T08:00:00Z'));
    await copy.close();
  });

  it("keeps the target's own open incident of a rule, and says so", async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    await copy.db.insertInto('incidents').values({ rule: 'views', subject: '', opened_at: today.getTime(), closed_at: null, summary: 'the target saw it first', recovery: null }).execute();
    const { code, out } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(code).toBe(0);
    expect(out).toContain('  incidents: 1 copied, 0 already there, 1 skipped (the target holds its own version of them, or its own open incident of the same rule)\n');
    expect(await copy.db.selectFrom('incidents').select('summary').where('closed_at', 'is', null).execute()).toEqual([{ summary: 'the target saw it first' }]);
    await copy.close();
  });

  it('reopens the days it copies raw rows into that the target had closed, so they are closed again with those rows', async () => {
    const file = await sqliteWithEverything();
    const copy = await openTarget();
    const day = today.toISOString().slice(0, 10);
    await copy.db.insertInto('closed_days').values({ day, closed_at: 0 }).execute();
    await copy.db.insertInto('daily_counts').values({ dimension: 'all', day, value: '', views: 0, visitors: 0, clicks: 0, clickers: 0, distinct_values: 1 }).execute();
    await run(copyMain, ['--from', file, '--to', target.url]);
    expect(await copy.db.selectFrom('closed_days').select('day').where('day', '>=', day).execute()).toEqual([]);
    expect(await copy.db.selectFrom('daily_counts').select('day').where('day', '>=', day).execute()).toEqual([]);
    const stats = await run(statsMain, ['--json', '--days', '1'], { DATABASE_URL: target.url });
    expect(JSON.parse(stats.out).all).toMatchObject({ clicks: 3, views: 3 });
    await copy.close();
  });

  it('copies a file an older version of the site left at schema 3, without the tables it does not have yet', async () => {
    const file = await sqliteAtSchema3();
    const { code, out, err } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('at schema 3');
    expect(out).toContain('  raw clicks: 1 copied, 0 already there\n');
    expect(out).toContain('  page views: 0 copied, 0 already there\n');
    expect(out).toContain('  conversions: 1 copied, 0 already there\n');
    expect(out).toContain('  conversion history: 1 copied, 0 already there\n');
    const copy = await openTarget();
    expect(await copy.db.selectFrom('clicks').select(['placement', 'via', 'click_id', 'source']).execute()).toEqual([{ placement: 'hero', via: 'ping', click_id: null, source: null }]);
    expect(await copy.db.selectFrom('conversions').select(['txid', 'placement', 'click_day']).execute()).toEqual([{ txid: 'T-9', placement: 'hero', click_day: null }]);
    await copy.close();
  });

  it('never prints the password of the target', async () => {
    const file = await sqliteWithEverything();
    const url = new URL(target.url);
    url.password = 'hunter2-secret';
    const { out, err } = await run(copyMain, ['--from', file, '--to', url.href]);
    expect(out + err).not.toContain('hunter2');
  });

  it.each([
    [[], 64, /--to is required/],
    [['--to', 'mysql://db/x'], 64, /--to: the address must start with postgres:\/\//],
    [['--to', 'postgres://127.0.0.1:1/x', '--from', '/nonexistent/clicks.sqlite'], 1, /no click database at \/nonexistent\/clicks\.sqlite/],
  ])('refuses %j with exit code %d and one line saying why', async (argv, code, message) => {
    const result = await run(copyMain, argv as string[]);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});
