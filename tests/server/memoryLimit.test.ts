import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Engine } from '../../server/db/databaseSettings';
import { projectRoot } from '../../server/lib/paths';
import { floodReports } from '../../scripts/bench/reportFlood';
import { basicAuth } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { parseHtml } from '../support/html';
import { freePort, waitForOutput, type Started } from '../support/mainProcess';
import { stopMain } from '../support/listeningMain';
import { openMemoryCgroup, type MemoryCgroup } from '../support/memoryCgroup';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres';

/**
 * Issue 28: the whole site within 256 MB on any day, on either engine. The built server runs in a memory
 * cgroup of 256 MB (memory and swap), as deploy/auctions-guide.service's MemoryMax holds it, takes a day's
 * flood of reports from as many addresses, then reports that day on /admin, and through npm run stats in a
 * 256 MB cgroup of its own. Skipped, saying why, where no memory cgroup can be made (not root, no memory
 * controller).
 *
 * The bound is checked per phase rather than by a day big enough to reach 256 MB: the day comes in two
 * halves, each followed by /admin, and what the site's processes hold of their own after the second half
 * and its report may exceed what they held after the first half's by at most `growthAllowance`. Memory
 * that grows with the day (the report worker before it read a page at a time, which the kernel killed after
 * 200,000 reports; the limiters before they forgot as they went, 60 MB at that flood) doubles its share from
 * one half to the next, and the second half adds nothing to memory that is bounded: 0.3 MB on SQLite from
 * 100,000 reports to 200,000 when the test still sent a whole day of them (docs/benchmarks.md). The full
 * day stays `npm run bench -- memory`'s, which never gates.
 *
 * On PostgreSQL the database server is a throwaway cluster of this test's own, running outside the cgroup:
 * only the site's Node process is held to 256 MB. The issue's limit is the site's service (MemoryMax), and
 * PostgreSQL is a service of its own, on the same machine with its own budget or on another one; what
 * this proves is that the site holds what it reads from it, a page at a time, however busy the day.
 */

const limitBytes = 256 * 1024 * 1024;
/**
 * The day's reports, clicks and views in turn, each from an address of its own, in two halves: 100,000 on
 * either engine unless MEMORY_LIMIT_REPORTS says (300,000 for the issue's day). Each half lasts longer than
 * the limiters keep a key (two refills of the slowest, 12 s, at about 2,500 reports a second here), so the
 * first half reaches the steady state the second must keep.
 */
const reports = Number(process.env.MEMORY_LIMIT_REPORTS ?? 100_000);
/** The flood's time, each half: long enough at 400 reports a second, a sixth of this machine's pace, for a busy CI machine. */
const halfFloodMs = Math.max(120_000, (reports / 2) * 2.5);
/**
 * What the processes may hold of their own after the second half and its /admin beyond what they held after
 * the first half and its /admin. Measured here: 13 MB on SQLite (its caches still filling), nothing on
 * PostgreSQL. Memory that grows by more than this a half (640 bytes a report), as the report worker did when
 * it held a day's rows, fails; a slower leak, such as the limiters' old 300 bytes a report, is for the whole
 * day (MEMORY_LIMIT_REPORTS=300000, and `npm run bench -- memory`).
 */
const growthAllowance = 32 * 1024 * 1024;
const adminToken = 'memory-limit-admin-token-0123456789';
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// Whether a memory cgroup can be made here at all; each engine's case makes its own.
const probe = openMemoryCgroup('auctions-guide-memory-limit-probe', limitBytes);
if ('cgroup' in probe) probe.cgroup.remove();
else console.warn(`memoryLimit.test.ts skipped: ${probe.unusable}. It needs root and a cgroup memory controller (v1, or v2 with memory in a parent's cgroup.subtree_control).`);
const describeInCgroup = 'cgroup' in probe ? describe.each : describe.skip.each;

/** Opens a 256 MB memory cgroup, or throws saying why not. */
function memoryCgroup(label: string): MemoryCgroup {
  const opened = openMemoryCgroup(label, limitBytes);
  if ('unusable' in opened) throw new Error(opened.unusable);
  return opened.cgroup;
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in bytes, file-backed pages included; undefined once it is gone. */
function resident(pid: number): { now: number; peak: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kilobytes = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kilobytes('VmRSS') * 1024, peak: kilobytes('VmHWM') * 1024 };
}

function startInside(cgroup: MemoryCgroup, command: string, args: string[], env: Record<string, string>): Started {
  const wrapped = cgroup.inside(command, args);
  const child: ChildProcessWithoutNullStreams = spawn(wrapped.command, wrapped.args, { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Where the site keeps its statistics, per engine: a SQLite file, or a cluster of the test's own. */
interface Store {
  /** The server's variables that name it. */
  env: Record<string, string>;
  /** npm run stats's arguments and variables that name it. */
  stats: { args: string[]; env: Record<string, string> };
  remove(): Promise<void>;
}

async function openStore(engine: Engine): Promise<Store> {
  if (engine === 'postgres') {
    // Outside the cgroup (see the top of the file): the cgroup holds only what this process starts in it.
    const cluster: PostgresCluster = await startPostgresCluster();
    return { env: { DATABASE_URL: cluster.url }, stats: { args: [], env: { DATABASE_URL: cluster.url } }, remove: () => cluster.destroy() };
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'auctions-guide-memory-'));
  const clicksDb = path.join(folder, 'clicks.sqlite');
  return {
    env: { CLICKS_DB: clicksDb },
    stats: { args: ['--db', clicksDb], env: {} },
    remove: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

describeInCgroup(['sqlite', 'postgres'] as const)('the whole site in a 256 MB memory cgroup, on %s', (engine) => {
  /** The processes' own memory after the first half and its /admin. */
  let afterFirstHalf = 0;
  let cgroup: MemoryCgroup | undefined;
  let store: Store | undefined;
  let server: Started | undefined;
  /** What a test started besides the server, ended and removed after all, whatever happened. */
  const extraProcesses: Started[] = [];
  const extraCgroups: MemoryCgroup[] = [];
  let url = '';
  let idle: { now: number; peak: number } | undefined;
  const alive = () => server!.child.exitCode === null && server!.child.signalCode === null;
  const fate = () => (alive() ? 'running' : `gone (exit ${server!.child.exitCode}, signal ${server!.child.signalCode}; killed for memory in the cgroup: ${cgroup!.oomKills()})`);
  const admin = async () => {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/admin?days=1`, { headers: { authorization: basicAuth(adminToken) } });
      return { status: response.status, html: await response.text(), ms: performance.now() - started };
    } catch (error) {
      throw new Error(`/admin got no answer (${(error as Error).message}); the server is ${fate()}`);
    }
  };
  /** Prints where memory stands and returns the processes' own (anonymous) bytes. */
  const standing = (when: string): number => {
    const { anonBytes, fileBytes } = cgroup!.charged();
    const own = resident(server!.child.pid!);
    console.log(
      `${engine}, ${when}: server ${own ? `resident ${megabytes(own.now)} (peak ${megabytes(own.peak)})` : fate()}; cgroup charged ${megabytes(cgroup!.usageBytes())} ` +
        `(${megabytes(anonBytes)} the processes' own, ${megabytes(fileBytes)} file cache), peak ${megabytes(cgroup!.peakBytes())} of ${megabytes(limitBytes)}; ` +
        `killed for memory: ${cgroup!.oomKills()}`,
    );
    return anonBytes;
  };
  /** Sends one half of the day; every report must be acknowledged. */
  const floodHalf = async (half: 'first' | 'second') => {
    const started = Date.now();
    const flood = await floodReports(url, {
      reports: reports / 2,
      firstReport: half === 'first' ? 0 : reports / 2,
      timeLimitMs: halfFloodMs,
    });
    console.log(`${engine}, ${half} half: ${flood.acknowledged} acknowledged, ${flood.refused} refused, ${flood.failed} failed, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(flood).toMatchObject({ acknowledged: reports / 2, refused: 0, failed: 0 });
    expect(fate()).toBe('running');
  };
  /** /admin for the day so far: every view and click there (the visitors behind them are estimates past 128, docs/funnel.md). */
  const adminHasTheDay = async (sent: number) => {
    const answer = await admin();
    expect(answer.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    const [views, clicks] = cells(rowHeaded(tableCaptioned(parseHtml(answer.html), 'Views, clicks and conversions per day'), day)).map((cell) => cell.split(' / ').map((figure) => Number(figure.replaceAll(',', ''))));
    expect([views![0], clicks![0]]).toEqual([sent / 2, sent / 2]);
    for (const visitors of [views![1]!, clicks![1]!]) expect(Math.abs(visitors - sent / 2)).toBeLessThan(0.02 * (sent / 2));
    expect(fate()).toBe('running');
    return answer;
  };

  beforeAll(async () => {
    store = await openStore(engine);
    cgroup = memoryCgroup(`auctions-guide-memory-limit-${engine}`);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // No NODE_OPTIONS: Node and V8 as an operator runs them, sizing themselves by what they are given.
    server = startInside(cgroup, process.execPath, [path.join(projectRoot, 'dist/server/main.cjs')], {
      HOST: '127.0.0.1',
      PORT: String(port),
      CLICK_STATS: 'on',
      TRUST_PROXY: 'true',
      ADMIN_TOKEN: adminToken,
      ...store.env,
    });
    await waitForOutput(server, /Auctions Guide is listening on/);
    idle = resident(server.child.pid!);
    console.log(`${engine}: memory cgroup v${cgroup.version} ${cgroup.dir}, limit ${megabytes(limitBytes)}, ${reports.toLocaleString('en')} reports`);
    standing('idle, before any request');
  }, 60_000);

  afterAll(async () => {
    try {
      for (const started of extraProcesses) if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      await Promise.all(extraProcesses.map((started) => started.exit));
      if (server) await stopMain(server);
    } finally {
      for (const extra of extraCgroups) extra.remove();
      cgroup?.remove();
      await store?.remove();
    }
  }, 60_000);

  it(`takes the first ${(reports / 2).toLocaleString('en')} reports from as many addresses, every one acknowledged, and reports them on /admin`, async () => {
    await floodHalf('first');
    standing('after the first half');
    const answer = await adminHasTheDay(reports / 2);
    afterFirstHalf = standing(`after its /admin (${answer.status} in ${answer.ms.toFixed(0)} ms)`);
    expect(cgroup!.oomKills()).toBe(0);
  }, halfFloodMs + 60_000);

  it(`takes the second ${(reports / 2).toLocaleString('en')} and answers /admin for the whole day twice, holding no more than after the first half`, async () => {
    expect(afterFirstHalf).toBeGreaterThan(0);
    await floodHalf('second');
    const afterFlood = standing('after the second half');
    const first = await adminHasTheDay(reports);
    standing(`after the first /admin of the day (${first.status} in ${first.ms.toFixed(0)} ms)`);
    const second = await adminHasTheDay(reports);
    const afterAdmin = standing(`after the second /admin of the day (${second.status} in ${second.ms.toFixed(0)} ms)`);
    expect(cgroup!.oomKills()).toBe(0);
    // Bounded: the whole day held what half of it held, within the allowance.
    const bound = afterFirstHalf + growthAllowance;
    console.log(`${engine}: the processes' own memory after the first half ${megabytes(afterFirstHalf)}, after the second ${megabytes(afterFlood)} and its /admin ${megabytes(afterAdmin)}; at most ${megabytes(bound)} allowed`);
    expect(afterFlood).toBeLessThanOrEqual(bound);
    expect(afterAdmin).toBeLessThanOrEqual(bound);
  }, halfFloodMs + 120_000);

  it('reports the day through npm run stats, in a 256 MB cgroup of its own, the server still running', async () => {
    // As an operator runs it, from a shell outside the service's MemoryMax (deploy/auctions-guide.service).
    const own = memoryCgroup(`auctions-guide-memory-limit-${engine}-stats`);
    extraCgroups.push(own);
    const started = Date.now();
    const stats = startInside(own, path.join(projectRoot, 'node_modules/.bin/tsx'), ['scripts/stats.ts', '--json', '--days', '1', ...store!.stats.args], store!.stats.env);
    extraProcesses.push(stats);
    const code = await stats.exit;
    console.log(`${engine}, npm run stats: exit ${code} in ${Date.now() - started} ms, its cgroup's peak ${megabytes(own.peakBytes())}, killed for memory: ${own.oomKills()}`);
    standing('after npm run stats');
    expect({ code, stderr: stats.stderr() }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stats.stdout()) as { all: { views: number; viewVisitors: number; clicks: number; visitors: number } };
    expect(report.all).toMatchObject({ views: reports / 2, clicks: reports / 2 });
    // Distinct visitors past 128 are a sketch's estimate, 0.41% standard error for the whole day: 2% is five of them.
    expect(Math.abs(report.all.viewVisitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(Math.abs(report.all.visitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(fate()).toBe('running');
    expect(cgroup!.oomKills()).toBe(0);
    console.log(
      `${engine}, server: idle resident ${megabytes(idle!.now)}, peak resident ${megabytes(resident(server!.child.pid!)!.peak)}; ` +
        `the cgroup's peak (${cgroup!.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak'}) ${megabytes(cgroup!.peakBytes())} of ${megabytes(limitBytes)}`,
    );
  }, 120_000);
});
