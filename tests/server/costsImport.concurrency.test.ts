import { writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { Client } from 'pg';
import { main as importMain } from '../../scripts/costs-import';
import { readCosts, replaceCosts } from '../../server/costs/costStore';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { addDays } from '../../server/lib/utcDay';
import { costSumsHeldAndDue } from '../support/costSums';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

/**
 * Two instances importing costs into one database at the same moment (issue 27): the same file twice
 * must store what one import stores, with no error and no amount doubled; two overlapping corrected
 * reports must leave each key at one file's amount, never a sum. Real `npm run costs:import` processes;
 * each test first holds what both will write (PostgreSQL: the first key they share, in an open transaction;
 * SQLite: the write lock), so both are writing before either can finish, then lets them race.
 */

const temp = useTempDir();
const firstDay = '2026-01-01';

interface Cost {
  day: string;
  source: string;
  campaign: string;
  content: string;
  cents: number;
}

/** `days` days from `firstDay` + `from`, of 40 campaigns, a third of them with two ads: 54 rows a day. `delta` cents are added to each amount. */
function costs(from: number, days: number, delta = 0): Cost[] {
  const rows: Cost[] = [];
  for (let d = from; d < from + days; d++) {
    for (let c = 0; c < 40; c++) {
      const ads = c % 3 === 0 ? ['ad-1', 'ad-2'] : [''];
      ads.forEach((content, a) => rows.push({ day: addDays(firstDay, d), source: c % 2 === 0 ? 'facebook' : 'google', campaign: `campaign-${c}`, content, cents: 100 + d * 7 + c * 13 + a + delta }));
    }
  }
  return rows;
}

const keyOf = (row: Pick<Cost, 'day' | 'source' | 'campaign' | 'content'>) => `${row.day}|${row.source}|${row.campaign}|${row.content}`;

function writeCsv(name: string, rows: readonly Cost[]): string {
  const file = path.join(temp.dir(), name);
  const lines = rows.map((row) => `${row.day},${row.source},${row.campaign},${row.content},${(row.cents / 100).toFixed(2)},USD`);
  writeFileSync(file, `day,source,campaign,content,cost,currency\n${lines.join('\n')}\n`);
  return file;
}

/** The key the store writes first of those both files hold: it writes in this order (costStore's keyOf). */
function firstSharedKey(a: readonly Cost[], b: readonly Cost[]): Cost {
  const order = (row: Cost) => JSON.stringify([row.day, row.source, row.campaign, row.content, 'USD']);
  const inB = new Set(b.map(keyOf));
  return a.filter((row) => inB.has(keyOf(row))).sort((x, y) => (order(x) < order(y) ? -1 : 1))[0]!;
}

/** What one run printed it wrote. */
function written(stdout: string): { changed: number; unchanged: number } {
  const match = /\nwritten: (\d+) new or changed, (\d+) already held\n$/.exec(stdout);
  if (!match) throw new Error(`no "written" line in: ${stdout}`);
  return { changed: Number(match[1]), unchanged: Number(match[2]) };
}

/** Every stored cost, key → micros. */
/** The costs held, by key; and, since the report reads them summed ahead, it checks the sums kept agree with them. */
async function stored(settings: DatabaseSettings): Promise<Map<string, number>> {
  const database = await openDatabase(settings, { logger: silentLogger });
  try {
    const rows = await readCosts(database.db, { from: firstDay, to: addDays(firstDay, 365) });
    const { held, due } = await costSumsHeldAndDue(database.db);
    expect(held).toEqual(due);
    return new Map(rows.map((row) => [keyOf(row), row.amountMicros]));
  } finally {
    await database.close();
  }
}

/** A created, migrated database, as a running site leaves it. */
async function migrated(settings: DatabaseSettings) {
  const database = await openDatabase(settings, { logger: silentLogger });
  await database.close();
}

const microsOf = (rows: readonly Cost[]) => new Map(rows.map((row) => [keyOf(row), row.cents * 10_000]));

/**
 * Each key at exactly one of the two files' amounts, never a sum or a mix. With `oneTransaction` (PostgreSQL,
 * where an import is one transaction) the keys both hold are all at the same file's: the one committed last.
 */
function expectOneFilePerKey(result: Map<string, number>, a: readonly Cost[], b: readonly Cost[], { oneTransaction }: { oneTransaction: boolean }) {
  const fromA = microsOf(a);
  const fromB = microsOf(b);
  expect([...result.keys()].sort()).toEqual([...new Set([...fromA.keys(), ...fromB.keys()])].sort());
  const shared = [...fromA.keys()].filter((key) => fromB.has(key));
  expect(shared.length).toBeGreaterThan(0);
  for (const [key, micros] of result) {
    const allowed = [fromA.get(key), fromB.get(key)].filter((value) => value !== undefined);
    if (!allowed.includes(micros)) throw new Error(`${key} holds ${micros}, neither file's amount (${allowed.join(' or ')})`);
  }
  const winners = new Set(shared.map((key) => (result.get(key) === fromA.get(key) ? 'a' : 'b')));
  if (oneTransaction) expect(winners.size).toBe(1);
}

describe('two costs:import at once on PostgreSQL', () => {
  let postgres: TestDatabase;
  let settings: DatabaseSettings;
  beforeEach(async () => {
    postgres = await createTestDatabase();
    settings = { engine: 'postgres', url: postgres.url };
    await migrated(settings);
  });
  afterEach(() => postgres.drop());

  /**
   * Starts the two imports while a transaction of the test holds `key` (inserted, not committed), waits
   * until both wait on it (each has then written whatever it orders before it), and rolls back: both go on
   * at once. Returns both runs and whether both were seen waiting together.
   */
  async function raceOn(key: Cost, files: [string, string]) {
    const holder = new Client({ connectionString: postgres.url });
    // Watched from a connection of its own: inside the holder's transaction pg_stat_activity would stay as first read.
    const watcher = new Client({ connectionString: postgres.url });
    await holder.connect();
    await watcher.connect();
    try {
      await holder.query('begin');
      await holder.query(`insert into costs (day, source, campaign, content, currency, amount_micros, updated_at) values ($1, $2, $3, $4, 'USD', 1, 0)`, [key.day, key.source, key.campaign, key.content]);
      const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const runs = Promise.all(files.map((file) => runScript('scripts/costs-import.ts', [file], { DATABASE_URL: postgres.url })));
      let together = false;
      // An import waits at most 10 s on a statement (the pool's query timeout), so neither is held longer than 6 s.
      for (let waitedMs = 0, firstSeenMs: number | undefined; waitedMs < 60_000; waitedMs += 50) {
        const { rows } = await watcher.query<{ waiting: number }>('select count(*)::int as waiting from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))', [holderPid]);
        const waiting = rows[0]!.waiting;
        if (waiting >= 2) together = true;
        if (waiting >= 1) firstSeenMs ??= waitedMs;
        if (together || (firstSeenMs !== undefined && waitedMs - firstSeenMs > 6_000)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await holder.query('rollback');
      return { runs: await runs, together };
    } finally {
      await Promise.all([holder.end(), watcher.end()]);
    }
  }

  it('the same file twice at once stores what one import stores, with no error and nothing doubled', async () => {
    const rows = costs(0, 60);
    const file = writeCsv('costs.csv', rows);
    const { runs, together } = await raceOn(firstSharedKey(rows, rows), [file, file]);
    expect(together).toBe(true);
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    // Each row written once: one of the two counts it new, the other finds it held.
    const counts = runs.map((run) => written(run.stdout));
    expect(counts[0]!.changed + counts[1]!.changed).toBe(rows.length);
    expect(counts[0]!.unchanged + counts[1]!.unchanged).toBe(rows.length);
    expect(await stored(settings)).toEqual(microsOf(rows));
  }, 60_000);

  it('two overlapping corrected reports at once leave each key at one file’s amount, never a sum', async () => {
    const a = costs(0, 60);
    // Days 30 to 89, every amount corrected by 0.37, written in the opposite order.
    const b = costs(30, 60, 37).reverse();
    const { runs, together } = await raceOn(firstSharedKey(a, b), [writeCsv('a.csv', a), writeCsv('b.csv', b)]);
    expect(together).toBe(true);
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    expectOneFilePerKey(await stored(settings), a, b, { oneTransaction: true });
  }, 60_000);

  it('two main() calls at once, each on its own connection, do the same', async () => {
    const a = costs(0, 60);
    const b = costs(30, 60, 37).reverse();
    const run = async (file: string) => {
      let out = '';
      let err = '';
      const code = await importMain([file], { DATABASE_URL: postgres.url }, (text) => (out += text), (text) => (err += text));
      return { code, out, err };
    };
    const same = writeCsv('same.csv', a);
    const twice = await Promise.all([run(same), run(same)]);
    expect(twice.map(({ code, err }) => ({ code, err }))).toEqual([
      { code: 0, err: '' },
      { code: 0, err: '' },
    ]);
    expect(twice.map(({ out }) => written(out).changed).reduce((x, y) => x + y)).toBe(a.length);
    expect(await stored(settings)).toEqual(microsOf(a));

    const corrected = await Promise.all([run(writeCsv('a.csv', a.map((row) => ({ ...row, cents: row.cents + 11 })))), run(writeCsv('b.csv', b))]);
    expect(corrected.map(({ code, err }) => ({ code, err }))).toEqual([
      { code: 0, err: '' },
      { code: 0, err: '' },
    ]);
    expectOneFilePerKey(
      await stored(settings),
      a.map((row) => ({ ...row, cents: row.cents + 11 })),
      b,
      { oneTransaction: true },
    );
  }, 60_000);
});

describe('two costs:import at once on SQLite', () => {
  const file = () => path.join(temp.dir(), 'clicks.sqlite');

  /**
   * Starts the two imports while the test holds the file's write lock for 2.5 s (BEGIN IMMEDIATE), so
   * each finds the database busy (opening it proves a write, then the costs) and must wait its busy
   * timeout out (5 s) rather than fail; then both go on, one writer at a time.
   */
  async function raceOnLock(files: [string, string]) {
    await migrated({ engine: 'sqlite', file: file() });
    const holder = new BetterSqlite(file());
    try {
      holder.exec('begin immediate');
      const runs = Promise.all(files.map((csv) => runScript('scripts/costs-import.ts', [csv, '--db', file()])));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      holder.exec('commit');
      return await runs;
    } finally {
      holder.close();
    }
  }

  it('the same file twice at once stores what one import stores: the busy timeout holds', async () => {
    // A year of 40 campaigns (19,710 rows): several of SQLite's 40 ms slices each.
    const rows = costs(0, 365);
    const csv = writeCsv('costs.csv', rows);
    const runs = await raceOnLock([csv, csv]);
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    // Each row written once; the two may take turns slice by slice, so either may count some.
    const counts = runs.map((run) => written(run.stdout));
    expect(counts[0]!.changed + counts[1]!.changed).toBe(rows.length);
    expect(counts[0]!.unchanged + counts[1]!.unchanged).toBe(rows.length);
    expect(await stored({ engine: 'sqlite', file: file() })).toEqual(microsOf(rows));
  }, 60_000);

  it('two overlapping corrected reports at once leave each key at one file’s amount, never a sum', async () => {
    const a = costs(0, 200);
    const b = costs(100, 200, 37).reverse();
    const runs = await raceOnLock([writeCsv('a.csv', a), writeCsv('b.csv', b)]);
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    // SQLite writes an import in slices of about 40 ms (costStore's sqliteSliceMs), so two imports' slices
    // may take turns: each key is still one file's amount.
    expectOneFilePerKey(await stored({ engine: 'sqlite', file: file() }), a, b, { oneTransaction: false });
  }, 60_000);

  it('leaves the write lock free between slices of a long import, so another connection writes meanwhile', async () => {
    // What the server's click insert meets while an import writes: it must not wait out the whole import.
    // (In one process the tries run only while the import awaits its pause; across processes they would
    // also meet a slice and wait it out within the busy timeout.)
    const database = await openDatabase({ engine: 'sqlite', file: file() }, { logger: silentLogger });
    const other = new BetterSqlite(file());
    other.pragma('busy_timeout = 0');
    const insert = other.prepare('insert into job_runs (job, period, claimed_at) values (?, ?, 0)');
    const outcomes = { written: 0, busy: 0 };
    let tries = 0;
    const trying = setInterval(() => {
      try {
        insert.run('meanwhile', String((tries += 1)));
        outcomes.written += 1;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        outcomes.busy += 1;
      }
    }, 3);
    try {
      const rows = costs(0, 365).map((row) => ({ ...row, amountMicros: row.cents * 10_000, currency: 'USD' }));
      expect(await replaceCosts(database.db, rows)).toEqual({ changed: rows.length, unchanged: 0 });
    } finally {
      clearInterval(trying);
      other.close();
      await database.close();
    }
    // Tries in the pauses between slices wrote, so each slice had committed (one transaction for the whole
    // year, as before slices, let none in until it ended).
    expect(outcomes.written).toBeGreaterThan(0);
  }, 60_000);
});
