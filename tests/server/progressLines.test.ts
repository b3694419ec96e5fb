import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { runScript, runScriptOnTerminal } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

/**
 * Long commands show their progress on standard error: on a terminal one line redrawn in place, on a pipe
 * whole lines (every PROGRESS_SECONDS, here 0: every update, so no test waits 10 s); --quiet none. Their
 * standard output and exit code are those of a run without progress.
 */

const temp = useTempDir();
const everyUpdate = { PROGRESS_SECONDS: '0' };
/** What a terminal's redrawn line starts with: a carriage return and erase-line. */
const redraw = '\r\x1b[2K';

/** A click database of about 4 MB (some 1,000 pages, four steps of the backup) with `clicks` raw clicks. */
async function clickDatabase(clicks: number, fillerRows = 0): Promise<string> {
  const file = path.join(temp.dir(), 'clicks.sqlite');
  const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${clicks})
    insert into clicks (at, day, placement, page, referrer_host, device, visitor, via)
    select 1763640000000 + i, '2026-11-20', 'hero', '/', null, 'mobile', 'v' || i, 'beacon' from n`.execute(database.db);
  if (fillerRows > 0) {
    await sql`create table filler (bytes blob)`.execute(database.db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${fillerRows}) insert into filler select randomblob(2000) from n`.execute(database.db);
  }
  await database.close();
  return file;
}

describe('npm run backup', () => {
  let file: string;
  let backups: string;
  beforeEach(async () => {
    file = await clickDatabase(10, 2_000);
    backups = path.join(temp.dir(), 'backups');
    mkdirSync(backups);
  });

  it('writes whole lines of pages copied on a pipe, and the same standard output as with --quiet', async () => {
    const shown = await runScript('scripts/backup.ts', ['--to', backups, '--db', file], everyUpdate);
    expect(shown.code).toBe(0);
    const lines = shown.stderr.split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines[0]).toMatch(/^backup: 0 of 1,\d{3} pages \(0%\)$/);
    for (const line of lines.slice(1, -2)) expect(line).toMatch(/^backup: [\d,]+ of 1,\d{3} pages \(\d+%\), [\d,]+ pages\/s, about \d+ s left$/);
    expect(lines.at(-2)).toMatch(/^backup: (1,\d{3}) of \1 pages \(100%\), [\d,]+ pages\/s$/);
    expect(lines.at(-1)).toBe("backup: copied; checking the copy (integrity_check, and every table's rows)");
    expect(shown.stderr).not.toContain('\r');

    const quiet = await runScript('scripts/backup.ts', ['--to', backups, '--db', file, '--quiet'], everyUpdate);
    expect(quiet).toEqual({ code: 0, stdout: shown.stdout, stderr: '' });
    expect(shown.stdout).toMatch(/^Backed up .* to .*clicks-\d{4}-\d{2}-\d{2}\.sqlite: integrity ok/);
  }, 60_000);

  it('writes nothing on a pipe before 10 s have passed', async () => {
    const { code, stderr } = await runScript('scripts/backup.ts', ['--to', backups, '--db', file]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('redraws one line on a terminal, with the rate and the time left, and clears it before the result', async () => {
    const { code, output } = await runScriptOnTerminal('scripts/backup.ts', ['--to', backups, '--db', file], everyUpdate);
    expect(code).toBe(0);
    const [progress, result] = splitAtLastRedraw(output);
    const drawn = progress.split(redraw).slice(1);
    expect(drawn.length).toBeGreaterThanOrEqual(3);
    expect(drawn.join('')).not.toMatch(/[\r\n]/);
    expect(drawn).toContainEqual(expect.stringMatching(/^backup: [\d,]+ of 1,\d{3} pages \(\d+%\), [\d,]+ pages\/s, about \d+ s left$/));
    expect(drawn.at(-1)).toBe("backup: copied; checking the copy (integrity_check, and every table's rows)");
    expect(result).toMatch(/^Backed up .* integrity ok/);
  });
});

describe('npm run db:copy', () => {
  let postgres: TestDatabase;
  beforeEach(async () => {
    postgres = await createTestDatabase({ migrated: true });
  });
  afterEach(() => postgres.drop());

  it('writes whole lines of rows copied on a pipe, and on a terminal one line cleared before the summary', async () => {
    const file = await clickDatabase(2_500);
    const piped = await runScript('scripts/db-copy.ts', ['--to', postgres.url, '--from', file], everyUpdate);
    expect(piped.code).toBe(0);
    expect(piped.stderr.split('\n').slice(0, -1)).toEqual([
      'db:copy: 0 of 2,500 rows (0%)',
      expect.stringMatching(/^db:copy: 1,000 of 2,500 rows \(40%\), [\d,]+ rows\/s, about \d+ s left$/),
      expect.stringMatching(/^db:copy: 2,000 of 2,500 rows \(80%\), [\d,]+ rows\/s, about \d+ s left$/),
      expect.stringMatching(/^db:copy: 2,500 of 2,500 rows \(100%\), [\d,]+ rows\/s$/),
    ]);
    expect(piped.stdout).toContain('  raw clicks: 2500 copied, 0 already there\n');

    // Again, on a terminal: every click is there already, and the summary says so after the cleared line.
    const { code, output } = await runScriptOnTerminal('scripts/db-copy.ts', ['--to', postgres.url, '--from', file], everyUpdate);
    expect(code).toBe(0);
    const [progress, result] = splitAtLastRedraw(output);
    expect(progress.split(redraw).slice(1)).toEqual([
      'db:copy: 0 of 2,500 rows (0%)',
      expect.stringMatching(/^db:copy: 1,000 of 2,500 rows \(40%\), /),
      expect.stringMatching(/^db:copy: 2,000 of 2,500 rows \(80%\), /),
      expect.stringMatching(/^db:copy: 2,500 of 2,500 rows \(100%\), [\d,]+ rows\/s$/),
    ]);
    expect(result).toMatch(/^Copied CLICKS_DB .* into DATABASE_URL .*:\r\n/);
    expect(result).toContain('  raw clicks: 0 copied, 2500 already there\r\n');
    // Two copies started as npm starts them, each a few seconds of tsx on a busy 2-core machine.
  }, 60_000);
});

/** A terminal's output split where the progress line was last cleared: what was drawn, and what came after. */
function splitAtLastRedraw(output: string): [string, string] {
  const at = output.lastIndexOf(redraw);
  return [output.slice(0, at), output.slice(at + redraw.length)];
}
