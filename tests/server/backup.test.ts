import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import * as esbuild from 'esbuild';
import { backupFileName, backupsToPrune } from '../../server/backup/backupFiles';
import { createDailyBackup } from '../../server/backup/dailyBackup';
import { backupSqlite } from '../../server/backup/sqliteBackup';
import { startBackgroundWork } from '../../server/backgroundWork';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger, type Logger } from '../../server/lib/logger';
import { projectRoot } from '../../server/lib/paths';
import { addDays } from '../../server/lib/utcDay';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { instanceSchedule } from '../../server/schedule/schedule';
import { createStatsStores } from '../../server/statsStores';
import { main as backupMain } from '../../scripts/backup';
import { everyTableRows, writeEveryTable } from '../support/everyTableRows';
import { errorLines, startListeningMain, stopMain } from '../support/listeningMain';
import { waitForOutput } from '../support/mainProcess';
import { manualTimers } from '../support/manualTimers';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';
import { testConfig } from '../support/testApp';

const temp = useTempDir();

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await backupMain(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

const click = (visitor: string): Click => ({ at: new Date(), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon' });

async function openSite(file: string): Promise<AppDatabase> {
  return openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
}

/** A copy opened on its own, as a restore or an operator would. */
function inspect(file: string) {
  const copy = new BetterSqlite(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: copy.pragma('integrity_check', { simple: true }),
      journalMode: copy.pragma('journal_mode', { simple: true }),
      clickIds: copy.prepare('select id from clicks order by id').pluck().all() as number[],
    };
  } finally {
    copy.close();
  }
}

/** A site's database with this many clicks, written in one transaction (enough pages that the copy takes many steps). */
async function siteWithClicks(count: number): Promise<{ file: string; database: AppDatabase }> {
  const file = path.join(temp.dir(), 'data', 'clicks.sqlite');
  const database = await openSite(file);
  const day = new Date().toISOString().slice(0, 10);
  await database.db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, index) => ({ at: Date.now(), day, placement: 'hero', page: '/', referrer_host: 'www.example.com', device: 'mobile', visitor: `visitor-${start + index}-${'v'.repeat(80)}`, via: 'beacon' }));
      await trx.insertInto('clicks').values(rows).execute();
    }
  });
  return { file, database };
}

describe('backupSqlite', () => {
  it('copies while the site goes on writing: the copy passes integrity_check and holds every row committed before it started', async () => {
    const { file, database } = await siteWithClicks(40_000);
    const clicks = createClickStore(database.db);
    const dir = path.join(temp.dir(), 'backups');
    mkdirSync(dir);
    try {
      let writing = true;
      let written = 0;
      // Each click its own turn of the event loop, as requests arrive (a store's write settles in microtasks).
      const writer = (async () => {
        while (writing) {
          await clicks.record(click(`during-${written}`));
          written += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await new Promise((resolve) => setImmediate(resolve));
      const committedBefore = Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const writtenBefore = written;
      const result = await backupSqlite({ source: file, dir, now: new Date('2026-11-25T03:00:00Z') }).finally(() => {
        writing = false;
      });
      await writer;

      expect(result.file).toBe(path.join(dir, 'clicks-2026-11-25.sqlite'));
      // The writes went on while the copy was made (its steps yield to them), and none of them blocked it.
      expect(written - writtenBefore).toBeGreaterThan(0);
      const copy = inspect(result.file);
      expect(copy.integrity).toBe('ok');
      expect(copy.journalMode).toBe('delete');
      expect(copy.clickIds.length).toBe(result.counts.clicks);
      expect(copy.clickIds.slice(0, committedBefore)).toEqual(Array.from({ length: committedBefore }, (_, index) => index + 1));
      expect(result.counts.clicks).toBeGreaterThanOrEqual(committedBefore);
      // Only the copy is left in the folder: the temporary name was renamed, not left behind.
      expect(readdirSync(dir)).toEqual(['clicks-2026-11-25.sqlite']);
    } finally {
      await database.close();
    }
  }, 30_000);

  it('keeps every table with every row', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openSite(file);
    const dir = path.join(temp.dir(), 'backups');
    mkdirSync(dir);
    try {
      await writeEveryTable(database);
      const expected = await everyTableRows(database);
      for (const [table, rows] of Object.entries(expected)) expect({ table, rows: rows.length > 0 }).toEqual({ table, rows: true });
      const { file: copyFile, counts } = await backupSqlite({ source: file, dir, now: new Date() });
      expect(counts).toEqual(Object.fromEntries(Object.entries(expected).map(([table, rows]) => [table, rows.length])));
      const copy = await openDatabase({ engine: 'sqlite', file: copyFile }, { logger: silentLogger, readOnly: true });
      try {
        expect(await everyTableRows(copy)).toEqual(expected);
      } finally {
        await copy.close();
      }
    } finally {
      await database.close();
    }
  });
});

describe('the retention of backups', () => {
  const dayNames = (first: string, count: number) => Array.from({ length: count }, (_, index) => backupFileName(addDays(first, index)));

  it('keeps the newest 7 copies and the newest of each of the 4 weeks before them', () => {
    // 2026-09-01 (a Tuesday) to 2026-11-25 (a Wednesday): 86 daily copies.
    const names = dayNames('2026-09-01', 86);
    const pruned = new Set(backupsToPrune(names));
    const kept = names.filter((name) => !pruned.has(name));
    expect(kept).toEqual([
      // Of the older copies, the newest of each week (Monday to Sunday, UTC), for the 4 newest such weeks:
      // the weeks of Monday 10-26, 11-02 and 11-09 end on their Sundays; of the week of 11-16, the Wednesday
      // 11-18 is the newest left before the 7 newest.
      'clicks-2026-11-01.sqlite',
      'clicks-2026-11-08.sqlite',
      'clicks-2026-11-15.sqlite',
      'clicks-2026-11-18.sqlite',
      ...dayNames('2026-11-19', 7),
    ]);
  });

  it('touches no file but its own names', () => {
    expect(backupsToPrune(['notes.txt', 'clicks.sqlite', 'clicks-2026-02-30.sqlite', 'clicks-2026-11-01.sqlite.bak', ...dayNames('2026-10-01', 7)])).toEqual([]);
  });

  it('prunes the folder after each backup, keeping exactly the stated copies and every other file', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openSite(file);
    await database.close();
    const dir = path.join(temp.dir(), 'backups');
    mkdirSync(dir);
    const others = ['notes.txt', 'clicks-2026-01-01.sqlite.keep', 'clicks.sqlite'];
    for (const name of [...others, ...dayNames('2026-09-01', 85)]) writeFileSync(path.join(dir, name), 'not really a backup');
    const { pruned } = await backupSqlite({ source: file, dir, now: new Date('2026-11-25T12:00:00Z') });
    expect(pruned.length).toBe(86 - 11);
    expect(readdirSync(dir).sort()).toEqual(
      [...others, 'clicks-2026-11-01.sqlite', 'clicks-2026-11-08.sqlite', 'clicks-2026-11-15.sqlite', 'clicks-2026-11-18.sqlite', ...dayNames('2026-11-19', 7)].sort(),
    );
  });
});

describe('npm run backup', () => {
  it('writes the copy and lists every table with its rows', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openSite(file);
    await createClickStore(database.db).record(click('a'));
    const dir = path.join(temp.dir(), 'backups');
    mkdirSync(dir);
    try {
      const { code, out, err } = await run(['--to', dir], { CLICKS_DB: file });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).toContain(`Backed up ${file} to ${path.join(dir, backupFileName(new Date().toISOString().slice(0, 10)))}: integrity ok`);
      expect(out).toContain('  clicks: 1\n');
    } finally {
      await database.close();
    }
  });

  it.each([
    [[], '--to DIR is required'],
    [['--to'], "Option '--to <value>' argument missing"],
    [['--to', 'x', '--keep', '3'], "Unknown option '--keep'"],
    [['--to', ''], '--to DIR is required'],
    [['--to', 'x', '--db', ''], '--db needs a file name'],
  ])('exits 64 on bad arguments %j', async (argv, message) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(64);
    expect(out).toBe('');
    expect(err).toContain(message);
    expect(err).toContain('Usage: npm run backup -- --to DIR [--db FILE]');
  });

  it('exits 64 as a real process too', async () => {
    const { code, stderr } = await runScript('scripts/backup.ts', ['--to']);
    expect(code).toBe(64);
    expect(stderr).toContain('Usage: npm run backup');
  });

  describe('exits 1 with one line', () => {
    let file: string;
    beforeEach(async () => {
      file = path.join(temp.dir(), 'clicks.sqlite');
      await (await openSite(file)).close();
    });

    it('when DIR does not exist (it is not created: a typo should not make a folder)', async () => {
      const dir = path.join(temp.dir(), 'no-such-folder');
      const { code, err } = await run(['--to', dir, '--db', file]);
      expect({ code, err }).toEqual({ code: 1, err: `backup: the folder ${dir} does not exist; create it first\n` });
      expect(existsSync(dir)).toBe(false);
    });

    it('when DIR is a file', async () => {
      const { code, err } = await run(['--to', file, '--db', file]);
      expect({ code, err }).toEqual({ code: 1, err: `backup: ${file} is not a folder\n` });
    });

    it('when DIR cannot be written', async () => {
      // root writes through a folder's mode, so as root the test takes a folder no one can create files in.
      const dir = process.getuid?.() === 0 ? '/proc/self' : path.join(temp.dir(), 'read-only');
      if (dir !== '/proc/self') {
        mkdirSync(dir);
        chmodSync(dir, 0o555);
      }
      const { code, err } = await run(['--to', dir, '--db', file]);
      expect(code).toBe(1);
      expect(err).toMatch(new RegExp(`^backup: cannot write in ${dir} \\((EACCES|ENOENT|EPERM|EROFS)\\); check that the folder is writable by this user\\n$`));
    });

    it('when there is no database', async () => {
      const dir = temp.dir();
      const missing = path.join(dir, 'missing.sqlite');
      const { code, err } = await run(['--to', dir, '--db', missing]);
      expect({ code, err }).toEqual({ code: 1, err: `backup: there is no database at ${missing}\n` });
    });

    it('when the file is not a click database', async () => {
      const dir = path.join(temp.dir(), 'backups');
      mkdirSync(dir);
      const other = path.join(temp.dir(), 'other.sqlite');
      new BetterSqlite(other).exec('create table notes(text)');
      const { code, err } = await run(['--to', dir, '--db', other]);
      expect({ code, err }).toEqual({ code: 1, err: `backup: ${other} is not a click database (it has no schema_migrations table)\n` });
      expect(readdirSync(dir)).toEqual([]);
    });

    it('when DATABASE_URL is set', async () => {
      const { code, err } = await run(['--to', temp.dir()], { DATABASE_URL: 'postgres://user:secret@127.0.0.1:5432/site' });
      expect(code).toBe(1);
      expect(err).toBe('backup: DATABASE_URL is set: this command copies the SQLite file; back PostgreSQL up with pg_dump -Fc (see docs/backups.md)\n');
    });
  });
});

describe('the daily backup on the schedule (BACKUP_DIR)', () => {
  it('is one line of the schedule: every hour and at start, nothing claimed (SQLite has one instance)', () => {
    const backup = async () => undefined;
    expect(instanceSchedule({ backup }).map(({ name, everyMs, atStart, claim }) => ({ name, everyMs, atStart, claim }))).toEqual([
      { name: 'the daily backup', everyMs: 3_600_000, atStart: true, claim: undefined },
    ]);
  });

  function recordingLogger() {
    const lines: string[] = [];
    const logger: Logger = { info: (line) => void lines.push(line), warning: (line) => void lines.push(`warning: ${line}`), error: (line) => void lines.push(`error: ${line}`) };
    return { logger, lines };
  }

  it('copies once a day, at start and after each midnight UTC, and keeps the stated copies', async () => {
    // With the build's worker (jest's global setup builds it) the copy is made off this thread, as in production; unbuilt, in it.
    const file = path.join(temp.dir(), 'data', 'clicks.sqlite');
    const dir = path.join(temp.dir(), 'backups');
    const config = testConfig({ CLICKS_DB: file, BACKUP_DIR: dir });
    const database = await openSite(file);
    const stores = createStatsStores(database, inProcessReportReader(database.db));
    await createClickStore(database.db).record(click('a'));
    const clock = manualTimers();
    const start = Date.parse('2026-11-25T22:30:00Z');
    const { logger, lines } = recordingLogger();
    const background = startBackgroundWork(config, stores, { logger, timers: clock.timers, now: () => start + clock.now() });
    const backups = () => readdirSync(dir).sort();
    const backedUp = () => lines.filter((line) => line.startsWith('Backed up'));
    try {
      await waitFor(() => backedUp().length === 1);
      expect(backups()).toEqual(['clicks-2026-11-25.sqlite']);
      expect(backedUp()).toEqual([
        expect.stringMatching(new RegExp(`^Backed up ${escape(file)} to ${escape(path.join(dir, 'clicks-2026-11-25.sqlite'))} \\(integrity ok, \\d+ rows in \\d+ tables as in the database\\)$`)),
      ]);
      expect(inspect(path.join(dir, 'clicks-2026-11-25.sqlite')).clickIds).toEqual([1]);

      // An hour later, the same day (23:30): no second copy. Past midnight (00:30): the next day's.
      await clock.advance(3_600_000);
      expect(backedUp().length).toBe(1);
      await clock.advance(3_600_000);
      await waitFor(() => backedUp().length === 2);
      expect(backups()).toEqual(['clicks-2026-11-25.sqlite', 'clicks-2026-11-26.sqlite']);

      // Twelve more days, to 12-08: the 7 newest, then the newest of each week before them (11-30's and 11-23's).
      for (let day = 1; day <= 12; day += 1) {
        await clock.advance(86_400_000);
        await waitFor(() => backedUp().length === 2 + day);
      }
      expect(backups()).toEqual(['clicks-2026-11-29.sqlite', 'clicks-2026-12-01.sqlite', ...Array.from({ length: 7 }, (_, index) => backupFileName(addDays('2026-12-02', index)))]);
      expect(backedUp().at(-1)).toMatch(/; removed clicks-2026-11-30\.sqlite \(keeping 7 daily and 4 weekly copies\)$/);
      expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
    } finally {
      background.stop();
      await background.finish();
      await database.close();
    }
  }, 60_000);

  it('logs a failure once per look and tries again at the next', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const blocker = path.join(temp.dir(), 'a-file');
    writeFileSync(blocker, '');
    const config = testConfig({ CLICKS_DB: file, BACKUP_DIR: blocker });
    const database = await openSite(file);
    const stores = createStatsStores(database, inProcessReportReader(database.db));
    const clock = manualTimers();
    const { logger, lines } = recordingLogger();
    const background = startBackgroundWork(config, stores, { logger, timers: clock.timers, now: () => Date.parse('2026-11-25T10:00:00Z') + clock.now() });
    try {
      const failures = () => lines.filter((line) => line.startsWith('error'));
      const failure = `error: the daily backup failed: ${blocker} is not a folder; it runs again in 3600 s`;
      await waitFor(() => failures().length === 1);
      expect(failures()).toEqual([failure]);
      await clock.advance(3_600_000);
      await waitFor(() => failures().length === 2);
      expect(failures()).toEqual([failure, failure]);
    } finally {
      background.stop();
      await background.finish();
      await database.close();
    }
  });
});

describe('the built server with BACKUP_DIR', () => {
  it('backs up at start-up, off its serving thread, and says so in one line', async () => {
    const file = path.join(temp.dir(), 'data', 'clicks.sqlite');
    const dir = path.join(temp.dir(), 'backups');
    const server = await startListeningMain({ CLICK_STATS: 'on', CLICKS_DB: file, BACKUP_DIR: dir });
    try {
      const [line] = await waitForOutput(server, /Backed up .*\n/);
      const today = new Date().toISOString().slice(0, 10);
      expect(line).toMatch(new RegExp(`Backed up ${escape(file)} to ${escape(path.join(dir, backupFileName(today)))} \\(integrity ok, \\d+ rows in \\d+ tables as in the database\\)`));
      expect(inspect(path.join(dir, backupFileName(today))).integrity).toBe('ok');
      expect(errorLines(server.stderr())).toEqual([]);
    } finally {
      expect(await stopMain(server)).toBe(0);
    }
  }, 30_000);
});

describe('the daily backup in its worker thread', () => {
  let workerDir: string;
  beforeAll(async () => {
    // Bundled as build.ts bundles it, beside node_modules so that better-sqlite3 resolves, without waiting on (or racing) dist/.
    mkdirSync(path.join(projectRoot, 'node_modules', '.cache'), { recursive: true });
    workerDir = mkdtempSync(path.join(projectRoot, 'node_modules', '.cache', 'backup-worker-'));
    await esbuild.build({ absWorkingDir: projectRoot, entryPoints: ['server/backup/backupWorker.ts'], outfile: path.join(workerDir, 'backupWorker.cjs'), bundle: true, packages: 'external', platform: 'node', format: 'cjs', logLevel: 'warning' });
  });
  afterAll(() => rmSync(workerDir, { recursive: true, force: true }));

  it('makes and checks the copy there, and says what went wrong there', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openSite(file);
    await createClickStore(database.db).record(click('a'));
    await database.close();
    const dir = path.join(temp.dir(), 'backups');
    const lines: string[] = [];
    const backup = createDailyBackup({ source: file, dir, logger: { ...silentLogger, info: (line) => void lines.push(line) }, now: () => Date.parse('2026-11-25T00:30:00Z'), workerFile: path.join(workerDir, 'backupWorker.cjs') });
    expect(await backup.run()).toBe(path.join(dir, 'clicks-2026-11-25.sqlite'));
    expect(inspect(path.join(dir, 'clicks-2026-11-25.sqlite'))).toEqual({ integrity: 'ok', journalMode: 'delete', clickIds: [1] });
    expect(lines).toEqual([expect.stringMatching(/^Backed up .* \(integrity ok, \d+ rows in \d+ tables as in the database\)$/)]);
    // The day's copy is there: the next look leaves it.
    expect(await backup.run()).toBeUndefined();

    const broken = createDailyBackup({ source: path.join(temp.dir(), 'gone.sqlite'), dir, logger: silentLogger, now: () => Date.parse('2026-11-26T00:30:00Z'), workerFile: path.join(workerDir, 'backupWorker.cjs') });
    await expect(broken.run()).rejects.toThrow(`there is no database at ${path.join(temp.dir(), 'gone.sqlite')}`);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The backup runs in a worker thread: its end comes in real time, not on the hand-driven clock. */
async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

