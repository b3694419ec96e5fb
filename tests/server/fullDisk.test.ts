import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { countLines, startListeningMain, stopMain, type ListeningMain } from '../support/listeningMain';
import { visitorAddresses } from '../support/visitorAddresses';
import { waitUntil } from '../support/waitUntil';

const browserUserAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const outageLine = /the database stopped answering/;
const recoveryLine = /the database answers again/;

/** A small tmpfs of its own, mounted for this file (root only): a disk that fills. Undefined where it cannot be mounted. */
function mountSmallDisk(megabytes: number): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0777`, 'tmpfs', dir], { stdio: 'pipe', timeout: 10_000 });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Fills the disk holding `dir` to its last byte with one file, and returns its path. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // The last partial block: byte by byte is too slow, so halve until nothing more fits.
    for (let size = block.length / 2; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) writeSync(fd, block, 0, size);
      } catch {
        // this size no longer fits: try a smaller one
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

const disk = process.getuid?.() === 0 ? mountSmallDisk(16) : undefined;
const describeWithDisk = disk ? describe : describe.skip;
if (!disk) console.warn('full-disk tests skipped: mounting a tmpfs needs root and mount(8)');

/**
 * One server process whose SQLite file lives on a 16 MB disk that the test fills and frees: the phases
 * below are that process's life, in order. Every report answered 204 must be in the file at the end.
 */
describeWithDisk('a server on SQLite when its disk fills and is freed again', () => {
  const dataDir = path.join(disk ?? '', 'data');
  const file = path.join(dataDir, 'clicks.sqlite');
  const nextAddress = visitorAddresses();
  let server: ListeningMain | undefined;
  let filler = '';
  let acknowledged = 0;

  const report = async () => {
    const response = await fetch(`${server!.url}/api/clicks`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ placement: 'hero', page: '/', referrer: '' }),
    });
    if (response.status === 204) acknowledged += 1;
    return response.status;
  };

  beforeAll(async () => {
    mkdirSync(dataDir, { mode: 0o777 });
    server = await startListeningMain({ CLICKS_DB: file, CLICK_STATS: 'on', TRUST_PROXY: '1' });
  }, 30_000);

  afterAll(async () => {
    if (server) await stopMain(server);
    execFileSync('umount', [disk!], { stdio: 'pipe', timeout: 10_000 });
    rmSync(disk!, { recursive: true, force: true });
  }, 30_000);

  it('acknowledges reports while there is room', async () => {
    for (let i = 0; i < 5; i++) expect(await report()).toBe(204);
  });

  it('refuses reports with 503 once the disk is full, and logs the outage once however many fail', async () => {
    filler = fill(disk!);
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push(await report());
    // A report may still fit in a page the file had free: it is acknowledged, and kept (checked at the end).
    expect(statuses.filter((status) => status !== 204 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(250);
    expect(countLines(server!.stderr(), outageLine)).toBe(1);
    expect(countLines(server!.stdout() + server!.stderr(), recoveryLine)).toBe(0);
    // Pages are still served meanwhile.
    expect((await fetch(`${server!.url}/`)).status).toBe(200);
  });

  it('acknowledges reports again once there is room, and logs the end of the outage once, when writes have gone on answering', async () => {
    rmSync(filler);
    const deadline = Date.now() + 10_000;
    while ((await report()) !== 204) if (Date.now() > deadline) throw new Error('no report acknowledged within 10 s of freeing the disk');
    for (let i = 0; i < 20; i++) expect(await report()).toBe(204);
    // The end is logged at the first write answered recoveryQuietMs (5 s) after the last refused one.
    await waitUntil('the recovery line', async () => (await report()) === 204 && countLines(server!.stdout(), recoveryLine) === 1, { timeoutMs: 15_000, intervalMs: 250 });
    expect(countLines(server!.stdout() + server!.stderr(), recoveryLine)).toBe(1);
    expect(countLines(server!.stderr(), outageLine)).toBe(1);
  });

  it('kept every report it acknowledged', async () => {
    await stopMain(server!);
    server = undefined;
    const db = new Database(file, { readonly: true });
    try {
      expect((db.prepare('select count(*) as n from clicks').get() as { n: number }).n).toBe(acknowledged);
    } finally {
      db.close();
    }
  });
});
