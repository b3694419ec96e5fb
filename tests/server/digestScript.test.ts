import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { main as digestMain, textFileOf } from '../../scripts/digest';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { engines, openTestDatabase } from '../support/engines';
import { parseHtml } from '../support/html';
import { click, view } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';
import { runScript } from '../support/scriptProcess';

const temp = useTempDir();

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await digestMain(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

/** The real command, through tsx, as an operator would run it. */
const runDigest = (argv: string[], env: Record<string, string>) => runScript('scripts/digest.ts', argv, env);

describe.each(engines)('npm run digest on %s', (engine) => {
  /** A database of the engine the command can open by its environment, with a week of views and clicks in it. */
  async function digestDatabase() {
    const opened =
      engine === 'postgres'
        ? await openTestDatabase(engine).then((test) => ({ db: test.database.db, env: { DATABASE_URL: test.url! }, close: () => test.close() }))
        : await openDatabase({ engine, file: path.join(temp.dir(), 'clicks.sqlite') }, { logger: silentLogger }).then((database) => ({
            db: database.db,
            env: { CLICKS_DB: path.join(temp.dir(), 'clicks.sqlite') },
            close: () => database.close(),
          }));
    for (const [at, visitor] of [['2026-01-13T08:00:00Z', 'a'], ['2026-01-14T08:00:00Z', 'b'], ['2026-01-07T08:00:00Z', 'c']] as const) {
      await createViewStore(opened.db).record(view({ at: new Date(at), visitor }));
    }
    await createClickStore(opened.db).record(click({ at: new Date('2026-01-13T08:01:00Z'), visitor: 'a' }));
    return opened;
  }

  it('writes the HTML and its text part for the week asked for, sending nothing', async () => {
    const database = await digestDatabase();
    try {
      const file = path.join(temp.dir(), 'digest.html');
      const { code, stdout, stderr } = await runDigest(['--to', file, '--week-ending', '2026-01-18'], {
        ...database.env,
        SITE_URL: 'https://auctions.example.com',
        CONTACT_EMAIL: 'owner@auctions.example.com',
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toBe(
        `Subject: Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18: 2 visitors (+100%), 0 conversions, 0.00 USD\nWrote ${file} and ${path.join(temp.dir(), 'digest.txt')} (not sent)\n`,
      );
      const page = parseHtml(readFileSync(file, 'utf8'));
      expect(page.all('table.compare tbody tr')[0]!.children().map((cell) => cell.text())).toEqual(['Visitors', '2', '1', '+100%']);
      expect(page.all('a').map((link) => link.attr('href'))[0]).toBe('https://auctions.example.com/admin?from=2026-01-12&to=2026-01-18');
      expect(readFileSync(path.join(temp.dir(), 'digest.txt'), 'utf8')).toMatch(/^Visitors +2 +1 +\+100%$/m);
      expect(await database.db.selectFrom('outbox').select('id').execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('npm run digest’s arguments', () => {
  it.each([
    [[], '--to FILE.html is required: where to write the digest'],
    [['--to'], "Option '--to <value>' argument missing"],
    [['--to', 'x.html', '--days', '7'], "Unknown option '--days'"],
    [['--to', 'x.html', '--week-ending', '2026-02-30'], '--week-ending must be a date written YYYY-MM-DD, got "2026-02-30"'],
    [['--to', 'x.html', '--week-ending', '2000-01-05'], '--week-ending must leave two weeks after 2000-01-01, got "2000-01-05"'],
  ])('exits 64 with one line for %j', async (argv, message) => {
    const { code, out, err } = await run(argv, { CLICKS_DB: path.join(temp.dir(), 'none.sqlite') });
    expect({ code, out }).toEqual({ code: 64, out: '' });
    expect(err).toBe(`digest: ${message} (usage: npm run digest -- --to FILE.html [--week-ending YYYY-MM-DD] [--db FILE])\n`);
  });

  it('exits 1 with one line when there is no database, writing nothing', async () => {
    const file = path.join(temp.dir(), 'digest.html');
    const { code, err } = await run(['--to', file, '--db', path.join(temp.dir(), 'none.sqlite')]);
    expect(code).toBe(1);
    expect(err).toMatch(/^digest: there is no click database at .*none\.sqlite yet[^\n]*\n$/);
    expect(existsSync(file)).toBe(false);
  });

  it('exits 1 with one line when the file cannot be written', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
    await database.close();
    const { code, err } = await run(['--to', path.join(temp.dir(), 'no-such-folder', 'digest.html'), '--db', file]);
    expect(code).toBe(1);
    expect(err).toMatch(/^digest: cannot write the digest: ENOENT[^\n]*\n$/);
  });

  it('puts the text part beside the HTML', () => {
    expect([textFileOf('digest.html'), textFileOf('out/Digest.HTM'), textFileOf('digest')]).toEqual(['digest.txt', 'out/Digest.txt', 'digest.txt']);
  });
});
