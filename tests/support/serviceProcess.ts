import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** What the throwaway services of the tests (PostgreSQL clusters, nginx) share: finding binaries, and never outliving jest. */

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * A detached shell that runs cleanup once this process is gone, so a crashed or killed jest never leaves
 * a cluster behind (for PostgreSQL clusters, nginx and Chromium). Its pid is returned so a normal shutdown can end it first.
 */
export function cleanUpWhenThisProcessEnds(cleanup: string[][]): number | undefined {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${cleanup.map((words) => words.map(shellQuote).join(' ')).join('; ')}`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return watchdog.pid;
}

export function endProcess(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
