import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { newClickId } from '../../shared/affiliate';
import { countLines, startListeningMain, stopMain, type ListeningMain } from '../support/listeningMain';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres';
import { queryDatabase } from '../support/queryDatabase';
import { visitorAddresses } from '../support/visitorAddresses';
import { waitUntil } from '../support/waitUntil';

const browserUserAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const outageLine = /the database stopped answering/;
const recoveryLine = /the database answers again/;

/**
 * The server's outage and recovery lines so far, whole, so that a count that differs shows what was said
 * (the error that began each outage): run 4 of 20 of the alone files under load once logged a second
 * outage on PostgreSQL's full disk, and the counts alone did not say why.
 */
const availabilityLines = (server: ListeningMain) => ({
  outages: server.stderr().split('\n').filter((line) => outageLine.test(line)),
  recoveries: (server.stdout() + server.stderr()).split('\n').filter((line) => recoveryLine.test(line)),
});
const oneOutage = { outages: [expect.stringMatching(outageLine)], recoveries: [] };
const oneOutageEnded = { outages: [expect.stringMatching(outageLine)], recoveries: [expect.stringMatching(recoveryLine)] };

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

/** Unmounts a disk of mountSmallDisk's and removes its mount point. */
function unmountSmallDisk(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'pipe', timeout: 10_000 });
  rmSync(dir, { recursive: true, force: true });
}

const isRoot = process.getuid?.() === 0;
const disk = isRoot ? mountSmallDisk(16) : undefined;
const describeWithDisk = disk ? describe : describe.skip;
if (!disk) console.warn('full-disk tests skipped: mounting a tmpfs needs root and mount(8)');
// initdb's cluster takes 39 MB of it (16 of them the first WAL segment); the rest is what the test fills.
const postgresDisk = disk ? mountSmallDisk(64) : undefined;
const describeWithPostgresDisk = postgresDisk ? describe : describe.skip;
if (disk && !postgresDisk) console.warn('the PostgreSQL full-disk test skipped: a second tmpfs could not be mounted');

// Here rather than in each describe's afterAll, which runs first and stops what uses the disk: a describe
// left out by --testNamePattern runs neither hook, and its disk must not stay mounted.
afterAll(() => {
  for (const dir of [disk, postgresDisk]) if (dir) unmountSmallDisk(dir);
}, 30_000);

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
    expect(availabilityLines(server!)).toEqual(oneOutage);
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
    expect(availabilityLines(server!)).toEqual(oneOutageEnded);
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

const conversionsKey = 'full-disk-test-conversions-key-0123456789';
const pagesAnswer = async (url: string) => (await fetch(`${url}/`)).status;

/**
 * One server process on a PostgreSQL cluster of its own whose data directory lives on a 64 MB disk that
 * the test fills and frees; the phases below are their life, in order. Every report and postback answered
 * 2xx must be in the database at the end, found by what makes it unique (click ID, campaign, txid).
 *
 * What PostgreSQL does on a full disk, seen here (PostgreSQL 15) and in its source:
 * - A statement that needs a new page (a table, an index or its free-space map growing) fails with
 *   ERROR "could not extend file …: No space left on device"; its transaction is rolled back and the
 *   server goes on. Inserts that fit in pages the tables already have succeed, as on SQLite.
 * - pg_wal grows one segment file (16 MB) at a time. While the segment in use has room, commits go on
 *   being written; when it is full (or switched: archive_timeout, pg_switch_wal()), making the next one
 *   fails inside a critical section: PANIC. Every backend is ended and crash recovery starts, which
 *   cannot write its end-of-recovery checkpoint on the full disk either, so the postmaster shuts down
 *   ("shutting down due to startup process failure") and stays down: freeing space brings nothing back
 *   until an operator starts it again. Crash recovery then replays every commit that reached the WAL
 *   files, and only those: with synchronous_commit off, commits acknowledged from the WAL buffers were
 *   lost (1 to 4 reports answered 204 in each of three runs), which is why the server turns it on for
 *   its own sessions (server/db/openDatabase.ts). The test cluster keeps it off, as a tuned server may.
 *   The test does not wait for the segment in use to fill: it asks for the switch, amid reports acknowledged.
 */
describeWithPostgresDisk('a server on PostgreSQL when the disk of its data directory fills and is freed again', () => {
  const nextAddress = visitorAddresses();
  let cluster: PostgresCluster | undefined;
  let server: ListeningMain | undefined;
  let filler = '';
  let sequence = 0;
  /** What each endpoint acknowledged (2xx), by the value its row is found by. */
  const acknowledged = { clicks: [] as string[], views: [] as string[], conversions: [] as string[] };

  const beacon = (endpoint: string, body: object) =>
    fetch(`${server!.url}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
      body: JSON.stringify(body),
    });
  const click = async () => {
    const clickId = newClickId('hero');
    const response = await beacon('/api/clicks', { placement: 'hero', page: '/', referrer: '', clickId });
    if (response.ok) acknowledged.clicks.push(clickId);
    return response.status;
  };
  const view = async () => {
    const campaign = `full-disk-${(sequence += 1)}`;
    const response = await beacon('/api/views', { page: '/', referrer: '', source: 'direct', medium: '', campaign, content: '' });
    if (response.ok) acknowledged.views.push(campaign);
    return response.status;
  };
  const postback = async () => {
    const txid = `FULLDISK${(sequence += 1)}`;
    const response = await fetch(`${server!.url}/api/conversions?key=${conversionsKey}&txid=${txid}&subid=hero&payout=10`);
    if (response.ok) acknowledged.conversions.push(txid);
    return response.status;
  };
  /** A click report, a page-view report and a postback: their statuses in that order. */
  const oneOfEach = async () => [await click(), await view(), await postback()];

  beforeAll(async () => {
    cluster = await startPostgresCluster({ dataDir: path.join(postgresDisk!, 'pgdata') });
    server = await startListeningMain({ DATABASE_URL: cluster.url, CLICK_STATS: 'on', TRUST_PROXY: '1', CONVERSIONS_KEY: conversionsKey });
  }, 60_000);

  afterAll(async () => {
    if (server) await stopMain(server);
    await cluster?.destroy();
  }, 60_000);

  it('acknowledges reports and postbacks while there is room', async () => {
    for (let i = 0; i < 3; i++) expect(await oneOfEach()).toEqual([204, 204, 200]);
  });

  it('refuses them with 503 once the disk is full, logs the outage once however many fail, and serves pages', async () => {
    filler = fill(postgresDisk!);
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push(...(await oneOfEach()));
    // What still fits in pages the tables have is acknowledged, and kept (checked at the end): about 60
    // of each kind here. Once those pages are full, every one is refused.
    expect(statuses.filter((status) => ![200, 204, 503].includes(status))).toEqual([]);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(200);
    expect(statuses.slice(-60)).toEqual(Array(60).fill(503));
    expect(availabilityLines(server!)).toEqual(oneOutage);
    expect(await pagesAnswer(server!.url)).toBe(200);
  }, 60_000);

  it('keeps what it acknowledges up to the moment PostgreSQL PANICs, unable to grow pg_wal, and refuses with 503 once it has shut down', async () => {
    // A little space comes free (a log rotated, say): tables grow into it and reports are acknowledged
    // again, though far too little for a new WAL segment. Then, amid that traffic, pg_wal must grow.
    // The space is small and the switch is asked on a connection opened beforehand, so that the outage
    // never goes recoveryQuietMs (5 s) without a refused write before the PANIC: with a megabyte freed and
    // a connection opened after the first 204, a machine under load once spent longer than that writing
    // into the free pages, and the server rightly logged the end of the outage, then a second one.
    const switcher = new Client({ connectionString: cluster!.url, connectionTimeoutMillis: 5_000 });
    switcher.on('error', () => {}); // the PANIC ends this connection: the query's rejection says so
    await switcher.connect();
    truncateSync(filler, statSync(filler).size - 256 * 1024);
    const statuses: number[] = [];
    let sending = true;
    const traffic = (async () => {
      while (sending) statuses.push(...(await oneOfEach()));
    })();
    try {
      await waitUntil('a report acknowledged again', () => statuses.includes(204), { timeoutMs: 5_000, intervalMs: 5 });
      // Its own answer may not come back: the PANIC it causes can end its connection first.
      await switcher.query('SELECT pg_switch_wal()').catch(() => undefined);
      await waitUntil('PostgreSQL to shut down', async () => !(await cluster!.isRunning()), { timeoutMs: 20_000, intervalMs: 100 });
    } finally {
      sending = false;
      await traffic;
      await switcher.end().catch(() => undefined);
    }
    expect(cluster!.log()).toMatch(/PANIC: .*pg_wal.*No space left on device/);
    expect(cluster!.log()).toMatch(/shutting down due to startup process failure/);
    const down: number[] = [];
    for (let i = 0; i < 10; i++) down.push(...(await oneOfEach()));
    expect(statuses.filter((status) => ![200, 204, 503].includes(status))).toEqual([]);
    expect(down).toEqual(Array(30).fill(503));
    expect(availabilityLines(server!)).toEqual(oneOutage);
    expect(await pagesAnswer(server!.url)).toBe(200);
  }, 60_000);

  it('acknowledges them again once the space is freed and PostgreSQL started, and logs the end of the outage once', async () => {
    rmSync(filler);
    // As an operator would: crash recovery replays the WAL, then the cluster takes connections again.
    await cluster!.start();
    const deadline = Date.now() + 15_000;
    while ((await click()) !== 204) if (Date.now() > deadline) throw new Error('no report acknowledged within 15 s of starting PostgreSQL again');
    for (let i = 0; i < 5; i++) expect(await oneOfEach()).toEqual([204, 204, 200]);
    // The end is logged at the first write answered recoveryQuietMs (5 s) after the last refused one.
    await waitUntil('the recovery line', async () => (await click()) === 204 && countLines(server!.stdout(), recoveryLine) === 1, { timeoutMs: 15_000, intervalMs: 250 });
    expect(availabilityLines(server!)).toEqual(oneOutageEnded);
    expect(await pagesAnswer(server!.url)).toBe(200);
  }, 60_000);

  it('kept every report and postback it acknowledged', async () => {
    await stopMain(server!);
    server = undefined;
    const stored = async (sql: string) => new Set((await queryDatabase<{ value: string }>(cluster!.url, sql)).map((row) => row.value));
    const clicks = await stored('SELECT click_id AS value FROM clicks');
    const views = await stored('SELECT campaign AS value FROM views');
    const conversions = await stored('SELECT txid AS value FROM conversions');
    expect(acknowledged.clicks.filter((id) => !clicks.has(id))).toEqual([]);
    expect(acknowledged.views.filter((campaign) => !views.has(campaign))).toEqual([]);
    expect(acknowledged.conversions.filter((txid) => !conversions.has(txid))).toEqual([]);
  }, 30_000);
});
