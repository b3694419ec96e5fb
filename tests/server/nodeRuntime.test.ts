import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/logger';
import { unsupportedNodeMessage } from '../../server/nodeVersion';
import { projectRoot } from '../../server/paths';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const mainScript = path.join(projectRoot, 'dist/server/main.cjs');

/** The machine's own Node (Debian ships 20 here), when it is one this project refuses. */
const olderNodePath = '/usr/bin/node';
function olderNodeVersion(): string | undefined {
  if (!existsSync(olderNodePath)) return undefined;
  const version = execFileSync(olderNodePath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  return unsupportedNodeMessage(version) === undefined ? undefined : version;
}
const olderNode = olderNodeVersion();

describe('server/main on a Node older than 22.12', () => {
  // better-sqlite3 13 crashes an older Node with a segmentation fault; the check must come first.
  const itWithOlderNode = olderNode ? it : it.skip;
  itWithOlderNode(
    olderNode
      ? `stops on Node ${olderNode} with exit code 1 and one line naming the version needed, before opening the database`
      : `stops on an older Node with one line (skipped: ${olderNodePath} is missing or is 22.12 or newer)`,
    async () => {
      const clicksDb = path.join(temp.dir(), 'clicks.sqlite');
      const child = spawn(olderNodePath, [mainScript], {
        env: { PATH: process.env.PATH ?? '', CLICK_STATS: 'on', CLICKS_DB: clicksDb, HOST: '127.0.0.1', PORT: String(await freePort()) },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];

      expect(code).toBe(1);
      expect(stderr).toBe(`auctions-guide: Node 22.12 or newer is needed (24 LTS recommended); this is Node ${olderNode}\n`);
      expect(stdout).toBe('');
      expect(existsSync(clicksDb)).toBe(false);
    },
  );
});

describe(`twenty starts and stops of the server on Node ${process.versions.node}`, () => {
  const startAndStop = async (clicksDb: string) => {
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1', CLICK_STATS: 'on', CLICKS_DB: clicksDb });
    try {
      await waitForOutput(started, /listening on/);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      started.child.kill('SIGTERM');
    }
    // A crash in the native SQLite binding ends with a signal (code null) and a message on stderr.
    expect(await started.exit).toBe(0);
    expect(started.stderr()).not.toMatch(/Assertion|Segmentation/);
  };

  it('starts ten times, each with a new database file, answers /healthz, and exits 0 on SIGTERM', async () => {
    for (let run = 0; run < 10; run++) {
      const clicksDb = path.join(temp.dir(), `run-${run}`, 'clicks.sqlite');
      await startAndStop(clicksDb);
      expect(existsSync(clicksDb)).toBe(true);
    }
  }, 120_000);

  it('starts ten times on the same existing database file, answers /healthz, and exits 0 on SIGTERM', async () => {
    const clicksDb = path.join(temp.dir(), 'clicks.sqlite');
    await (await openDatabase({ engine: 'sqlite', file: clicksDb }, { logger: silentLogger })).close();
    for (let run = 0; run < 10; run++) await startAndStop(clicksDb);
  }, 120_000);
});
