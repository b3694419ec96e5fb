import path from 'node:path';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import request from 'supertest';
import { newClickId } from '../../shared/affiliate';
import { createClickStore } from '../../server/clicks/clickStore';
import type { Engine } from '../../server/db/databaseSettings';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import type { Schema } from '../../server/db/schema';
import { createStatsStores } from '../../server/statsStores';
import { silentLogger } from '../../server/lib/logger';
import { main as copyMain } from '../../scripts/db-copy';
import { browserUserAgent, sendReport } from '../support/beaconReports';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { databaseAtSchema } from '../support/databaseAtSchema';
import { createTestDatabase } from '../support/postgres';
import { click } from '../support/storeRows';
import { createTestApp, testSiteUrl } from '../support/testApp';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

/** A hyperlink-auditing ping as Chromium sends it. */
const ping = (app: Express, url: string) =>
  request(app).post(url).set({ 'Content-Type': 'text/ping', 'User-Agent': browserUserAgent, 'Ping-From': `${testSiteUrl}/`, 'X-Forwarded-For': '203.0.113.9' }).send('PING');

describe.each(engines)('a click ID on %s', (engine) => {
  let opened: TestEngineDatabase;
  let app: Express;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    app = await createTestApp({ TRUST_PROXY: 'true' }, { stores: createStatsStores(opened.database) });
  });
  afterEach(() => opened.close());
  const clickRows = () => opened.database.db.selectFrom('clicks').select(['placement', 'via', 'click_id']).orderBy('id').execute();

  it('is counted once: a replayed report, in any case and by beacon or ping, is answered 204 and adds nothing', async () => {
    const clickId = newClickId('bonus');
    const beacon = (id: string) => sendReport(app, '/api/clicks', { placement: 'bonus', page: '/', referrer: '', clickId: id, source: 'newsletter' });
    await beacon(clickId).expect(204);
    await beacon(clickId).expect(204);
    await beacon(clickId.toUpperCase()).expect(204);
    await ping(app, `/api/clicks?placement=bonus&click=${clickId}`).expect(204);
    expect(await clickRows()).toEqual([{ placement: 'bonus', via: 'beacon', click_id: clickId }]);
  });

  it('is counted once when replays reach several instances sharing the database at the same moment', async () => {
    // On PostgreSQL the second instance has its own pool, as another process would; SQLite is one file for one machine.
    const second: AppDatabase = engine === 'postgres' ? await openDatabase({ engine, url: opened.url! }, { logger: silentLogger }) : opened.database;
    try {
      const other = await createTestApp({ TRUST_PROXY: 'true' }, { stores: createStatsStores(second) });
      const clickId = newClickId('hero');
      const replays = Array.from({ length: 8 }, (_, i) =>
        sendReport(i % 2 === 0 ? app : other, '/api/clicks', { placement: 'hero', page: '/', clickId }, { 'X-Forwarded-For': `203.0.113.${i + 1}` }),
      );
      expect((await Promise.all(replays)).map((response) => response.status)).toEqual(Array(8).fill(204));
      expect(await clickRows()).toEqual([{ placement: 'hero', via: 'beacon', click_id: clickId }]);
    } finally {
      if (second !== opened.database) await second.close();
    }
  });

  it('leaves clicks without one counted every time: pings and beacons with no click ID', async () => {
    for (let i = 0; i < 3; i += 1) await ping(app, '/api/clicks?placement=bonus').expect(204);
    for (let i = 0; i < 2; i += 1) await sendReport(app, '/api/clicks', { placement: 'hero', page: '/' }).expect(204);
    expect(await clickRows()).toEqual([
      ...Array(3).fill({ placement: 'bonus', via: 'ping', click_id: null }),
      ...Array(2).fill({ placement: 'hero', via: 'beacon', click_id: null }),
    ]);
  });

  it("makes the store's record say whether it counted the click", async () => {
    const store = createClickStore(opened.database.db);
    const clickId = newClickId('hero');
    expect(await store.record(click({ clickId }))).toBe(true);
    expect(await store.record(click({ clickId, visitor: 'v2', at: new Date('2026-11-20T12:00:01Z') }))).toBe(false);
    expect(await store.record(click())).toBe(true);
    expect(await store.record(click({ clickId: null }))).toBe(true);
    expect(await opened.database.db.selectFrom('clicks').select(['visitor', 'click_id']).orderBy('id').execute()).toEqual([
      { visitor: 'v1', click_id: clickId },
      { visitor: 'v1', click_id: null },
      { visitor: 'v1', click_id: null },
    ]);
  });
});

/** A bare database of the engine, brought to schema 4 (click IDs, not yet unique) as a released version left it. */
const databaseAtSchema4 = (engine: Engine, file?: string) => databaseAtSchema(engine, 4, file);

/** A raw click row as schema 4 holds it. */
const clickRow = (visitor: string, at: number, clickId: string | null, placement = 'hero') => ({
  at,
  day: '2026-11-20',
  placement,
  page: '/',
  referrer_host: null,
  device: 'mobile',
  visitor,
  via: 'beacon',
  click_id: clickId,
  source: null,
});

describe.each(engines)('the migration to unique click IDs on %s', (engine) => {
  it('removes replays stored before it, keeping the earliest row of each click ID, and keeps every click without one', async () => {
    const { db, close } = await databaseAtSchema4(engine);
    try {
      const [x, y] = [newClickId('hero'), newClickId('bonus')];
      const row = (visitor: string, at: number, clickId: string | null) => clickRow(visitor, at, clickId, clickId === y ? 'bonus' : 'hero');
      await db
        .insertInto('clicks')
        .values([row('x-later', 2000, x), row('x-first', 1000, x), row('x-same-time', 1000, x), row('y', 1500, y), row('none-1', 1000, null), row('none-2', 1000, null), row('x-last', 3000, x)])
        .execute();

      expect(await migrate(db, engine)).toBe(migrations.length);

      const kept = await db.selectFrom('clicks').select(['visitor', 'click_id']).orderBy('id').execute();
      expect(kept).toEqual([
        { visitor: 'x-first', click_id: x },
        { visitor: 'y', click_id: y },
        { visitor: 'none-1', click_id: null },
        { visitor: 'none-2', click_id: null },
      ]);
      const store = createClickStore(db as Kysely<Schema>);
      expect(await store.record(click({ clickId: x }))).toBe(false);
      expect(await store.record(click({ clickId: null }))).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('npm run db:copy of clicks with repeated click IDs', () => {
  let target: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeEach(async () => {
    target = await createTestDatabase();
  });
  afterEach(() => target.drop());

  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await copyMain(argv, {}, (text) => (out += text), (text) => (err += text));
    return { code, out, err };
  };

  it('copies a file from before the unique index holding a click ID twice: the first arrives, the replay is skipped, and a rerun adds nothing', async () => {
    const file = path.join(temp.dir(), 'replays.sqlite');
    const source = await databaseAtSchema4('sqlite', file);
    const [x, y] = [newClickId('hero'), newClickId('hero')];
    await source.db.insertInto('clicks').values([clickRow('first', 1000, x), clickRow('replay', 2000, x), clickRow('other', 1500, y), clickRow('none', 1000, null), clickRow('none', 1000, null)]).execute();
    await source.close();

    const first = await run(['--from', file, '--to', target.url]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain('  raw clicks: 4 copied, 0 already there, 1 skipped (the target holds their click ID already, and a click ID counts once)\n');
    const copy = await openDatabase({ engine: 'postgres', url: target.url }, { logger: silentLogger });
    try {
      expect(await copy.db.selectFrom('clicks').select(['visitor', 'click_id']).orderBy('visitor').execute()).toEqual([
        { visitor: 'first', click_id: x },
        { visitor: 'none', click_id: null },
        { visitor: 'none', click_id: null },
        { visitor: 'other', click_id: y },
      ]);
      // A live instance recorded a click the file holds with other figures: the target's row stays.
      const z = newClickId('bonus');
      await createClickStore(copy.db).record(click({ placement: 'bonus', clickId: z, visitor: 'live' }));
      const more = path.join(temp.dir(), 'more.sqlite');
      const another = await databaseAtSchema4('sqlite', more);
      await another.db.insertInto('clicks').values([clickRow('file', 3000, z, 'bonus')]).execute();
      await another.close();
      expect((await run(['--from', more, '--to', target.url])).out).toContain('  raw clicks: 0 copied, 0 already there, 1 skipped');
      expect(await copy.db.selectFrom('clicks').select('visitor').where('click_id', '=', z).execute()).toEqual([{ visitor: 'live' }]);
    } finally {
      await copy.close();
    }

    const again = await run(['--from', file, '--to', target.url]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('  raw clicks: 0 copied, 4 already there, 1 skipped');
  });
});
