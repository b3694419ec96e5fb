import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';
import { floodReports } from '../../scripts/bench/reportFlood';
import { basicAuth } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { parseHtml } from '../support/html';
import { freePort, waitForOutput, type Started } from '../support/mainProcess';
import { stopMain } from '../support/listeningMain';
import { openMemoryCgroup, type MemoryCgroup } from '../support/memoryCgroup';

/**
 * Issue 28: the whole site within 256 MB on any day. The built server runs in a memory cgroup of 256 MB
 * (memory and swap), as deploy/auctions-guide.service's MemoryMax holds it, takes a day's flood of reports
 * from as many addresses, then reports that day on /admin, and through npm run stats in a 256 MB cgroup of
 * its own.
 * Before the report worker's memory was bounded, the first /admin after such a day filled the cgroup and
 * the kernel killed the whole process. Skipped, saying why, where no memory cgroup can be made (not root,
 * no memory controller).
 */

const limitBytes = 256 * 1024 * 1024;
/**
 * The day's reports, clicks and views in turn, each from an address of its own: the issue's 300,000 with
 * MEMORY_LIMIT_REPORTS=300000; 200,000 here, which keeps the test within minutes on 2 shared cores.
 */
const reports = Number(process.env.MEMORY_LIMIT_REPORTS ?? 200_000);
/** The flood's time: long enough for the issue's 300,000 at 1,400 a second, the pace on 2 cores busy with other tests too. */
const floodMs = Math.max(240_000, reports * 1.25);
const adminToken = 'memory-limit-admin-token-0123456789';
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const opened = openMemoryCgroup('auctions-guide-memory-limit', limitBytes);
if ('unusable' in opened) console.warn(`memoryLimit.test.ts skipped: ${opened.unusable}. It needs root and a cgroup memory controller (v1, or v2 with memory in a parent's cgroup.subtree_control).`);
const describeInCgroup = 'cgroup' in opened ? describe : describe.skip;

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

describeInCgroup('the whole site in a 256 MB memory cgroup', () => {
  const cgroup = (opened as { cgroup: MemoryCgroup }).cgroup;
  const folder = mkdtempSync(path.join(tmpdir(), 'auctions-guide-memory-'));
  const clicksDb = path.join(folder, 'clicks.sqlite');
  let server: Started | undefined;
  /** What a test started besides the server, ended and removed after all, whatever happened. */
  const extraProcesses: Started[] = [];
  const extraCgroups: MemoryCgroup[] = [];
  let url = '';
  let idle: { now: number; peak: number } | undefined;
  const alive = () => server!.child.exitCode === null && server!.child.signalCode === null;
  const fate = () => (alive() ? 'running' : `gone (exit ${server!.child.exitCode}, signal ${server!.child.signalCode}; killed for memory in the cgroup: ${cgroup.oomKills()})`);
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
    const { anonBytes, fileBytes } = cgroup.charged();
    const own = resident(server!.child.pid!);
    console.log(
      `${when}: server ${own ? `resident ${megabytes(own.now)} (peak ${megabytes(own.peak)})` : fate()}; cgroup charged ${megabytes(cgroup.usageBytes())} ` +
        `(${megabytes(anonBytes)} the processes' own, ${megabytes(fileBytes)} file cache), peak ${megabytes(cgroup.peakBytes())} of ${megabytes(limitBytes)}; ` +
        `killed for memory: ${cgroup.oomKills()}`,
    );
  };

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // No NODE_OPTIONS: Node and V8 as an operator runs them, sizing themselves by what they are given.
    server = startInside(cgroup, process.execPath, [path.join(projectRoot, 'dist/server/main.cjs')], {
      HOST: '127.0.0.1',
      PORT: String(port),
      CLICK_STATS: 'on',
      CLICKS_DB: clicksDb,
      TRUST_PROXY: 'true',
      ADMIN_TOKEN: adminToken,
    });
    await waitForOutput(server, /Auctions Guide is listening on/);
    idle = resident(server.child.pid!);
    console.log(`memory cgroup v${cgroup.version} ${cgroup.dir}, limit ${megabytes(limitBytes)}`);
    standing('idle, before any request');
  }, 60_000);

  afterAll(async () => {
    try {
      for (const started of extraProcesses) if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      await Promise.all(extraProcesses.map((started) => started.exit));
      if (server) await stopMain(server);
    } finally {
      for (const extra of extraCgroups) extra.remove();
      cgroup.remove();
      rmSync(folder, { recursive: true, force: true });
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
    console.log(`flood: ${flood.acknowledged} acknowledged, ${flood.refused} refused, ${flood.failed} failed, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
    const [views, clicks] = cells(rowHeaded(tableCaptioned(parseHtml(first.html), 'Views, clicks and conversions per day'), day)).map((cell) => cell.split(' / ').map(Number));
    expect([views![0], clicks![0]]).toEqual([reports / 2, reports / 2]);
    for (const visitors of [views![1]!, clicks![1]!]) expect(Math.abs(visitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(fate()).toBe('running');
    expect(cgroup.oomKills()).toBe(0);
  }, 120_000);

  it('reports the day through npm run stats, in a 256 MB cgroup of its own, the server still running', async () => {
    // As an operator runs it, from a shell outside the service's MemoryMax (deploy/auctions-guide.service).
    const own = openMemoryCgroup('auctions-guide-memory-limit-stats', limitBytes);
    if ('unusable' in own) throw new Error(own.unusable);
    extraCgroups.push(own.cgroup);
    const started = Date.now();
    const stats = startInside(own.cgroup, path.join(projectRoot, 'node_modules/.bin/tsx'), ['scripts/stats.ts', '--json', '--days', '1', '--db', clicksDb], {});
    extraProcesses.push(stats);
    const code = await stats.exit;
    console.log(`npm run stats: exit ${code} in ${Date.now() - started} ms, its cgroup's peak ${megabytes(own.cgroup.peakBytes())}, killed for memory: ${own.cgroup.oomKills()}`);
    standing('after npm run stats');
    expect({ code, stderr: stats.stderr() }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stats.stdout()) as { all: { views: number; viewVisitors: number; clicks: number; visitors: number } };
    expect(report.all).toMatchObject({ views: reports / 2, clicks: reports / 2 });
    // Distinct visitors past 128 are a sketch's estimate, 0.41% standard error for the whole day: 2% is five of them.
    expect(Math.abs(report.all.viewVisitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(Math.abs(report.all.visitors - reports / 2)).toBeLessThan(0.02 * (reports / 2));
    expect(fate()).toBe('running');
    expect(cgroup.oomKills()).toBe(0);
    console.log(`server: idle resident ${megabytes(idle!.now)}, peak resident ${megabytes(resident(server!.child.pid!)!.peak)}; cgroup peak ${megabytes(cgroup.peakBytes())} of ${megabytes(limitBytes)}`);
  }, 120_000);
});
