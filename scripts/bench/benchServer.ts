import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';

/** The built server as the bench parts start it: on its own click database, with conversions on. */

export const mainScript = path.join(projectRoot, 'dist/server/main.cjs');
/** The bench's click database: never the operator's data/. Its folder goes when the bench ends, whichever parts ran. */
const benchDir = mkdtempSync(path.join(tmpdir(), 'bench-clicks-'));
process.once('exit', () => rmSync(benchDir, { recursive: true, force: true }));
export const benchClicksDb = path.join(benchDir, 'clicks.sqlite');
/** The bench servers' CONVERSIONS_KEY, so GET /api/conversions exists on them. */
export const benchConversionsKey = 'bench-conversions-key-0123456789abcdef';

export async function waitUntilUp(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** How the server's command is run: as it is, unless a part wraps it (the memory part, in a memory cgroup). */
export type CommandWrapper = (command: string, args: readonly string[]) => { command: string; args: string[] };

export async function startServer(
  port: number,
  database: Record<string, string> = { CLICKS_DB: benchClicksDb },
  wrap: CommandWrapper = (command, args) => ({ command, args: [...args] }),
): Promise<ChildProcess> {
  const run = wrap(process.execPath, [mainScript]);
  const child = spawn(run.command, run.args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://localhost:${port}`,
      ...database,
      CLICK_STATS: 'on',
      CONVERSIONS_KEY: benchConversionsKey,
      // Each benchmark report comes from its own X-Forwarded-For address, as many visitors would.
      TRUST_PROXY: 'true',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk));
  // A server that stops at start-up (a bad setting, a database it cannot use) ends the bench, saying why.
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`The bench's server on port ${port} exited with code ${code} before answering: ${errors.trim()}`);
  });
  await Promise.race([waitUntilUp(`http://127.0.0.1:${port}/healthz`), exited]);
  exited.catch(() => {});
  return child;
}

export async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await once(child, 'exit');
}
