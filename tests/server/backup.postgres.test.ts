import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { everyTableRows, writeEveryTable } from '../support/everyTableRows';
import { createTestDatabase, findPostgresBinDir, type TestDatabase } from '../support/postgres';
import { useTempDir } from '../support/tempDir';

const execFileAsync = promisify(execFile);
const temp = useTempDir();

/**
 * The commands docs/backups.md gives for PostgreSQL, run as written there: pg_dump's custom format
 * (compressed, restorable table by table) without owners or grants, and pg_restore into a fresh database in
 * one transaction that stops at the first error. The client programs of the test cluster's own version.
 */
async function pgDump(url: string, file: string): Promise<void> {
  await execFileAsync(path.join(await findPostgresBinDir(), 'pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`], { timeout: 60_000 });
}

async function pgRestore(file: string, url: string): Promise<void> {
  await execFileAsync(path.join(await findPostgresBinDir(), 'pg_restore'), ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, file], { timeout: 60_000 });
}

describe('a PostgreSQL database through pg_dump and pg_restore', () => {
  const made: TestDatabase[] = [];
  const opened: AppDatabase[] = [];
  const open = async (url: string, readOnly = false) => {
    const database = await openDatabase({ engine: 'postgres', url }, { logger: silentLogger, readOnly });
    opened.push(database);
    return database;
  };
  const fresh = async () => {
    const database = await createTestDatabase();
    made.push(database);
    return database;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
    await Promise.all(made.splice(0).map((database) => database.drop()));
  });

  it('keeps every table, row for row, and the restored database takes new rows after the old ones', async () => {
    const source = await fresh();
    const live = await open(source.url);
    await writeEveryTable(live);
    const expected = await everyTableRows(live);
    for (const [table, rows] of Object.entries(expected)) expect({ table, rows: rows.length > 0 }).toEqual({ table, rows: true });

    const dump = path.join(temp.dir(), 'auctions-guide.dump');
    await pgDump(source.url, dump);
    const target = await fresh();
    await pgRestore(dump, target.url);

    // Read-only first: the restored schema as it is, before the site's own start-up could touch it.
    const restored = await open(target.url, true);
    expect(await everyTableRows(restored)).toEqual(expected);

    // The sequences came along: the site opens it as is, and a new click takes the next id.
    const site = await open(target.url);
    const before = Math.max(...expected.clicks!.map((row) => Number((JSON.parse(row) as [string, unknown][]).find(([column]) => column === 'id')![1])));
    await createClickStore(site.db).record({ at: new Date(), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'after-restore', via: 'beacon' });
    const newest = await site.db.selectFrom('clicks').select('id').where('visitor', '=', 'after-restore').executeTakeFirstOrThrow();
    expect(newest.id).toBeGreaterThan(before);
  }, 60_000);
});
