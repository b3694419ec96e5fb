import { writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { loadConfig } from '../../server/config';
import { parseHtml } from '../support/html';
import { startTestServer, type RunningServer } from '../support/testApp';
import {
  envExampleFile,
  environmentFile,
  exampleDomain,
  findSystemdAnalyze,
  installedAppDir,
  nginxSiteFile,
  readDeployFile,
  startSiteNginx,
  unitFile,
  unitSettings,
  verifyUnit,
  type SiteNginx,
} from '../support/deploySite';

/** deploy/: the systemd unit, the environment file and the nginx site that docs/deploy.md installs. */

const unitText = readDeployFile(unitFile);
const unit = unitSettings(unitText);
const setting = (name: string) => unit.get(name)?.join(' ');
const envExample = environmentFile(readDeployFile(envExampleFile));
const systemdAnalyze = findSystemdAnalyze();

describe(unitFile, () => {
  (systemdAnalyze ? it : it.skip)(
    `passes systemd-analyze verify${systemdAnalyze ? '' : ' (SKIPPED: no systemd-analyze here; Debian installs it with systemd as /usr/bin/systemd-analyze)'}`,
    async () => {
      expect(await verifyUnit(systemdAnalyze!, unitText)).toEqual({ code: 0, output: '' });
    },
  );

  (systemdAnalyze ? it : it.skip)('fails that check for a misspelt option and a bad value (the check can fail)', async () => {
    const broken = unitText.replace('NoNewPrivileges=yes', 'NoNewPrivilege=yes').replace('ProtectSystem=strict', 'ProtectSystem=strictest');
    const { output } = await verifyUnit(systemdAnalyze!, broken);
    expect(output).toMatch(/Unknown key .*NoNewPrivilege/);
    expect(output).toMatch(/protect system value.*strictest/);
  });

  it('runs the built server on the pinned Node as npm start does, from the clone, as an unprivileged user', () => {
    expect(setting('WorkingDirectory')).toBe(installedAppDir);
    const npmStartNode = /node (--[\w-]+ )*dist\/server\/main\.cjs/.exec(JSON.parse(readDeployFile('package.json')).scripts.start as string)![0];
    expect(setting('ExecStart')).toBe(`${installedAppDir}/node_modules/.bin/${npmStartNode}`);
    expect(setting('User')).toMatch(/^(?!root$)[a-z][a-z0-9-]*$/);
    expect(setting('EnvironmentFile')).toBe('/etc/auctions-guide/env');
    expect(setting('Restart')).toBe('on-failure');
  });

  it('leaves the data folder the only writable path, where env.example keeps the database and the backups', () => {
    expect(setting('ProtectSystem')).toBe('strict');
    expect(unit.get('ReadWritePaths')).toEqual(['/var/lib/auctions-guide']);
    for (const name of ['CLICKS_DB', 'BACKUP_DIR']) expect(envExample[name]).toMatch(/^\/var\/lib\/auctions-guide\//);
  });

  it('takes the hardening systemd offers, except MemoryDenyWriteExecute, which V8 cannot run under', () => {
    for (const name of ['NoNewPrivileges', 'PrivateTmp', 'ProtectHome', 'PrivateDevices', 'ProtectKernelTunables', 'ProtectKernelModules',
      'ProtectKernelLogs', 'ProtectControlGroups', 'RestrictNamespaces', 'LockPersonality']) {
      expect([name, setting(name)]).toEqual([name, 'yes']);
    }
    expect(setting('CapabilityBoundingSet')).toBe('');
    expect(setting('RestrictAddressFamilies')).toBe('AF_INET AF_INET6 AF_UNIX');
    expect(setting('SystemCallFilter')).toBe('@system-service');
    expect(setting('MemoryMax')).toBe('256M');
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

describe(envExampleFile, () => {
  it("is accepted by the server's configuration: loopback behind one proxy, on the port the nginx site proxies to", () => {
    const config = loadConfig({ ...envExample, ADMIN_TOKEN: 'a-token-for-this-test-only-0123456789' });
    expect({ host: config.host, port: config.port, trustProxy: config.trustProxy, siteUrl: config.siteUrl }).toEqual({
      host: '127.0.0.1',
      port: 3000,
      trustProxy: 1,
      siteUrl: `https://${exampleDomain}`,
    });
    expect(readDeployFile(nginxSiteFile)).toContain(`server 127.0.0.1:${config.port};`);
  });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request over HTTP/2 through the site's TLS port, optionally from another loopback address. */
function h2Get(port: number, path: string, { from, headers = {} }: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer & { alpn: string | false | undefined }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://${exampleDomain}:${port}`, {
      createConnection: () =>
        tlsConnect({
          socket: netConnect({ host: '127.0.0.1', port, ...(from ? { localAddress: from } : {}) }),
          servername: exampleDomain,
          ALPNProtocols: ['h2'],
          rejectUnauthorized: false, // the test's own self-signed certificate
        }),
    });
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`GET ${path} over HTTP/2 took more than 5 s`));
    }, 5_000);
    session.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const request = session.request({ ':path': path, ...headers });
    const chunks: Buffer[] = [];
    let responseHeaders: http2.IncomingHttpHeaders = {};
    request.on('response', (received) => (responseHeaders = received));
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      clearTimeout(timer);
      const alpn = session.alpnProtocol;
      session.close();
      resolve({ status: Number(responseHeaders[':status']), headers: responseHeaders, body: Buffer.concat(chunks), alpn });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      session.destroy();
      reject(error);
    });
  });
}

/** One plain-http request to the site's port 80 stand-in. */
function httpGet(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers: { host: exampleDomain }, signal: AbortSignal.timeout(5_000) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}

describe(`${nginxSiteFile} in front of the app`, () => {
  const adminToken = 'deploy-test-admin-token-0123456789';
  let app: RunningServer | undefined;
  let nginx: SiteNginx | undefined;
  const site = () => nginx!;

  beforeAll(async () => {
    // The settings env.example gives the real server (TRUST_PROXY above all); the database stays in memory.
    const fromExample = Object.fromEntries(['TRUST_PROXY', 'SITE_URL', 'CONTACT_EMAIL', 'AFFILIATE_URL'].map((name) => [name, envExample[name] ?? '']));
    app = await startTestServer({ ...fromExample, ADMIN_TOKEN: adminToken, CLICKS_DB: ':memory:' });
    nginx = await startSiteNginx(Number(new URL(app.url).port));
  }, 30_000);

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
  }, 20_000);

  it('passes nginx -t without a warning', () => {
    expect(site().testOutput).toMatch(/test is successful/);
    // nginx 1.25.1 and later only advise "http2 on;" over the "listen … http2" that Debian 12's 1.22 needs.
    const warnings = site().testOutput.split('\n').filter((line) => /\[(warn|emerg|alert|crit|error)\]/.test(line) && !/"http2" directive is deprecated/.test(line));
    expect(warnings).toEqual([]);
  });

  it('redirects http to the same path on https with a 301', async () => {
    const answer = await httpGet(site().ports.http, '/privacy-policy?from=mail');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`https://${exampleDomain}/privacy-policy?from=mail`);
  });

  it("serves certbot's challenge files over http instead of redirecting them", async () => {
    writeFileSync(`${site().webroot}/.well-known/acme-challenge/test-token`, 'test-token.key-authorization');
    const answer = await httpGet(site().ports.http, '/.well-known/acme-challenge/test-token');
    expect([answer.status, answer.body.toString()]).toEqual([200, 'test-token.key-authorization']);
  });

  it('serves the home page over https with HTTP/2, with the headers the app sets', async () => {
    const answer = await h2Get(site().ports.https, '/');
    expect(answer.alpn).toBe('h2');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(parseHtml(answer.body.toString()).text('h1')).not.toBe('');
  });

  it("passes a hashed asset's year-long immutable cache header and the app's brotli through unchanged", async () => {
    const page = parseHtml((await h2Get(site().ports.https, '/')).body.toString());
    const asset = page.all('script[src^="/assets/"], link[href^="/assets/"]').map((node) => node.attr('src') ?? node.attr('href'))[0];
    expect(asset).toMatch(/^\/assets\/.+-[A-Z0-9]{8}\.(js|css)$/);
    const answer = await h2Get(site().ports.https, asset!, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-encoding']).toBe('br');
  });

  it("hands the app the visitor's address, not nginx's and not one the visitor wrote into X-Forwarded-For", async () => {
    // Observable without any hook: /admin throttles wrong tokens per client address (server/admin/adminAuth.ts).
    const wrongToken = (from: string, headers: Record<string, string> = {}) =>
      h2Get(site().ports.https, '/admin', { from, headers: { authorization: 'Bearer not-the-token', ...headers } }).then((answer) => answer.status);
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 20) statuses.push(await wrongToken('127.0.0.2'));
    expect(statuses.at(-1)).toBe(429);
    // Another visitor is not held back by the first one's guesses: the app does not see every visitor as nginx.
    expect(await wrongToken('127.0.0.3')).toBe(401);
    // The held-back visitor cannot escape by claiming another address: the app trusts only nginx's own entry.
    expect(await wrongToken('127.0.0.2', { 'x-forwarded-for': '198.51.100.7' })).toBe(429);
  });

  it('writes no access log, since the privacy policy promises no IP address or user agent in any log', async () => {
    expect((await h2Get(site().ports.https, '/', { headers: { 'user-agent': 'deploy-test-agent' } })).status).toBe(200);
    expect((await httpGet(site().ports.http, '/')).status).toBe(301);
    expect(site().accessLog()).toBe('');
  });
});
