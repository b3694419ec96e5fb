import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ClickStoreError, openClickStore, openClickStoreReadOnly, type Click } from '../../server/clicks/clickStore';
import { migrations } from '../../server/clicks/migrations';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

function click(overrides: Partial<Click> = {}): Click {
  return {
    at: new Date('2026-11-20T12:00:00Z'),
    placement: 'hero',
    page: '/',
    referrerHost: null,
    device: 'mobile',
    visitor: 'v1',
    via: 'beacon',
    ...overrides,
  };
}

const isRoot = process.getuid?.() === 0;

describe('openClickStore', () => {
  it('creates the file and its folder on first start, in WAL mode, at the newest schema version', () => {
    const file = path.join(temp.dir(), 'nested/folder/clicks.sqlite');
    const store = openClickStore({ dbPath: file, retentionDays: 400 });
    expect(existsSync(file)).toBe(true);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    store.close();
  });

  it('keeps recorded clicks across a restart and applies no migration twice', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const first = openClickStore({ dbPath: file, retentionDays: 400 });
    first.record(click());
    first.close();
    const second = openClickStore({ dbPath: file, retentionDays: 400 });
    expect(second.db.prepare('SELECT placement, page, day, device, via FROM clicks').all()).toEqual([
      { placement: 'hero', page: '/', day: '2026-11-20', device: 'mobile', via: 'beacon' },
    ]);
    second.close();
  });

  it('refuses a file that is not a SQLite database, saying so', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    writeFileSync(file, 'this is not a database, just some text that happens to be long enough '.repeat(20));
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(ClickStoreError);
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(/damaged or not a SQLite database/);
  });

  it('refuses a database whose pages are damaged', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const store = openClickStore({ dbPath: file, retentionDays: 400 });
    const insert = store.db.prepare('INSERT INTO clicks (at, day, placement, page, device, visitor, via) VALUES (0, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 2000; i += 1) insert.run('2026-11-20', 'hero', '/', 'mobile', `visitor-${i}`, 'beacon');
    store.close();
    // Overwrite the second page onwards with garbage, keeping the valid header.
    const bytes = require('node:fs').readFileSync(file) as Buffer;
    bytes.fill(0x5a, 4096, 4096 * 4);
    writeFileSync(file, bytes);
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(ClickStoreError);
  });

  it('refuses a database written by a newer version of the site', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const db = new Database(file);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(/newer version/);
  });

  (isRoot ? it.skip : it)('refuses a read-only file, naming it', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    openClickStore({ dbPath: file, retentionDays: 400 }).close();
    chmodSync(file, 0o444);
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(new RegExp(`${file}.*cannot be opened for writing`));
  });

  it('refuses a path it cannot create, naming it', () => {
    const blocker = path.join(temp.dir(), 'a-file');
    writeFileSync(blocker, '');
    // A folder cannot be made inside a regular file, whoever runs the test (root included).
    const file = path.join(blocker, 'clicks.sqlite');
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(ClickStoreError);
    expect(() => openClickStore({ dbPath: file, retentionDays: 400 })).toThrow(new RegExp(file));
  });
});

describe('retention', () => {
  it('folds raw clicks older than the retention period into daily totals and deletes them', () => {
    const store = openClickStore({ dbPath: ':memory:', retentionDays: 10 }, new Date('2026-01-01T00:00:00Z'));
    store.record(click({ at: new Date('2026-11-01T10:00:00Z'), visitor: 'a' }));
    store.record(click({ at: new Date('2026-11-01T11:00:00Z'), visitor: 'a' }));
    store.record(click({ at: new Date('2026-11-01T12:00:00Z'), visitor: 'b', placement: 'bonus' }));
    store.record(click({ at: new Date('2026-11-19T12:00:00Z'), visitor: 'c' }));

    expect(store.foldOldClicks(new Date('2026-11-20T08:00:00Z'))).toBe(3);

    expect(store.db.prepare('SELECT day FROM clicks').all()).toEqual([{ day: '2026-11-19' }]);
    expect(store.db.prepare('SELECT day, placement, clicks, visitors FROM daily_totals ORDER BY placement').all()).toEqual([
      { day: '2026-11-01', placement: '*', clicks: 3, visitors: 2 },
      { day: '2026-11-01', placement: 'bonus', clicks: 1, visitors: 1 },
      { day: '2026-11-01', placement: 'hero', clicks: 2, visitors: 1 },
    ]);
    store.close();
  });

  it('folds at start-up', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const first = openClickStore({ dbPath: file, retentionDays: 400 });
    first.record(click({ at: new Date('2024-01-01T00:00:00Z') }));
    first.close();
    const second = openClickStore({ dbPath: file, retentionDays: 400 }, new Date('2026-11-21T00:00:00Z'));
    expect(second.db.prepare('SELECT count(*) AS n FROM clicks').get()).toEqual({ n: 0 });
    expect(second.db.prepare("SELECT clicks FROM daily_totals WHERE placement = 'hero'").get()).toEqual({ clicks: 1 });
    second.close();
  });
});

describe('openClickStoreReadOnly', () => {
  it('says the database does not exist yet', () => {
    expect(() => openClickStoreReadOnly(path.join(temp.dir(), 'missing.sqlite'))).toThrow(/no click database at .*missing\.sqlite yet/);
  });

  it('refuses a SQLite file that is not a click database', () => {
    const file = path.join(temp.dir(), 'other.sqlite');
    new Database(file).exec('CREATE TABLE t (a)');
    expect(() => openClickStoreReadOnly(file)).toThrow(/not a click database/);
  });

  it('reads while a writer has the database open', () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const writer = openClickStore({ dbPath: file, retentionDays: 400 });
    writer.record(click());
    const reader = openClickStoreReadOnly(file);
    expect(reader.prepare('SELECT count(*) AS n FROM clicks').get()).toEqual({ n: 1 });
    reader.close();
    writer.close();
  });
});
