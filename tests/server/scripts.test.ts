import path from 'node:path';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase } from '../../server/db/openDatabase';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { silentLogger } from '../../server/logger';
import { main as copyMain } from '../../scripts/db-copy';
import { main as statsMain } from '../../scripts/stats';
import { engines, openTestDatabase } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

async function run(main: typeof copyMain, argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

const today = new Date();
const click = (placement: string, visitor: string, at = today) => ({ at, placement, page: '/', referrerHost: null, device: 'mobile' as const, visitor, via: 'beacon' as const });

/** A SQLite file with raw clicks (two of them identical), a folded day and a link check. */
async function sqliteWithHistory(): Promise<string> {
  const file = path.join(temp.dir(), 'clicks.sqlite');
  const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
  const store = createClickStore(database.db, { retentionDays: 30 });
  const sameMoment = new Date(today.getTime() - 1000);
  await store.record(click('hero', 'a', sameMoment));
  await store.record(click('hero', 'a', sameMoment));
  await store.record(click('bonus', 'b'));
  await store.record(click('explainer', 'c', new Date('2025-01-15T10:00:00Z')));
  await store.foldOldClicks(today);
  await databaseLinkCheckLog(database.db, async () => true).add({
    checkedAt: new Date('2026-11-20T10:00:00Z'),
    url: 'https://partner.example.net/join',
    finalUrl: 'https://partner.example.net/join',
    status: 200,
    redirects: 0,
    ms: 80,
    verdict: 'ok',
  });
  await database.close();
  return file;
}

describe('npm run db:copy', () => {
  let target: TestDatabase;
  beforeEach(async () => {
    target = await createTestDatabase();
  });
  afterEach(() => target.drop());

  it('copies raw clicks, daily totals and link checks from SQLite into PostgreSQL, and says what it copied', async () => {
    const file = await sqliteWithHistory();
    const { code, out, err } = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('  raw clicks: 3 copied, 0 already there\n');
    expect(out).toContain('  daily totals: 2 copied, 0 already there\n');
    expect(out).toContain('  link checks: 1 copied, 0 already there\n');

    const stats = await run(statsMain, ['--json', '--from', '2025-01-01', '--to', today.toISOString().slice(0, 10)], { DATABASE_URL: target.url });
    const report = JSON.parse(stats.out);
    expect(report.all).toEqual({ clicks: 4, visitors: 3 });
  });

  it('changes nothing when run twice', async () => {
    const file = await sqliteWithHistory();
    await run(copyMain, ['--from', file, '--to', target.url]);
    const again = await run(copyMain, ['--from', file, '--to', target.url]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('  raw clicks: 0 copied, 3 already there\n');
    expect(again.out).toContain('  daily totals: 0 copied, 2 already there\n');
    expect(again.out).toContain('  link checks: 0 copied, 1 already there\n');
    const database = await openDatabase({ engine: 'postgres', url: target.url }, { logger: silentLogger });
    expect(await database.db.selectFrom('clicks').selectAll().execute()).toHaveLength(3);
    await database.close();
  });

  it('never prints the password of the target', async () => {
    const file = await sqliteWithHistory();
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

describe.each(engines)('npm run stats on %s', (engine) => {
  it('prints the same JSON shape: all, and totals[] rows with placement, clicks and visitors', async () => {
    const opened = await openTestDatabase(engine);
    try {
      const store = createClickStore(opened.database.db, { retentionDays: 400 });
      await store.record(click('hero', 'a'));
      await store.record(click('hero', 'b'));
      await store.record(click('bonus', 'a'));
      let env: Record<string, string>;
      if (engine === 'postgres') env = { DATABASE_URL: opened.url! };
      else {
        // The in-memory test database cannot be read from outside; copy the rows into a file.
        const file = path.join(temp.dir(), 'stats.sqlite');
        const fileDatabase = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
        const fileStore = createClickStore(fileDatabase.db, { retentionDays: 400 });
        for (const [placement, visitor] of [['hero', 'a'], ['hero', 'b'], ['bonus', 'a']] as const) await fileStore.record(click(placement, visitor));
        await fileDatabase.close();
        env = { CLICKS_DB: file };
      }
      const { code, out } = await run(statsMain, ['--json', '--days', '1'], env);
      expect(code).toBe(0);
      const report = JSON.parse(out);
      expect(report.all).toEqual({ clicks: 3, visitors: 2 });
      expect(report.totals[0]).toEqual({ placement: 'hero', clicks: 2, visitors: 2 });
      expect(report.totals.find((row: { placement: string }) => row.placement === 'bonus')).toEqual({ placement: 'bonus', clicks: 1, visitors: 1 });
    } finally {
      await opened.close();
    }
  });
});
