import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { countLines, startListeningMain, stopMain, type ListeningMain } from '../support/listeningMain';
import { visitorAddresses } from '../support/visitorAddresses';
import { waitUntil } from '../support/waitUntil';

const browserUserAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const conversionsKey = 'file-test-conversions-key-0123456789';
const movedLine = (change: string) => new RegExp(`the database stopped answering .*is not the one this server opened: it was ${change}`);

/** Rows a file holds, read as another program would. */
function rowsIn(file: string, table: 'clicks' | 'conversions'): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * The SQLite file taken away from under a running server: removed (with its -wal and -shm), or replaced
 * by a backup moved over it. The server must notice, say so once, and acknowledge nothing it does not keep.
 */
describe('a server whose SQLite file is removed or replaced under it', () => {
  const nextAddress = visitorAddresses();
  let dir = '';
  let file = '';
  let server: ListeningMain | undefined;

  const start = async () => {
    server = await startListeningMain({ CLICKS_DB: file, CLICK_STATS: 'on', TRUST_PROXY: '1', CONVERSIONS_KEY: conversionsKey });
  };
  const report = async () =>
    (
      await fetch(`${server!.url}/api/clicks`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
        body: JSON.stringify({ placement: 'hero', page: '/', referrer: '' }),
      })
    ).status;
  let txid = 0;
  const postback = async () => (await fetch(`${server!.url}/api/conversions?key=${conversionsKey}&txid=T${++txid}&subid=hero&payout=10`)).status;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-file-'));
    file = path.join(dir, 'clicks.sqlite');
    await start();
    for (let i = 0; i < 3; i++) expect(await report()).toBe(204);
    expect(await postback()).toBe(200);
  }, 30_000);

  afterEach(async () => {
    if (server) await stopMain(server);
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('notices a removed file within seconds without any traffic, and logs it once', async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    // The schedule looks every 2 s (databaseFileCheckMs): 5 s leaves room for a slow machine.
    await waitUntil('the line saying the file was removed', () => countLines(server!.stderr(), movedLine('removed')) === 1, { timeoutMs: 5_000, intervalMs: 100 });
  });

  it('acknowledges no report and no postback once the file is removed, logs it once, and starts on a new file when restarted', async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const statuses = [];
    for (let i = 0; i < 50; i++) statuses.push(await report());
    for (let i = 0; i < 5; i++) statuses.push(await postback());
    expect(new Set(statuses)).toEqual(new Set([503]));
    expect(countLines(server!.stderr(), /the database stopped answering/)).toBe(1);
    expect(countLines(server!.stderr(), movedLine('removed'))).toBe(1);
    expect((await fetch(`${server!.url}/`)).status).toBe(200);

    await stopMain(server!);
    await start();
    expect(await report()).toBe(204);
    expect(rowsIn(file, 'clicks')).toBe(1);
  });

  it('acknowledges nothing into the old file once a backup is moved over it, and reads the backup when restarted', async () => {
    // A backup of the file as it is now (3 clicks, 1 conversion), moved over the live file as an operator would.
    const backup = path.join(dir, 'backup.sqlite');
    const live = new Database(file, { readonly: true });
    await live.backup(backup);
    live.close();
    copyFileSync(backup, `${backup}.copy`);
    renameSync(`${backup}.copy`, file);
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });

    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await report());
    statuses.push(await postback());
    expect(new Set(statuses)).toEqual(new Set([503]));
    expect(countLines(server!.stderr(), movedLine('replaced by another file'))).toBe(1);

    await stopMain(server!);
    expect([rowsIn(file, 'clicks'), rowsIn(file, 'conversions')]).toEqual([3, 1]);
    await start();
    expect(await report()).toBe(204);
    expect(rowsIn(file, 'clicks')).toBe(4);
    expect(existsSync(backup)).toBe(true);
  });
});
