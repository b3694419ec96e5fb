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
 * 256 MB cgroup of its own.
 * Before the report worker's memory was bounded, the first /admin after such a day filled the cgroup and
 * the kernel killed the whole process. Skipped, saying why, where no memory cgroup can be made (not root,
 * no memory controller).
 *
 * On PostgreSQL the database server is a throwaway cluster of this test's own, running outside the cgroup:
 * only the site's Node process is held to 256 MB. The issue's limit is the site's service (MemoryMax), and
 * PostgreSQL is a service of its own, on the same machine with its own budget or on another one; what
 * this proves is that the site holds what it reads from it, a page at a time, however busy the day.
 */

const limitBytes = 256 * 1024 * 1024;
/**
 * The day's reports, clicks and views in turn, each from an address of its own: the issue's 300,000 with
 * MEMORY_LIMIT_REPORTS=300000 (for both engines). Unset, 200,000 on SQLite, the smallest day the old
 * worker did not survive, and 100,000 on PostgreSQL, which keeps the file within 6 minutes on 2 shared
 * cores (each engine took about 1,000 reports a second there). The worker's bound is the same code on
 * both engines; what PostgreSQL's case adds is its own reading (pages through pg, openDays.ts's reads
 * that settle only on the next one), whose memory does not grow with the day either.
 */
const reportsOf = (engine: Engine) => Number(process.env.MEMORY_LIMIT_REPORTS ?? (engine === 'sqlite' ? 200_000 : 100_000));
/** The flood's time: long enough for the issue's 300,000 at 1,400 a second, the pace on 2 cores busy with other tests too. */
const floodMsOf = (reports: number) => Math.max(240_000, reports * 1.25);
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
  const reports = reportsOf(engine);
  const floodMs = floodMsOf(reports);
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
  const standing = (when: string) => {
    const { anonBytes, fileBytes } = cgroup!.charged();
    const own = resident(server!.child.pid!);
    console.log(
      `${engine}, ${when}: server ${own ? `resident ${megabytes(own.now)} (peak ${megabytes(own.peak)})` : fate()}; cgroup charged ${megabytes(cgroup!.usageBytes())} ` +
        `(${megabytes(anonBytes)} the processes' own, ${megabytes(fileBytes)} file cache), peak ${megabytes(cgroup!.peakBytes())} of ${megabytes(limitBytes)}; ` +
        `killed for memory: ${cgroup!.oomKills()}`,
    );
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

  it(`takes ${reports.toLocaleString('en')} reports from as many addresses, every one acknowledged`, async () => {
    const started = Date.now();
    const flood = await floodReports(url, {
      reports,
      timeLimitMs: floodMs,
      onAnswer: (answered) => {
        if (answered % 100_000 === 0) standing(`after ${answered.toLocaleString('en')} reports`);
      },
    });
    console.log(`${engine}, flood: ${flood.acknowledged} acknowledged, ${flood.refused} refused, ${flood.failed} failed, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    standing('after the flood');
    expect(flood).toMatchObject({ acknowledged: reports, refused: 0, failed: 0 });
    expect(fate()).toBe('running');
  }, floodMs + 30_000);

  it("answers /admin with the day's figures, twice, and stays alive", async () => {
    const first = await admin();
    standing(`after the first /admin (${first.status} in ${first.ms.toFixed(0)} ms)`);
    expect(first.status).toBe(200);
    const second = await admin();
    standing(`after the second /admin (${second.status} in ${second.ms.toFixed(0)} ms)`);
    expect(second.status).toBe(200);
    // Every view and click is there; the visitors behind them are estimates past 128 (docs/funnel.md).
    const day = new Date().toISOString().slice(0, 10);
    const [views, clicks] = cells(rowHeaded(tableCaptioned(parseHtml(first.html), 'Views, clicks and conversions per day'), day)).map((cell) => cell.split(' / ').map((figure) => Number(figure.replaceAll(',', ''))));
    expect([views![0], clicks![0]]).toEqual([reports / 2, reports / 2]);
    for (const visitors of [views![1]!, clicks![1]!]) expect(Math.abs(visitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(fate()).toBe('running');
    expect(cgroup!.oomKills()).toBe(0);
  }, 120_000);

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
