import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { backupSqlite } from '../../server/backup/sqliteBackup';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { migrations } from '../../server/db/migrations/index';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { projectRoot } from '../../server/lib/paths';
import { main as restoreMain } from '../../scripts/restore';
import { main as statsMain } from '../../scripts/stats';
import { everyTableRows, writeEveryTable } from '../support/everyTableRows';
import { startListeningMain, stopMain } from '../support/listeningMain';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

async function run(main: typeof restoreMain, argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

const click = (visitor: string): Click => ({ at: new Date(), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon' });
const openSite = (file: string): Promise<AppDatabase> => openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });

async function clicksIn(file: string): Promise<number> {
  const { out } = await run(statsMain, ['--json', '--db', file, '--days', '1']);
  return JSON.parse(out).all.clicks as number;
}

/** A site's database with `clicks` clicks, and its backup made then; the site then records one more click. */
async function siteAndBackup(clicks: number): Promise<{ target: string; backup: string }> {
  const target = path.join(temp.dir(), 'data', 'clicks.sqlite');
  const database = await openSite(target);
  const store = createClickStore(database.db);
  for (let index = 0; index < clicks; index += 1) await store.record(click(`before-${index}`));
  const dir = path.join(temp.dir(), 'backups');
  mkdirSync(dir);
  const { file: backup } = await backupSqlite({ source: target, dir, now: new Date() });
  await store.record(click('after'));
  await database.close();
  return { target, backup };
}

/** A server killed while its last write is still only in the -wal: the file, its -wal and -shm are left as a crash leaves them. */
async function crashAfterAClick(file: string): Promise<void> {
  const script = `
    const Database = require('better-sqlite3');
    const database = new Database(${JSON.stringify(file)});
    database.pragma('wal_autocheckpoint = 0');
    database.prepare("insert into clicks (at, day, placement, page, referrer_host, device, visitor, via) values (?, ?, 'hero', '/', null, 'mobile', 'crash', 'beacon')").run(Date.now(), new Date().toISOString().slice(0, 10));
    process.kill(process.pid, 'SIGKILL');`;
  const child = spawn(process.execPath, ['-e', script], { cwd: projectRoot, stdio: 'inherit' });
  await once(child, 'exit');
}

describe('npm run restore', () => {
  it('puts the backup in place, keeps the database that was there aside, and the site reads the restored rows', async () => {
    const { target, backup } = await siteAndBackup(3);
    await crashAfterAClick(target);
    expect(readdirSync(path.dirname(target)).sort()).toEqual(['clicks.sqlite', 'clicks.sqlite-shm', 'clicks.sqlite-wal']);
    const { code, out, err } = await run(restoreMain, [backup, '--db', target]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const aside = /The database that was there is kept as (.+)\.\n/.exec(out)?.[1];
    expect(aside).toMatch(/clicks\.sqlite\.before-restore-\d{8}T\d{6}Z$/);
    expect(out).toContain(`Restored ${backup} (schema ${migrations.length}, integrity ok) to ${target}.\n`);
    expect(out).toContain('clicks 3');
    // Nothing of the old database is left under the target's name: its -wal (folded in when the restore took
    // its lock) and -shm went aside with it, and its last click, written only to the -wal, is kept there.
    expect(readdirSync(path.dirname(target)).filter((name) => name.startsWith('clicks.sqlite-'))).toEqual([]);
    expect(await clicksIn(target)).toBe(3);
    expect(await clicksIn(aside!)).toBe(5);
    // The folder holds the restored file and what was moved aside: no temporary file left.
    expect(readdirSync(path.dirname(target)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('restores every table, row for row', async () => {
    const source = path.join(temp.dir(), 'source.sqlite');
    const database = await openSite(source);
    await writeEveryTable(database);
    const expected = await everyTableRows(database);
    const { file: backup } = await backupSqlite({ source, dir: temp.dir(), now: new Date() });
    await database.close();
    const target = path.join(temp.dir(), 'restored', 'clicks.sqlite');
    expect((await run(restoreMain, [backup, '--db', target])).code).toBe(0);
    const restored = await openSite(target);
    try {
      expect(await everyTableRows(restored)).toEqual(expected);
    } finally {
      await restored.close();
    }
  });

  it('refuses while a connection holds the database, and changes nothing', async () => {
    const { target, backup } = await siteAndBackup(2);
    const held = await openSite(target);
    try {
      const { code, err } = await run(restoreMain, [backup, '--db', target]);
      expect(code).toBe(1);
      expect(err).toBe(`restore: ${target} is in use: a running server (or a command such as npm run stats) has it open; stop it, then restore\n`);
      expect(readdirSync(path.dirname(target)).sort()).toEqual(['clicks.sqlite', 'clicks.sqlite-shm', 'clicks.sqlite-wal']);
    } finally {
      await held.close();
    }
    expect(await clicksIn(target)).toBe(3);
  });

  it('refuses while the server runs on the database, restores once it has stopped, and the server then serves the restored rows', async () => {
    const { target, backup } = await siteAndBackup(2);
    const env = { CLICK_STATS: 'on', CLICKS_DB: target, ADMIN_TOKEN: 'a-token-of-sixteen-or-more' };
    const server = await startListeningMain(env);
    try {
      const refused = await runScript('scripts/restore.ts', [backup], { CLICKS_DB: target });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`restore: ${target} is in use: a running server (or a command such as npm run stats) has it open; stop it, then restore\n`);
    } finally {
      expect(await stopMain(server)).toBe(0);
    }
    const restored = await runScript('scripts/restore.ts', [backup], { CLICKS_DB: target });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const again = await startListeningMain(env);
    try {
      const response = await fetch(`${again.url}/admin`, { headers: { authorization: 'Bearer a-token-of-sixteen-or-more' } });
      expect(response.status).toBe(200);
      expect(await clicksIn(target)).toBe(2);
    } finally {
      expect(await stopMain(again)).toBe(0);
    }
  }, 60_000);

  it('refuses a backup that fails its check, and a backup or target written by a newer version', async () => {
    const { target, backup } = await siteAndBackup(1);
    const garbage = path.join(temp.dir(), 'garbage.sqlite');
    writeFileSync(garbage, 'x'.repeat(8192));
    expect(await run(restoreMain, [garbage, '--db', target])).toMatchObject({ code: 1, err: expect.stringMatching(/^restore: .*garbage\.sqlite is not a readable SQLite database \(.+\)\n$/) });

    const newer = (file: string) => {
      const database = new BetterSqlite(file);
      database.prepare('insert into schema_migrations (version, applied_at) values (?, ?)').run(migrations.length + 1, Date.now());
      database.close();
    };
    const newerBackup = path.join(temp.dir(), 'newer.sqlite');
    writeFileSync(newerBackup, '');
    const copy = new BetterSqlite(backup, { readonly: true });
    await copy.backup(newerBackup);
    copy.close();
    newer(newerBackup);
    expect(await run(restoreMain, [newerBackup, '--db', target])).toMatchObject({
      code: 1,
      err: `restore: ${newerBackup} was written by a newer version of this site (schema ${migrations.length + 1}, this version knows ${migrations.length}); restore it with that version\n`,
    });

    newer(target);
    expect(await run(restoreMain, [backup, '--db', target])).toMatchObject({
      code: 1,
      err: `restore: ${target} was written by a newer version of this site (schema ${migrations.length + 1}, this version knows ${migrations.length}); restore with that version\n`,
    });
    expect(readdirSync(path.dirname(target))).toEqual(['clicks.sqlite']);
  });

  it.each([
    [[], 'name one backup file to restore'],
    [['a.sqlite', 'b.sqlite'], 'name one backup file to restore'],
    [['a.sqlite', '--to', 'x'], "Unknown option '--to'"],
    [['a.sqlite', '--db', ''], '--db needs a file name'],
  ])('exits 64 on bad arguments %j', async (argv, message) => {
    const { code, err } = await run(restoreMain, argv);
    expect(code).toBe(64);
    expect(err).toContain(message);
    expect(err).toContain('Usage: npm run restore -- FILE [--db TARGET]');
  });

  it('exits 1 with one line for a missing backup, and with DATABASE_URL set', async () => {
    const missing = path.join(temp.dir(), 'missing.sqlite');
    expect(await run(restoreMain, [missing, '--db', path.join(temp.dir(), 'clicks.sqlite')])).toEqual({ code: 1, out: '', err: `restore: there is no file at ${missing}\n` });
    expect(await run(restoreMain, [missing], { DATABASE_URL: 'postgres://user:secret@127.0.0.1/site' })).toEqual({
      code: 1,
      out: '',
      err: 'restore: DATABASE_URL is set: this command restores the SQLite file; restore PostgreSQL with pg_restore (see docs/backups.md)\n',
    });
  });
});
