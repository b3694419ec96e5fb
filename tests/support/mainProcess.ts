import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';

const mainScript = path.join(projectRoot, 'dist/server/main.cjs');

export interface Started {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/**
 * Starts the built server (dist/server/main.cjs) as a child process with only the given environment.
 * Click counting is off unless the test turns it on with a CLICKS_DB of its own, so no test writes data/.
 */
export function startMain(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [mainScript], { env: { PATH: process.env.PATH ?? '', CLICK_STATS: 'off', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Resolves once the child's stdout has printed a line matching pattern. */
export async function waitForOutput(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = started.stdout().match(pattern);
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.stderr()}`);
    await once(started.child.stdout, 'data');
  }
}

/** A port nothing listens on now: opened by the kernel's choice, read, closed. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
