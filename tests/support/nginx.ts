import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './mainProcess';
import { procStatFields } from './procStat';
import { cleanUpWhenThisProcessEnds, endProcess, isExecutable } from './serviceProcess';
import { waitUntil } from './waitUntil';

/**
 * nginx in front of several app instances, for tests and the load test: one config in a temporary
 * prefix folder (pid, logs and every temp path inside it), listening on a free loopback port.
 */

const execFileAsync = promisify(execFile);

export interface NginxConfigOptions {
  /** Loopback ports of the app instances, served round-robin. */
  upstreams: number[];
  listenPort: number;
  /** The folder holding the pid file, logs and temp paths. */
  prefix: string;
  /** Upstream ports marked `down`: out of the rotation, as an operator takes an instance out before stopping it. */
  down?: number[];
}

/**
 * The whole nginx.conf. The `upstream` and `server` blocks are what a real deployment of several instances
 * needs too (there with `worker_processes auto`, the usual logs, TLS and `X-Forwarded-Proto https`); the rest keeps
 * this test instance inside its prefix folder.
 */
export function nginxConfig({ upstreams, listenPort, prefix, down = [] }: NginxConfigOptions): string {
  const inPrefix = (name: string) => path.join(prefix, name);
  const servers = upstreams.map((port) => `        server 127.0.0.1:${port}${down.includes(port) ? ' down' : ''};`).join('\n');
  return `# Several auctions-guide instances behind one nginx (test instance in ${prefix}).
daemon off;            # the test process is the master's parent and stops it
worker_processes 1;    # one rotation, so round-robin is exact; plenty on loopback
pid ${inPrefix('nginx.pid')};
error_log ${inPrefix('error.log')} warn;

events {
    worker_connections 1024;
}

http {
    log_format upstreams '$remote_addr "$request" $status upstream=$upstream_addr';
    access_log ${inPrefix('access.log')} upstreams;
    client_body_temp_path ${inPrefix('client_body_temp')};
    proxy_temp_path ${inPrefix('proxy_temp')};
    fastcgi_temp_path ${inPrefix('fastcgi_temp')};
    uwsgi_temp_path ${inPrefix('uwsgi_temp')};
    scgi_temp_path ${inPrefix('scgi_temp')};

    upstream auctions_guide {
${servers}
        keepalive 16;
        # Below the app's keepAliveTimeout (5 s), so nginx never sends a request on a connection the app
        # is closing: a POST lost that way is answered 502 and not retried (see proxy_next_upstream below).
        keepalive_timeout 4s;
    }

    server {
        listen 127.0.0.1:${listenPort};

        location / {
            proxy_pass http://auctions_guide;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # proxy_next_upstream keeps its default, "error timeout": a request no instance accepted goes to the
            # next one, but a POST already sent is never sent again (that takes "non_idempotent", left out on
            # purpose), because an instance may have committed it before failing and a click report must not
            # be counted twice.
        }
    }
}
`;
}

export interface StartNginxOptions {
  /** Loopback ports of the app instances. */
  upstreams: number[];
  /** Bound on the start (and on each step of stop). */
  timeoutMs?: number;
}

export interface RunningNginx {
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** The nginx.conf it runs with. */
  config: string;
  prefix: string;
  errorLog(): string;
  /** One line per request, ending in upstream=127.0.0.1:PORT. */
  accessLog(): string;
  /**
   * Rewrites nginx.conf with these upstreams marked down and reloads it (SIGHUP), resolving once the
   * workers of the old configuration have finished their requests and exited: from then on no request
   * goes to a port marked down.
   */
  reload(options: { down: number[] }): Promise<void>;
  /** Graceful stop (SIGQUIT), then SIGTERM and SIGKILL if it takes too long; removes the prefix folder. */
  stop(): Promise<void>;
}


/** NGINX_PATH, Debian's /usr/sbin/nginx, or nginx on PATH. */
export function findNginx(): string {
  const configured = process.env.NGINX_PATH;
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new Error(`NGINX_PATH is set to ${configured}, but there is no executable there.`);
  }
  const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const found = ['/usr/sbin', ...pathDirs].map((dir) => path.join(dir, 'nginx')).find(isExecutable);
  if (found) return found;
  throw new Error(
    "nginx is needed for the tests of several instances, but it is not at /usr/sbin/nginx nor on PATH. Install Debian's " +
      'nginx package (bash scripts/ensure-test-services.sh does, as root), or set NGINX_PATH.',
  );
}

/** -e (the error log used before the config is read) exists since nginx 1.19.5; older ones refuse the flag. */
async function takesErrorLogFlag(bin: string): Promise<boolean> {
  const { stderr } = await execFileAsync(bin, ['-v'], { timeout: 5_000 });
  const [major = 0, minor = 0, patch = 0] = (/nginx\/(\d+)\.(\d+)\.(\d+)/.exec(stderr) ?? []).slice(1).map(Number);
  return major > 1 || (major === 1 && (minor > 19 || (minor === 19 && patch >= 5)));
}


/** The processes whose parent is `pid` now (nginx's workers, for its master), from each /proc/PID/stat. */
function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const parent = Number(procStatFields(stat)[1]);
    if (parent === pid) children.push(Number(entry));
  }
  return children;
}

/** Whether something accepts a connection on the loopback port now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether the child has exited, or does within withinMs. */
export async function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  if (withinMs === 0) return false;
  const timeout = AbortSignal.timeout(withinMs);
  return once(child, 'exit', { signal: timeout }).then(
    () => true,
    () => false,
  );
}

/** Starts nginx and resolves once it accepts connections on its port. */
export async function startNginx(options: StartNginxOptions): Promise<RunningNginx> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (options.upstreams.length === 0) throw new Error('startNginx needs at least one upstream port');
  const bin = findNginx();
  const errorLogFlag = await takesErrorLogFlag(bin);
  const prefix = mkdtempSync(path.join(tmpdir(), 'auctions-guide-nginx-'));
  // As root the workers run as nobody; nginx makes the temp folders theirs, but they must reach them.
  if (process.getuid?.() === 0) chmodSync(prefix, 0o755);
  const configFile = path.join(prefix, 'nginx.conf');
  const errorLogFile = path.join(prefix, 'error.log');
  const readLog = (name: string) => (existsSync(path.join(prefix, name)) ? readFileSync(path.join(prefix, name), 'utf8') : '');

  const launch = async (): Promise<{ child: ChildProcess; port: number; config: string; failure?: string }> => {
    const port = await freePort();
    const config = nginxConfig({ upstreams: options.upstreams, listenPort: port, prefix });
    writeFileSync(configFile, config);
    const args = ['-p', `${prefix}/`, '-c', configFile, ...(errorLogFlag ? ['-e', errorLogFile] : [])];
    const child = spawn(bin, args, { cwd: prefix, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + timeoutMs;
    while (!(await accepts(port))) {
      if (await exited(child, 20)) return { child, port, config, failure: `nginx exited (code ${child.exitCode}):\n${stderr}${readLog('error.log')}` };
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        return { child, port, config, failure: `nginx did not accept connections on 127.0.0.1:${port} within ${timeoutMs} ms:\n${stderr}${readLog('error.log')}` };
      }
    }
    return { child, port, config };
  };

  // Another process may take the free port between the probe and nginx's bind: try another one.
  let started = await launch();
  for (let attempt = 2; started.failure && /already in use/.test(started.failure) && attempt <= 3; attempt += 1) started = await launch();
  if (started.failure) {
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(started.failure);
  }
  const { child, port } = started;
  let config = started.config;
  const watchdog = cleanUpWhenThisProcessEnds([
    ['kill', '-TERM', String(child.pid)],
    ['rm', '-rf', prefix],
  ]);

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get config() {
      return config;
    },
    prefix,
    errorLog: () => readLog('error.log'),
    accessLog: () => readLog('access.log'),
    reload: async ({ down }) => {
      const before = childPids(child.pid!);
      config = nginxConfig({ upstreams: options.upstreams, listenPort: port, prefix, down });
      writeFileSync(configFile, config);
      child.kill('SIGHUP');
      // The master starts new workers, and the old ones exit once their requests in flight are done.
      await waitUntil(
        `nginx's new workers, and its old ones (${before.join(', ')}) gone after the reload`,
        () => {
          const now = childPids(child.pid!);
          return now.length > 0 && !now.some((pid) => before.includes(pid));
        },
        { timeoutMs, intervalMs: 20 },
      );
    },
    stop: async () => {
      const stepMs = Math.min(timeoutMs, 5_000);
      for (const signal of ['SIGQUIT', 'SIGTERM', 'SIGKILL'] as const) {
        if (await exited(child, 0)) break;
        child.kill(signal);
        if (await exited(child, stepMs)) break;
      }
      if (!(await exited(child, 0))) throw new Error(`nginx (pid ${child.pid}) did not exit after SIGKILL`);
      endProcess(watchdog);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
