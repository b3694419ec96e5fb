import { freePort, startMain, waitForOutput, type Started } from './mainProcess';

/** A built server process that has said it is listening, on a loopback port of its own. */
export interface ListeningMain extends Started {
  port: number;
  /** http://127.0.0.1:PORT, the instance itself (not a proxy in front of it). */
  url: string;
}

/**
 * startMain on HOST=127.0.0.1 and the given (or a free) PORT, resolved once the start line is printed.
 * A process that does not get there within timeoutMs is killed, and the error carries its output.
 */
export async function startListeningMain(env: Record<string, string>, { timeoutMs = 15_000 }: { timeoutMs?: number } = {}): Promise<ListeningMain> {
  const port = Number(env.PORT ?? (await freePort()));
  const started = startMain({ HOST: '127.0.0.1', ...env, PORT: String(port) });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no start line within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([waitForOutput(started, /Auctions Guide is listening on/), timeout]);
  } catch (error) {
    started.child.kill('SIGKILL');
    throw new Error(`server on port ${port} did not start: ${(error as Error).message}\nstdout: ${started.stdout()}\nstderr: ${started.stderr()}`);
  } finally {
    clearTimeout(timer);
  }
  return { ...started, port, url: `http://127.0.0.1:${port}` };
}

/**
 * Ends a server process for good: SIGTERM, then SIGKILL if it has not exited within timeoutMs.
 * Resolves with its exit code (null when a signal ended it); a process already gone is left alone.
 */
export async function stopMain(started: Started, timeoutMs = 15_000): Promise<number | null> {
  const { child } = started;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    if ((await Promise.race([started.exit, late])) === 'late') child.kill('SIGKILL');
    clearTimeout(timer);
  }
  return started.exit;
}

/** How many lines of a process's output match pattern. */
export function countLines(output: string, pattern: RegExp): number {
  return output.split('\n').filter((line) => pattern.test(line)).length;
}

/** A server's stderr without its warnings (start-up's sample AFFILIATE_URL, no CONTACT_EMAIL): what went wrong, line by line. */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !/^\S+ WARNING /.test(line));
}
