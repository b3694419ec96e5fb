import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { projectRoot } from '../../server/lib/paths';
import type { MemoryCgroup } from '../../tests/support/memoryCgroup';

/** The built server and the stats script, started and timed for the volume part; every wait here has a limit. */

const mainScript = path.join(projectRoot, 'dist/server/main.cjs');
const tsx = path.join(projectRoot, 'node_modules/.bin/tsx');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's environment without the variables that choose a database, plus the ones given. */
export function environmentWith(variables: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.CLICKS_DB;
  return { ...env, ...variables };
}

export interface RunningServer {
  child: ChildProcess;
  base: string;
  /** performance.now() when it was spawned, and milliseconds from then to the first answered /healthz. */
  startedAt: number;
  readyMs: number;
  /** What it has written to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns dist/server/main.cjs on 127.0.0.1 and waits, at most limitMs, for /healthz; a server that exits
 * first ends the wait with its output. The child is in `children` for as long as it runs.
 */
export async function startBuiltServer(port: number, variables: Record<string, string>, limitMs: number, children: Set<ChildProcess>, cgroup?: MemoryCgroup): Promise<RunningServer> {
  // Another build may be rewriting dist/ at this moment (it removes the folder first): give it a minute.
  for (let waited = 0; !existsSync(mainScript) && waited < 60_000; waited += 500) await sleep(500);
  const started = performance.now();
  // In a memory cgroup, as deploy/auctions-guide.service's MemoryMax holds the site: `sh` enters it and execs Node, keeping the pid.
  const command = cgroup ? cgroup.inside(process.execPath, [mainScript]) : { command: process.execPath, args: [mainScript] };
  const child = spawn(command.command, command.args, {
    env: environmentWith({ PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://localhost:${port}`, CLICK_STATS: 'on', ...variables }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // The access log of a long run would grow without end: keep the last 64 KB.
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  children.add(child);
  const exited = once(child, 'exit').finally(() => children.delete(child));
  let spawnError: Error | undefined;
  exited.catch((error: Error) => (spawnError = error));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = performance.now() + limitMs; ; ) {
    if (spawnError) throw new Error(`the server could not be started: ${spawnError.message}`);
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before answering: ${output.trim()}`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /healthz within ${limitMs / 1000} s: ${output.trim()}`);
    }
    try {
      if ((await timedGet(`${base}/healthz`, {}, 2_000)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  return { child, base, startedAt: started, readyMs: performance.now() - started, output: () => output, stop };
}

export interface Timed {
  ms: number;
  status: number;
  /** The body as sent (compressed when the server compressed it) and as read. */
  wireBytes: number;
  bytes: number;
}

/** GET url as a browser would (asking for brotli or gzip), timed to the body's last byte, failing after limitMs. */
export function timedGet(url: string, headers: Record<string, string>, limitMs = 120_000): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A connection of its own each time: a kept-alive one may be closed by the server just as it is reused.
    const request = http.get(url, { agent: false, headers: { 'accept-encoding': 'br, gzip', ...headers }, timeout: limitMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const ms = performance.now() - started;
        const body = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
        resolve({ ms, status: response.statusCode ?? 0, wireBytes: body.length, bytes: decoded.length });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within ${limitMs / 1000} s`)));
    request.on('error', reject);
  });
}

export interface StatsRun {
  ms: number;
  code: number | null;
  stdoutBytes: number;
  stdout: string;
  stderr: string;
}

/** npm run stats's own command (tsx scripts/stats.ts ARGS) with the database's variable, timed from spawn to exit; killed after limitMs. */
export async function timeStatsScript(args: string[], variables: Record<string, string>, limitMs: number): Promise<StatsRun> {
  const started = performance.now();
  const child = spawn(tsx, ['scripts/stats.ts', ...args], { cwd: projectRoot, env: environmentWith(variables), stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_096)));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const stdout = Buffer.concat(out);
  return { ms: performance.now() - started, code, stdoutBytes: stdout.length, stdout: stdout.toString(), stderr };
}
