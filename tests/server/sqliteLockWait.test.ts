import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { isLockedError, waitingForLock } from '../../server/db/sqliteLockWait';
import { silentLogger } from '../../server/lib/logger';
import { createStatsStores } from '../../server/statsStores';
import { sendReport } from '../support/beaconReports';
import { useTempDir } from '../support/tempDir';
import { createTestApp } from '../support/testApp';
import request from 'supertest';

/**
 * While another process holds the SQLite file's write lock (an import, costs:set, a restore), the server's
 * writes wait for it between tries, off the serving thread (server/db/sqliteLockWait.ts): pages answer
 * meanwhile, and a report waiting for the lock is recorded and acknowledged once it is free. The other
 * process is played by a second connection in this one, which also shows that the wait leaves the thread
 * free: had the server waited inside the statement, the lock could never be released while it waited.
 */
const temp = useTempDir();

/** A second connection to the file, holding its write lock until release(). */
function holdWriteLock(file: string) {
  const other = new BetterSqlite(file);
  other.exec('begin immediate');
  return {
    release: () => {
      other.exec('commit');
      other.close();
    },
  };
}

const pending = <T,>(promise: Promise<T>) => {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, isSettled: () => settled };
};

describe('the server on SQLite while another connection holds the write lock', () => {
  let database: AppDatabase;
  let file: string;
  beforeEach(async () => {
    file = path.join(temp.dir(), 'clicks.sqlite');
    database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
  });
  afterEach(() => database.close());

  const clickRow = (visitor: string) => ({ at: Date.now(), day: '2026-11-28', placement: 'hero', page: '/', referrer_host: null, device: 'mobile', visitor, via: 'beacon' });

  it('waits for the lock off the thread, then writes: the thread ran on meanwhile', async () => {
    const lock = holdWriteLock(file);
    const insert = pending(database.db.insertInto('clicks').values(clickRow('waiting')).execute());
    // The event loop turns while the write waits: under SQLite's own busy timeout the thread would have sat in the
    // statement until it gave up, and the write would be settled (failed) by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(insert.isSettled()).toBe(false);
    lock.release();
    await insert.promise;
    expect(await database.db.selectFrom('clicks').select('visitor').execute()).toEqual([{ visitor: 'waiting' }]);
  });

  it('begins a transaction immediate, waiting for the lock at BEGIN, and commits all of it', async () => {
    const lock = holdWriteLock(file);
    const transaction = pending(
      database.db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
        await trx.insertInto('clicks').values(clickRow(`after-${before.count}`)).execute();
        await trx.insertInto('clicks').values(clickRow('second')).execute();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(transaction.isSettled()).toBe(false);
    lock.release();
    await transaction.promise;
    expect((await database.db.selectFrom('clicks').select('visitor').orderBy('id').execute()).map((row) => row.visitor)).toEqual(['after-0', 'second']);
  });

  it('answers pages while a click waits for the lock, and acknowledges the click once it is written', async () => {
    const app = await createTestApp({ TRUST_PROXY: 'true' }, { stores: createStatsStores(database) });
    const lock = holdWriteLock(file);
    let released = false;
    try {
      const click = pending(sendReport(app, '/api/clicks', { placement: 'hero', page: '/', referrer: '' }).then((response) => response));
      const page = await request(app).get('/');
      expect(page.status).toBe(200);
      expect(click.isSettled()).toBe(false);
      lock.release();
      released = true;
      expect((await click.promise).status).toBe(204);
      expect(await database.db.selectFrom('clicks').select('placement').execute()).toEqual([{ placement: 'hero' }]);
    } finally {
      if (!released) lock.release();
    }
  });
});

describe('waitingForLock', () => {
  const locked = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('tries again while the file is locked, and returns what the try that got it returned', async () => {
    let tries = 0;
    await expect(
      waitingForLock(async () => {
        tries += 1;
        if (tries < 4) throw locked();
        return 'written';
      }),
    ).resolves.toBe('written');
    expect(tries).toBe(4);
  });

  it('gives up with the locked error once the wait is over, as the busy timeout did', async () => {
    let tries = 0;
    const failure = await waitingForLock(async () => {
      tries += 1;
      throw locked();
    }, 30).catch((error: unknown) => error);
    expect(isLockedError(failure)).toBe(true);
    expect(tries).toBeGreaterThan(1);
  });

  it('does not try again after any other error', async () => {
    let tries = 0;
    const failure = new Error('no such table: clicks');
    await expect(
      waitingForLock(async () => {
        tries += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(tries).toBe(1);
  });
});
