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

/**
 * Resolves once the child's stdout has printed a line matching pattern; throws with its stderr if it ends
 * first (a server that stops at start-up, a port taken, a crash, prints nothing more to wait for).
 */
export async function waitForOutput(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = started.stdout().match(pattern);
    if (match) return match;
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(`server exited (${started.child.exitCode ?? started.child.signalCode}) before printing ${pattern}: ${started.stderr()}`);
    }
    await Promise.race([once(started.child.stdout, 'data'), started.exit]);
  }
}

/**
 * Sends SIGTERM and resolves to the exit code; a server still running `withinMs` later is killed and the
 * call throws with what it printed, so a shutdown that hangs fails saying where it stood instead of
 * running into the test's timeout unexplained.
 */
export async function stopWithin(started: Started, withinMs: number): Promise<number | null> {
  started.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
  const outcome = await Promise.race([started.exit, late]).finally(() => clearTimeout(timer));
  if (outcome !== 'late') return outcome;
  started.child.kill('SIGKILL');
  await started.exit;
  throw new Error(`server still running ${withinMs} ms after SIGTERM; stdout:\n${started.stdout()}\nstderr:\n${started.stderr()}`);
}

/** A port nothing listens on now: opened by the kernel's choice, read, closed. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
