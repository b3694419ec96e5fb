import { readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { claimJobRun } from '../../server/jobs/jobRuns';
import { migrations } from '../../server/db/migrations/index';
import { DatabaseError, openDatabase } from '../../server/db/openDatabase';
import { createVisitorHasher, forgetOldSalts, saltFor } from '../../server/beacons/visitorSalts';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { silentLogger } from '../../server/lib/logger';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { freePort } from '../support/mainProcess';
import { createTestDatabase } from '../support/postgres';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

function click(overrides: Partial<Click> = {}): Click {
  return { at: new Date('2026-11-20T12:00:00Z'), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'v1', via: 'beacon', ...overrides };
}

describe.each(engines)('on %s', (engine) => {
  let opened: TestEngineDatabase;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
  });
  afterEach(() => opened.close());
  const db = () => opened.database.db;

  describe('the click store', () => {
    it('commits a click before record resolves', async () => {
      await createClickStore(db()).record(click({ referrerHost: 'www.google.com' }));
      expect(await db().selectFrom('clicks').select(['at', 'day', 'placement', 'page', 'referrer_host', 'device', 'visitor', 'via']).execute()).toEqual([
        { at: Date.parse('2026-11-20T12:00:00Z'), day: '2026-11-20', placement: 'hero', page: '/', referrer_host: 'www.google.com', device: 'mobile', visitor: 'v1', via: 'beacon' },
      ]);
    });
  });

  describe('the daily visitor salt', () => {
    it('is the same for every caller on one day and different the next', async () => {
      const [first, second] = await Promise.all([saltFor(db(), '2026-11-20'), saltFor(db(), '2026-11-20')]);
      expect(first.equals(second)).toBe(true);
      expect(first).toHaveLength(32);
      expect((await saltFor(db(), '2026-11-21')).equals(first)).toBe(false);
    });

    it('gives two hashers (two instances) the same hash for one visitor, and another one the next day', async () => {
      let now = new Date('2026-11-20T10:00:00Z');
      const one = createVisitorHasher(db(), () => now);
      const two = createVisitorHasher(db(), () => now);
      const hash = await one('203.0.113.9', 'Mozilla/5.0');
      expect(await two('203.0.113.9', 'Mozilla/5.0')).toBe(hash);
      expect(await two('203.0.113.10', 'Mozilla/5.0')).not.toBe(hash);
      now = new Date('2026-11-21T00:00:01Z');
      expect(await one('203.0.113.9', 'Mozilla/5.0')).not.toBe(hash);
    });

    it('is deleted once older than yesterday, so hashes can never be recomputed', async () => {
      for (const day of ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']) await saltFor(db(), day);
      await forgetOldSalts(db(), new Date('2026-11-21T00:10:00Z'));
      expect(await db().selectFrom('visitor_salts').select('day').orderBy('day').execute()).toEqual([{ day: '2026-11-20' }, { day: '2026-11-21' }]);
    });
  });

  describe('job runs', () => {
    it('go to exactly one of many claimants per period', async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => claimJobRun(db(), 'fold', '2026-11-20')));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimJobRun(db(), 'fold', '2026-11-21')).toBe(true);
      expect(await claimJobRun(db(), 'link-check', '2026-11-20')).toBe(true);
    });
  });

  describe('the link-check history', () => {
    it('gives back the latest checks, newest first, as they were recorded', async () => {
      const log = databaseLinkCheckLog(db(), (job, period) => claimJobRun(db(), job, period));
      const base = { url: 'https://partner.example.net/', finalUrl: 'https://partner.example.net/', redirects: 0, ms: 12 };
      await log.add({ ...base, checkedAt: new Date('2026-11-20T10:00:00Z'), status: 404, verdict: 'broken' });
      await log.add({ ...base, checkedAt: new Date('2026-11-20T11:00:00Z'), error: 'timed out after 10000 ms', verdict: 'error' });
      expect(await log.recent(5)).toEqual([
        { ...base, checkedAt: new Date('2026-11-20T11:00:00Z'), error: 'timed out after 10000 ms', verdict: 'error' },
        { ...base, checkedAt: new Date('2026-11-20T10:00:00Z'), status: 404, verdict: 'broken' },
      ]);
      expect(await log.claim(7)).toBe(true);
      expect(await log.claim(7)).toBe(false);
    });
  });

  describe('migrations', () => {
    it('record every step once and apply none twice on the next start', async () => {
      const versions = async () => (await db().selectFrom('schema_migrations').select('version').orderBy('version').execute()).map((row) => row.version);
      expect(await versions()).toEqual(migrations.map((_, index) => index + 1));
      if (engine === 'postgres') {
        const again = await openDatabase({ engine, url: opened.url! }, { logger: silentLogger });
        await again.close();
        expect(await versions()).toEqual(migrations.map((_, index) => index + 1));
      }
    });
  });
});

describe('PostgreSQL', () => {
  it('lets instances that start together on a new database migrate it once, without a race', async () => {
    const created = await createTestDatabase();
    try {
      const databases = await Promise.all(Array.from({ length: 5 }, () => openDatabase({ engine: 'postgres', url: created.url }, { logger: silentLogger })));
      const rows = await databases[0]!.db.selectFrom('schema_migrations').select('version').execute();
      expect(rows).toHaveLength(migrations.length);
      await Promise.all(databases.map((database) => database.close()));
    } finally {
      await created.drop();
    }
  });

  it('refuses a database written by a newer version of the site, naming DATABASE_URL', async () => {
    const created = await createTestDatabase();
    try {
      const database = await openDatabase({ engine: 'postgres', url: created.url }, { logger: silentLogger });
      await database.db.insertInto('schema_migrations').values({ version: migrations.length + 1, applied_at: 0 }).execute();
      await database.close();
      await expect(openDatabase({ engine: 'postgres', url: created.url }, { logger: silentLogger })).rejects.toThrow(
        /^DATABASE_URL postgres:\/\/.* was written by a newer version of this site/,
      );
    } finally {
      await created.drop();
    }
  });

  it('says the server refused the connection, without the password', async () => {
    const url = `postgres://site:hunter2-secret@127.0.0.1:${await freePort()}/auctions`;
    const error = await openDatabase({ engine: 'postgres', url }, { logger: silentLogger }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as Error).message).toMatch(/^DATABASE_URL postgres:\/\/site:\*\*\*@127\.0\.0\.1:\d+\/auctions refused the connection/);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('uses TLS as the URL\'s sslmode says: require fails against a server without TLS, disable connects', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('sslmode', 'require');
    await expect(openDatabase({ engine: 'postgres', url: url.href }, { logger: silentLogger })).rejects.toThrow(/does not support SSL/);
    const created = await createTestDatabase();
    try {
      const plain = new URL(created.url);
      plain.searchParams.set('sslmode', 'disable');
      await (await openDatabase({ engine: 'postgres', url: plain.href }, { logger: silentLogger })).close();
    } finally {
      await created.drop();
    }
  });

  it('says the database does not exist', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/no_such_database_here';
    await expect(openDatabase({ engine: 'postgres', url: url.href }, { logger: silentLogger })).rejects.toThrow(/names a database that does not exist/);
  });
});

describe('SQLite', () => {
  const open = (file: string, readOnly = false) => openDatabase({ engine: 'sqlite', file }, { logger: silentLogger, readOnly });

  it('creates the file and its folder on first start, in WAL mode', async () => {
    const file = path.join(temp.dir(), 'nested/folder/clicks.sqlite');
    const database = await open(file);
    await database.close();
    expect(existsSync(file)).toBe(true);
    const raw = new BetterSqlite(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('keeps recorded clicks across a restart', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const first = await open(file);
    await createClickStore(first.db).record(click());
    await first.close();
    const second = await open(file);
    expect(await second.db.selectFrom('clicks').select(['placement', 'day']).execute()).toEqual([{ placement: 'hero', day: '2026-11-20' }]);
    await second.close();
  });

  it('upgrades a file from before the shared schema history, keeping its clicks', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const legacy = new BetterSqlite(file);
    legacy.exec(`CREATE TABLE clicks (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, day TEXT NOT NULL, placement TEXT NOT NULL, page TEXT NOT NULL,
      referrer_host TEXT, device TEXT NOT NULL, visitor TEXT NOT NULL, via TEXT NOT NULL);
      CREATE INDEX clicks_by_day ON clicks (day, placement);
      CREATE TABLE daily_totals (day TEXT NOT NULL, placement TEXT NOT NULL, clicks INTEGER NOT NULL, visitors INTEGER NOT NULL, PRIMARY KEY (day, placement)) WITHOUT ROWID;
      INSERT INTO clicks (at, day, placement, page, device, visitor, via) VALUES (0, '2026-11-01', 'bonus', '/', 'mobile', 'x', 'ping');
      PRAGMA user_version = 1;`);
    legacy.close();
    const database = await open(file);
    expect(await database.db.selectFrom('clicks').select('placement').execute()).toEqual([{ placement: 'bonus' }]);
    expect(await database.db.selectFrom('schema_migrations').select('version').execute()).toHaveLength(migrations.length);
    await database.close();
  });

  it('refuses a file that is not a SQLite database, saying so', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    writeFileSync(file, 'this is not a database, just some text that happens to be long enough '.repeat(20));
    await expect(open(file)).rejects.toThrow(DatabaseError);
    await expect(open(file)).rejects.toThrow(/damaged or not a SQLite database/);
  });

  it('refuses a database whose pages are damaged', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await open(file);
    const store = createClickStore(database.db);
    for (let i = 0; i < 2000; i += 1) await store.record(click({ visitor: `visitor-${i}` }));
    await database.close();
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 4096, 4096 * 4);
    writeFileSync(file, bytes);
    await expect(open(file)).rejects.toThrow(DatabaseError);
  });

  it('refuses a database written by a newer version of the site', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await open(file);
    await database.db.insertInto('schema_migrations').values({ version: migrations.length + 1, applied_at: 0 }).execute();
    await database.close();
    await expect(open(file)).rejects.toThrow(new RegExp(`^CLICKS_DB ${file} was written by a newer version`));
  });

  it('says so when CLICKS_DB names a folder, instead of blaming permissions', async () => {
    const folder = path.join(temp.dir(), 'stats');
    mkdirSync(folder);
    await expect(open(folder)).rejects.toThrow(`CLICKS_DB ${folder} is a folder; name a file inside it, such as ${folder}/clicks.sqlite`);
    expect(statSync(folder).isDirectory()).toBe(true);
  });

  it('refuses a path it cannot create, naming it', async () => {
    const blocker = path.join(temp.dir(), 'a-file');
    writeFileSync(blocker, '');
    const file = path.join(blocker, 'clicks.sqlite');
    await expect(open(file)).rejects.toThrow(new RegExp(`CLICKS_DB ${file} cannot be opened for writing`));
  });

  describe('read-only (npm run stats)', () => {
    it('says the database does not exist yet', async () => {
      await expect(open(path.join(temp.dir(), 'missing.sqlite'), true)).rejects.toThrow(/no click database at .*missing\.sqlite yet/);
    });

    it('refuses a SQLite file that is not a click database', async () => {
      const file = path.join(temp.dir(), 'other.sqlite');
      new BetterSqlite(file).exec('CREATE TABLE t (a)');
      await expect(open(file, true)).rejects.toThrow(/not a click database/);
    });

    it('reads while a writer has the database open', async () => {
      const file = path.join(temp.dir(), 'clicks.sqlite');
      const writer = await open(file);
      await createClickStore(writer.db).record(click());
      const reader = await open(file, true);
      expect(await reader.db.selectFrom('clicks').select('placement').execute()).toEqual([{ placement: 'hero' }]);
      await reader.close();
      await writer.close();
    });
  });
});
