import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, appendFileSync, chownSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './mainProcess';
import { cleanUpWhenThisProcessEnds, endProcess, isExecutable } from './serviceProcess';

/**
 * Throwaway PostgreSQL for the tests: a cluster made by initdb in a temporary folder, listening on a free
 * loopback port only, with durability turned off (nothing here is worth an fsync). PostgreSQL refuses to
 * run as root, so as root (this workplace and CI) the cluster belongs to the `postgres` user and every
 * command runs through `runuser -u postgres`.
 */

const execFileAsync = promisify(execFile);
const minimumMajorVersion = 13; // DROP DATABASE … WITH (FORCE)
const clusterUser = 'postgres';
const databasePrefix = 'auctions_guide_test_';

/** The variable naming the server test databases are made on: the user's own, or the global setup's cluster. */
export const testDatabaseUrlVariable = 'TEST_DATABASE_URL';
/** The variable naming a database on that server at the current schema, which migrated test databases copy (prepareTemplateDatabase). */
const templateVariable = 'TEST_DATABASE_TEMPLATE';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres (superuser, trust authentication). */
  url: string;
  port: number;
  /** The temporary folder: data/ (unless options.dataDir put it elsewhere), postgres.log and the unix socket. */
  dir: string;
  /** The data directory. */
  dataDir: string;
  /** Starts the stopped cluster again, on the same port; also one that stopped itself (a PANIC whose recovery failed). */
  start(): Promise<void>;
  /** Fast shutdown: open connections are ended, the data stays. */
  stop(): Promise<void>;
  /** Whether the cluster's postmaster runs (pg_ctl status). */
  isRunning(): Promise<boolean>;
  /** Stops the cluster if it runs and removes its folder. */
  destroy(): Promise<void>;
  /** The server's log so far. */
  log(): string;
}

export interface PostgresClusterOptions {
  /** Bound on each initdb, start and stop. */
  timeoutMs?: number;
  /** Extra postgresql.conf settings, e.g. { max_connections: '50' }. */
  settings?: Record<string, string>;
  /**
   * Where the data directory goes instead of data/ in the temporary folder, e.g. on a small disk the test
   * fills: a path that does not exist yet, in a folder the cluster's user may enter. Made here, owned by
   * that user, removed by destroy(). The log and the socket stay in the temporary folder, so the server
   * can still say what went wrong when that disk is full.
   */
  dataDir?: string;
}

const isRoot = process.getuid?.() === 0;

/** Settings that make a test cluster fast and private; none of them belongs on a real server. */
function clusterSettings(dir: string, port: number, extra: Record<string, string>): string {
  const settings: Record<string, string> = {
    listen_addresses: "'127.0.0.1'",
    port: String(port),
    unix_socket_directories: `'${dir}'`,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    wal_level: 'minimal',
    max_wal_senders: '0',
    max_connections: '200',
    jit: 'off',
    ...extra,
  };
  return `\n# auctions-guide test cluster\n${Object.entries(settings)
    .map(([name, value]) => `${name} = ${value}`)
    .join('\n')}\n`;
}

// Only TCP from 127.0.0.1; no other line, so nothing else (not even the socket) gets in.
const hostBasedAuthentication = 'host all all 127.0.0.1/32 trust\n';


async function pgConfigBinDir(): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('pg_config', ['--bindir'], { timeout: 5_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** Folders that may hold initdb and pg_ctl: pg_config's, Debian's /usr/lib/postgresql/N/bin (highest first), then PATH. */
async function candidateBinDirs(): Promise<string[]> {
  const debianRoot = '/usr/lib/postgresql';
  const debianDirs = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => path.join(debianRoot, version, 'bin'))
    : [];
  const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return [...new Set([(await pgConfigBinDir()) ?? '', ...debianDirs, ...pathDirs].filter(Boolean))];
}

/** The folder holding initdb and pg_ctl of PostgreSQL 13 or later, or an error that says what to install. */
export async function findPostgresBinDir(): Promise<string> {
  const dirs = await candidateBinDirs();
  const found = dirs.filter((dir) => isExecutable(path.join(dir, 'initdb')) && isExecutable(path.join(dir, 'pg_ctl')));
  for (const dir of found) {
    const { stdout } = await execFileAsync(path.join(dir, 'initdb'), ['--version'], { timeout: 5_000 });
    const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1]);
    if (major >= minimumMajorVersion) return dir;
  }
  const seen = found.length ? ` (found only versions before ${minimumMajorVersion} in ${found.join(', ')})` : '';
  throw new Error(
    `PostgreSQL ${minimumMajorVersion} or later is needed for the tests, but no initdb and pg_ctl were found${seen}. ` +
      `Install Debian's postgresql package (bash scripts/ensure-test-services.sh does, as root), ` +
      `or set ${testDatabaseUrlVariable} to a server of your own.`,
  );
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  try {
    const [uid, gid] = await Promise.all(['-u', '-g'].map((flag) => execFileAsync('id', [flag, name], { timeout: 5_000 })));
    return { uid: Number(uid!.stdout), gid: Number(gid!.stdout) };
  } catch {
    throw new Error(
      `PostgreSQL refuses to run as root, and there is no '${name}' user to run the test cluster as. ` +
        `Debian's postgresql package creates it; or run the tests as an ordinary user.`,
    );
  }
}

/** Runs a PostgreSQL program as the cluster's owner, bounded in time; the error carries its output. */
async function runAsOwner(bin: string, args: string[], cwd: string, timeoutMs: number): Promise<void> {
  const [command, commandArgs] = isRoot ? ['runuser', ['-u', clusterUser, '--', bin, ...args]] : [bin, args];
  try {
    await execFileAsync(command, commandArgs, { cwd, timeout: timeoutMs, killSignal: 'SIGKILL' });
  } catch (caught) {
    const error = caught as { killed?: boolean; code?: number; stdout?: string; stderr?: string };
    const outcome = error.killed ? `did not finish within ${timeoutMs} ms` : `failed (exit code ${error.code})`;
    const message = `${path.basename(bin)} ${args.join(' ')} ${outcome}:\n${error.stderr ?? ''}${error.stdout ?? ''}`.trim();
    throw Object.assign(new Error(message), { exitCode: error.killed ? undefined : error.code });
  }
}

/**
 * initdb into a fresh temporary folder and start the cluster on a free loopback port.
 * Takes about a second; call destroy() when done.
 */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const binDir = await findPostgresBinDir();
  const pgCtl = path.join(binDir, 'pg_ctl');
  const owner = isRoot ? await userIds(clusterUser) : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-pg-'));
  const dataDir = options.dataDir ?? path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  if (owner) chownSync(dir, owner.uid, owner.gid);
  if (options.dataDir) {
    mkdirSync(dataDir, { mode: 0o700 });
    if (owner) chownSync(dataDir, owner.uid, owner.gid);
  }

  const asOwner = (words: string[]) => (isRoot ? ['runuser', '-u', clusterUser, '--', ...words] : words);
  const watchdog = cleanUpWhenThisProcessEnds([
    asOwner([pgCtl, '-D', dataDir, 'stop', '-m', 'immediate']),
    ['rm', '-rf', dir, dataDir],
  ]);
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const seconds = String(Math.ceil(timeoutMs / 1000));
  let running = false;
  let port = 0;

  const pgCtlStart = async () => {
    try {
      // pg_ctl waits (-w, at most -t seconds) until the server accepts connections.
      await runAsOwner(pgCtl, ['-D', dataDir, '-l', logFile, '-w', '-t', seconds, 'start'], dir, timeoutMs + 5_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nServer log (${logFile}):\n${log().slice(-2_000)}`);
    }
    running = true;
  };

  try {
    await runAsOwner(
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-U', clusterUser, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'],
      dir,
      timeoutMs,
    );
    writeFileSync(path.join(dataDir, 'pg_hba.conf'), hostBasedAuthentication);
    // Another process may take the free port between the probe and the bind: try another one.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      appendFileSync(path.join(dataDir, 'postgresql.conf'), clusterSettings(dir, port, options.settings ?? {}));
      try {
        await pgCtlStart();
        break;
      } catch (error) {
        if (attempt === 3 || !/could not bind|already in use/i.test(log())) throw error;
      }
    }
  } catch (error) {
    endProcess(watchdog);
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  // A postmaster may also end by itself (a PANIC whose crash recovery fails shuts it down), so what
  // pg_ctl says outranks what this object last did. Exit code 3: not running.
  const isRunning = async () => {
    try {
      await runAsOwner(pgCtl, ['-D', dataDir, 'status'], dir, 10_000);
      return true;
    } catch (error) {
      if ((error as { exitCode?: unknown }).exitCode === 3) return false;
      throw error;
    }
  };

  const stop = async () => {
    if (!running) return;
    if (!(await isRunning())) {
      running = false;
      return;
    }
    await runAsOwner(pgCtl, ['-D', dataDir, '-w', '-t', seconds, 'stop', '-m', 'fast'], dir, timeoutMs + 5_000);
    running = false;
  };

  return {
    url: `postgres://${clusterUser}@127.0.0.1:${port}/postgres`,
    port,
    dir,
    dataDir,
    log,
    start: async () => {
      if (!running || !(await isRunning())) await pgCtlStart();
    },
    stop,
    isRunning,
    destroy: async () => {
      // Should the stop fail, the watchdog is left to clean up when this process ends.
      await stop();
      endProcess(watchdog);
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The global setup's cluster, kept for the global teardown (both run in jest's main process).
const sharedClusterKey = Symbol.for('auctions-guide.sharedPostgresCluster');
type WithSharedCluster = typeof globalThis & { [sharedClusterKey]?: PostgresCluster };

/**
 * For jest's global setup: unless TEST_DATABASE_URL names a server already, starts one cluster for the
 * whole run and sets TEST_DATABASE_URL to it, which the test workers inherit.
 */
export async function startSharedCluster(): Promise<void> {
  if (process.env[testDatabaseUrlVariable]) return;
  const cluster = await startPostgresCluster();
  (globalThis as WithSharedCluster)[sharedClusterKey] = cluster;
  process.env[testDatabaseUrlVariable] = cluster.url;
}

/** For jest's global teardown: destroys the cluster startSharedCluster started, if it did. */
export async function stopSharedCluster(): Promise<void> {
  const holder = globalThis as WithSharedCluster;
  const cluster = holder[sharedClusterKey];
  if (!cluster) return;
  delete holder[sharedClusterKey];
  delete process.env[testDatabaseUrlVariable];
  await cluster.destroy();
}

function serverUrl(): string {
  const url = process.env[testDatabaseUrlVariable];
  if (!url) {
    throw new Error(
      `${testDatabaseUrlVariable} is not set. jest's global setup (tests/support/globalSetup.ts) sets it to a throwaway ` +
        `cluster; run the tests through jest with jest.config.js, or set it to a PostgreSQL server whose user may CREATE DATABASE.`,
    );
  }
  return url;
}

/** Runs one statement on a server's maintenance database, on a connection of its own. */
async function runStatement(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 30_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** The new database's URL, on the same server and user as TEST_DATABASE_URL. */
  url: string;
  /** Ends every connection to it and drops it. */
  drop(): Promise<void>;
}

/**
 * A new database with a random name on TEST_DATABASE_URL's server, so test files never see each other's
 * rows: empty, or with `migrated` a copy of the global setup's template at the current schema (when it made
 * one), so that opening it migrates nothing.
 */
export async function createTestDatabase({ migrated = false }: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const server = serverUrl();
  const name = `${databasePrefix}${randomBytes(6).toString('hex')}`;
  const template = migrated ? process.env[templateVariable] : undefined;
  await runStatement(server, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => runStatement(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * For jest's global setup, once TEST_DATABASE_URL names a server: a database brought to the current schema
 * by `migrate` (which must close every connection it opened), for createTestDatabase({ migrated: true }) to
 * copy. Copying a database is one statement; migrating a new one is every step's statements again, for
 * each of the hundreds of tests that open one (docs/testing.md).
 */
export async function prepareTemplateDatabase(migrate: (url: string) => Promise<void>): Promise<void> {
  const { url, drop } = await createTestDatabase();
  try {
    await migrate(url);
  } catch (error) {
    await drop();
    throw error;
  }
  process.env[templateVariable] = new URL(url).pathname.slice(1);
}

/** For jest's global teardown: drops the template prepareTemplateDatabase made (on a server of the user's own, it would stay). */
export async function dropTemplateDatabase(): Promise<void> {
  const template = process.env[templateVariable];
  if (!template) return;
  delete process.env[templateVariable];
  await runStatement(serverUrl(), `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
}
