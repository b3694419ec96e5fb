import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../server/lib/paths';
import { freePort } from './mainProcess';
import { accepts, exited, findNginx } from './nginx';
import { cleanUpWhenThisProcessEnds, endProcess, isExecutable } from './serviceProcess';

/**
 * The files of deploy/ as an operator installs them, put to work on loopback: the systemd unit pointed at this
 * checkout, and the nginx site in a throwaway prefix (its own nginx.conf, a self-signed certificate, free
 * ports instead of 80 and 443, the pid, logs and temp paths inside it) in front of a test app
 * (tests/server/deploy.test.ts).
 */

const execFileAsync = promisify(execFile);

export const unitFile = 'deploy/auctions-guide.service';
export const envExampleFile = 'deploy/env.example';
export const nginxSiteFile = 'deploy/nginx/auctions-guide.conf';
/** The domain the site file and env.example name, which the operator replaces with theirs. */
export const exampleDomain = 'auctions.example.com';
/** Where the unit expects the clone (docs/deploy.md). */
export const installedAppDir = '/srv/auctions-guide/app';

export const readDeployFile = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

/** A unit file's settings, by name, in the order given (a name set twice keeps both); comments and sections dropped. */
export function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

/** An environment file as systemd reads it (the plain NAME=value lines env.example uses): comments and blank lines skipped. */
export function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** /usr/bin/systemd-analyze (Debian's systemd package), or one on PATH; undefined when there is none. */
export function findSystemdAnalyze(): string | undefined {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  return dirs.map((dir) => path.join(dir, 'systemd-analyze')).find(isExecutable);
}

/**
 * `systemd-analyze verify` on a copy of the unit whose paths point at this checkout (so its ExecStart and
 * WorkingDirectory exist). It exits 0 even for an unknown option or a value it cannot parse (it ignores the
 * line, as systemd would), so everything it prints counts: a clean unit prints nothing.
 */
export async function verifyUnit(bin: string, unitText: string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'auctions-guide-unit-'));
  try {
    const copy = path.join(dir, 'auctions-guide.service');
    writeFileSync(copy, unitText.replaceAll(installedAppDir, projectRoot));
    const result = await execFileAsync(bin, ['verify', '--man=no', copy], { timeout: 30_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
        code: typeof error.code === 'number' ? error.code : -1,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
      }),
    );
    return { code: result.code, output: result.output.replaceAll(copy, unitFile).trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SitePorts {
  http: number;
  https: number;
  app: number;
}

/** Replaces `from` with `to`, failing when `from` does not occur exactly `times` times: the site file changed shape. */
function replaceExactly(text: string, from: string, to: string, times: number): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`${nginxSiteFile}: expected ${times} × "${from}" to rewrite for the test, found ${found}`);
  return text.replaceAll(from, to);
}

/**
 * The site file with only what ties it to a real server changed: loopback ports for 80, 443 and the app's
 * 3000, no IPv6 listeners, the certificate, certbot's webroot and the error log in the prefix. Everything else (TLS, HTTP/2,
 * the headers passed on, caching, timeouts) is tested as written.
 */
export function siteForTest(site: string, prefix: string, ports: SitePorts): string {
  let text = site;
  text = replaceExactly(text, 'listen 80;', `listen 127.0.0.1:${ports.http};`, 1);
  text = replaceExactly(text, 'listen [::]:80;', '', 1);
  text = replaceExactly(text, 'listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`, 1);
  text = replaceExactly(text, 'listen [::]:443 ssl http2;', '', 1);
  text = replaceExactly(text, `/etc/letsencrypt/live/${exampleDomain}/`, `${path.join(prefix, 'tls')}/`, 2);
  text = replaceExactly(text, 'root /var/www/html;', `root ${path.join(prefix, 'webroot')};`, 1);
  text = replaceExactly(text, 'server 127.0.0.1:3000;', `server 127.0.0.1:${ports.app};`, 1);
  text = replaceExactly(text, 'error_log /var/log/nginx/error.log crit;', `error_log ${path.join(prefix, 'error.log')} crit;`, 2);
  return text;
}

/** The nginx.conf around the site, as Debian's includes sites-enabled/ inside http {}; all state in the prefix. */
function mainConfig(prefix: string): string {
  const inPrefix = (name: string) => path.join(prefix, name);
  return `daemon off;
worker_processes 1;
pid ${inPrefix('nginx.pid')};
error_log ${inPrefix('error.log')} warn;
events {
    worker_connections 64;
}
http {
    access_log ${inPrefix('access.log')};
    client_body_temp_path ${inPrefix('client_body_temp')};
    proxy_temp_path ${inPrefix('proxy_temp')};
    fastcgi_temp_path ${inPrefix('fastcgi_temp')};
    uwsgi_temp_path ${inPrefix('uwsgi_temp')};
    scgi_temp_path ${inPrefix('scgi_temp')};
    include ${inPrefix('auctions-guide.conf')};
}
`;
}

/** A throwaway self-signed certificate for the example domain, where certbot would put it. */
async function makeCertificate(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await execFileAsync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${exampleDomain}`,
      '-addext', `subjectAltName=DNS:${exampleDomain}`, '-keyout', path.join(dir, 'privkey.pem'), '-out', path.join(dir, 'fullchain.pem')],
    { timeout: 15_000 },
  ).catch((error: Error) => {
    throw new Error(`openssl could not make a test certificate (Debian: apt-get install openssl): ${error.message}`);
  });
}

export interface SiteNginx {
  ports: SitePorts;
  prefix: string;
  /** The site file as the test runs it. */
  site: string;
  /** What `nginx -t` printed (it succeeded, or startSiteNginx would have thrown). */
  testOutput: string;
  /** certbot's webroot: files put under .well-known/acme-challenge/ here are served over http. */
  webroot: string;
  errorLog(): string;
  /** What nginx wrote to the access log its main config names (the site turns it off). */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * Writes the prefix, checks it with `nginx -t`, starts nginx in the foreground and resolves once both ports
 * accept connections (within timeoutMs). As root the workers run as nginx's default user, so the prefix is
 * made readable to them, as tests/support/nginx.ts does.
 */
export async function startSiteNginx(appPort: number, timeoutMs = 10_000): Promise<SiteNginx> {
  // Another process may take a free port between the probe and nginx's bind: try other ports, twice at most.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launchSiteNginx(appPort, timeoutMs);
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error && /already in use/.test(error.message))) throw error;
    }
  }
}

async function launchSiteNginx(appPort: number, timeoutMs: number): Promise<SiteNginx> {
  const bin = findNginx();
  const prefix = mkdtempSync(path.join(tmpdir(), 'auctions-guide-site-'));
  try {
    if (process.getuid?.() === 0) chmodSync(prefix, 0o755);
    const ports = { http: await freePort(), https: await freePort(), app: appPort };
    const site = siteForTest(readDeployFile(nginxSiteFile), prefix, ports);
    const webroot = path.join(prefix, 'webroot');
    mkdirSync(path.join(webroot, '.well-known', 'acme-challenge'), { recursive: true });
    await makeCertificate(path.join(prefix, 'tls'));
    writeFileSync(path.join(prefix, 'auctions-guide.conf'), site);
    const configFile = path.join(prefix, 'nginx.conf');
    writeFileSync(configFile, mainConfig(prefix));
    const args = ['-p', `${prefix}/`, '-c', configFile, '-e', path.join(prefix, 'error.log')];
    const readFile = (name: string) => (existsSync(path.join(prefix, name)) ? readFileSync(path.join(prefix, name), 'utf8') : '');
    const readLog = () => readFile('error.log');

    const testOutput = await execFileAsync(bin, ['-t', ...args], { timeout: timeoutMs }).then(
      ({ stdout, stderr }) => stdout + stderr,
      (error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`nginx -t refused ${nginxSiteFile}:\n${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`);
      },
    );

    const child = spawn(bin, args, { cwd: prefix, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const watchdog = cleanUpWhenThisProcessEnds([
      ['kill', '-TERM', String(child.pid)],
      ['rm', '-rf', prefix],
    ]);
    const stop = async () => {
      for (const signal of ['SIGQUIT', 'SIGTERM', 'SIGKILL'] as const) {
        if (await exited(child, 0)) break;
        child.kill(signal);
        if (await exited(child, 5_000)) break;
      }
      endProcess(watchdog);
      rmSync(prefix, { recursive: true, force: true });
    };
    const deadline = Date.now() + timeoutMs;
    while (!((await accepts(ports.http)) && (await accepts(ports.https)))) {
      const gone = await exited(child, 20);
      if (gone || Date.now() > deadline) {
        const log = readLog();
        await stop();
        throw new Error(`nginx ${gone ? `exited (code ${child.exitCode})` : `did not accept connections within ${timeoutMs} ms`}:\n${stderr}${log}`);
      }
    }
    return { ports, prefix, site, testOutput, webroot, errorLog: readLog, accessLog: () => readFile('access.log'), stop };
  } catch (error) {
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
}
