import { readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { createClickStore } from '../../server/clicks/clickStore';
import { migrations } from '../../server/db/migrations/index';
import { DatabaseError, openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines, useTestDatabase } from '../support/engines';
import { freePort } from '../support/mainProcess';
import { createTestDatabase } from '../support/postgres';
import { click } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

describe.each(engines)('on %s', (engine) => {
  const testDatabase = useTestDatabase(engine);
  const { db } = testDatabase;

  describe('migrations', () => {
    it('record every step once and apply none twice on the next start', async () => {
      const versions = async () => (await db().selectFrom('schema_migrations').select('version').orderBy('version').execute()).map((row) => row.version);
      expect(await versions()).toEqual(migrations.map((_, index) => index + 1));
      if (engine === 'postgres') {
        const again = await openDatabase({ engine, url: testDatabase.opened.url! }, { logger: silentLogger });
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
