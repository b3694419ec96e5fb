import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { main as importMain, maxReportBytes } from '../../scripts/costs-import';
import { readCosts } from '../../server/costs/costStore';
import type { Engine } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const fixture = (name: string) => path.join(__dirname, '../fixtures/costs', name);
const dbFile = () => path.join(temp.dir(), 'clicks.sqlite');

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await importMain(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

/** Where the import writes: a SQLite file named by --db, or a fresh PostgreSQL database named by DATABASE_URL (as the server finds it). */
interface Target {
  args: string[];
  env: Record<string, string>;
  open(): Promise<AppDatabase>;
}

describe.each(engines)('npm run costs:import on %s', (engine: Engine) => {
  let postgres: TestDatabase | undefined;
  let target: Target;
  beforeEach(async () => {
    if (engine === 'postgres') {
      postgres = await createTestDatabase();
      const url = postgres.url;
      target = { args: [], env: { DATABASE_URL: url }, open: () => openDatabase({ engine, url }, { logger: silentLogger }) };
    } else {
      const file = dbFile();
      target = { args: ['--db', file], env: {}, open: () => openDatabase({ engine, file }, { logger: silentLogger }) };
    }
  });
  afterEach(() => postgres?.drop());

  async function storedCosts() {
    const database = await target.open();
    try {
      return await readCosts(database.db, { from: '2026-11-01', to: '2026-11-30' });
    } finally {
      await database.close();
    }
  }

  it('imports a Google Ads export, names each rejected row, and changes nothing when run again', async () => {
    const first = await runScript('scripts/costs-import.ts', [fixture('google-ads.csv'), ...target.args], target.env);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      [
        `${fixture('google-ads.csv')}: a Google Ads report: 3 costs (2237.10 USD), 1 row added into another of the same day, campaign and ad, 2 total or note rows skipped, 1 without an amount, 1 rejected`,
        '  line 9: column "Cost": the amount "-3.00" is negative; a cost is at least 0',
        '  line 8: no amount in "Cost" (empty or --), so nothing was set for that row; the rest is applied',
        'written: 3 new or changed, 0 already held',
        '',
      ].join('\n'),
    );
    expect(first.code).toBe(1);
    const stored = await storedCosts();
    expect(stored.map((row) => [row.day, row.source, row.campaign, row.amountMicros])).toEqual([
      ['2026-11-03', 'google', 'repo-cars', 0],
      ['2026-11-03', 'google', 'spring-auctions', 1_250_000_000],
      ['2026-11-04', 'google', 'spring-auctions', 987_100_000],
    ]);

    const again = await runScript('scripts/costs-import.ts', [fixture('google-ads.csv'), ...target.args], target.env);
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/\nwritten: 0 new or changed, 3 already held\n$/);
    expect(await storedCosts()).toEqual(stored);
  });

  it('replaces a day with a corrected report, exits 0 when every row is applied, and keeps other days', async () => {
    const file = path.join(temp.dir(), 'costs.csv');
    writeFileSync(file, 'day,source,campaign,content,cost,currency\n2026-11-03,reddit,repo-cars,,10.00,USD\n2026-11-04,reddit,repo-cars,,5.00,USD\n');
    expect((await run([file, ...target.args], target.env)).code).toBe(0);
    writeFileSync(file, 'day,source,campaign,content,cost,currency\n2026-11-03,reddit,repo-cars,,12.00,USD\nTotal,,,,12.00,\n');
    const corrected = await run([file, ...target.args], target.env);
    expect(corrected.out).toBe(`${file}: a plain cost file: 1 cost (12.00 USD), 1 total or note row skipped, 0 rejected\nwritten: 1 new or changed, 0 already held\n`);
    expect(corrected.code).toBe(0);
    expect((await storedCosts()).map((row) => [row.day, row.amountMicros])).toEqual([
      ['2026-11-03', 12_000_000],
      ['2026-11-04', 5_000_000],
    ]);
    const again = await run([file, ...target.args], target.env);
    expect(again.out).toMatch(/\nwritten: 0 new or changed, 1 already held\n$/);
  });

  it('uses --source and a campaign map for a Meta export, ad by ad', async () => {
    const map = path.join(temp.dir(), 'campaigns.csv');
    writeFileSync(map, 'name,utm_campaign\nSpring auctions,spring-auctions\n');
    const { code } = await run([fixture('meta-ads.csv'), '--source', 'instagram', '--campaign-map', map, ...target.args], target.env);
    expect(code).toBe(1);
    expect((await storedCosts()).map((row) => [row.day, row.source, row.campaign, row.content, row.amountMicros, row.currency])).toEqual([
      ['2026-11-03', 'instagram', 'spring-auctions', 'carousel-b', 100_420_000, 'USD'],
      ['2026-11-03', 'instagram', 'spring-auctions', 'video-a', 1_245_250_000, 'USD'],
      ['2026-11-04', 'instagram', 'spring-auctions', 'video-a', 1_000_000_000, 'USD'],
    ]);
  });
});

describe('npm run costs:import of files it refuses', () => {
  it('refuses a binary file and an oversized one in one line each, writing nothing', async () => {
    const binary = path.join(temp.dir(), 'report.xlsx');
    writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x1b, 0x5b, 0x32, 0x4a]));
    const refused = await run([binary, '--db', dbFile()]);
    expect(refused).toEqual({ code: 1, out: '', err: `costs:import: ${binary} is not CSV text: it is a ZIP archive, as an .xlsx or .ods spreadsheet is; save the report as CSV (UTF-8) and import that file\n` });

    const large = path.join(temp.dir(), 'large.csv');
    writeFileSync(large, Buffer.alloc(maxReportBytes + 1, 0x61));
    const tooLarge = await run([large, '--db', dbFile()]);
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.err).toMatch(/^costs:import: .* is 20\.0 MB, over the 20 MB a cost report can be; export fewer days at a time\n$/);
    expect(existsSync(dbFile())).toBe(false);
  });

  it('refuses a file of no known report in one line, and bad arguments with exit 64', async () => {
    const file = path.join(temp.dir(), 'orders.csv');
    writeFileSync(file, 'Order ID,Commission\n1,2\n');
    const unknown = await run([file, '--db', dbFile()]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^costs:import: .*: no header line of a known report/);
    expect(unknown.err.split('\n')).toHaveLength(2);

    expect((await run([])).code).toBe(64);
    expect((await run([file, '--currency', 'XX'])).code).toBe(64);
    expect((await run([file, '--source', ''])).code).toBe(64);
    expect((await run([file, '--bogus'])).code).toBe(64);
  });

  it('writes control characters from the file out, never raw', async () => {
    const file = path.join(temp.dir(), 'costs\u001b[2J.csv');
    writeFileSync(file, 'day,source,campaign,content,cost,currency\n2026-11-03,s,c,,"<b>1</b>",USD\n');
    const { out } = await run([file, '--db', dbFile()]);
    expect(out).not.toMatch(/\u001b/);
    expect(out).toContain('line 2: column "cost": a value of 8 characters is not an amount');
  });
});
