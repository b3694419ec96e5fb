import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { main, type Output } from '../../scripts/check-link';
import { claimJobRun } from '../../server/db/jobRuns';
import { checkLink, DEFAULT_USER_AGENT, describeLinkCheck, type LinkCheckResult, type LinkVerdict } from '../../server/linkHealth/checkLink';
import { databaseLinkCheckLog, memoryLinkCheckLog, type LinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { engines, openTestDatabase } from '../support/engines';
import type { Logger } from '../../server/logger';
import { freePort } from '../support/mainProcess';
import { projectRoot } from '../../server/paths';

/** A stand-in partner site on the loopback interface: the checks never leave this machine. */
const seen: { method?: string; userAgent?: string } = {};
const standIn = createServer((req: IncomingMessage, res: ServerResponse) => {
  const { pathname } = new URL(req.url ?? '/', 'http://stand-in');
  const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
  const status = /^\/status\/(\d{3})$/.exec(pathname)?.[1];
  if (status) return res.writeHead(Number(status)).end('status page');
  switch (pathname) {
    case '/ok':
      return res.end('welcome');
    case '/seen':
      seen.method = req.method;
      seen.userAgent = req.headers['user-agent'];
      return res.end('noted');
    case '/chain/start':
      return redirect(302, 'next');
    case '/chain/next':
      return redirect(308, `${base}/landing?from=chain`);
    case '/landing':
      return res.end('landed');
    case '/loop':
      return redirect(302, '/loop');
    case '/to-ftp':
      return redirect(301, 'ftp://files.example.com/');
    case '/never':
      return; // Holds the request open without answering, as a hung partner server would.
    default:
      return res.writeHead(404).end();
  }
});
let base = '';

beforeAll(async () => {
  standIn.listen(0, '127.0.0.1');
  await once(standIn, 'listening');
  base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});

afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

describe('checkLink', () => {
  it('calls a 200 page ok', async () => {
    const result = await checkLink(`${base}/ok`);
    expect(result).toMatchObject({ url: `${base}/ok`, finalUrl: `${base}/ok`, status: 200, redirects: 0, verdict: 'ok' });
    expect(result.error).toBeUndefined();
    expect(result.checkedAt).toBeInstanceOf(Date);
    expect(Number.isInteger(result.ms)).toBe(true);
  });

  it('follows relative and absolute redirects, counting them and reporting where it landed', async () => {
    const result = await checkLink(`${base}/chain/start`);
    expect(result).toMatchObject({ finalUrl: `${base}/landing?from=chain`, status: 200, redirects: 2, verdict: 'ok' });
  });

  it.each([404, 410])('calls a %s broken', async (status) => {
    expect(await checkLink(`${base}/status/${status}`)).toMatchObject({ status, verdict: 'broken' });
  });

  it.each([403, 405, 429])('calls a %s blocked, not broken, since partner sites answer robots that way', async (status) => {
    expect(await checkLink(`${base}/status/${status}`)).toMatchObject({ status, verdict: 'blocked' });
  });

  it('calls a 500 an error', async () => {
    expect(await checkLink(`${base}/status/500`)).toMatchObject({ status: 500, verdict: 'error' });
  });

  it('gives up on a redirect loop with "too many redirects" and no status', async () => {
    const result = await checkLink(`${base}/loop`, { maxRedirects: 3 });
    expect(result).toMatchObject({ redirects: 3, verdict: 'error', error: 'too many redirects (more than 3)' });
    expect(result.status).toBeUndefined();
  });

  it('refuses to follow a redirect to an address that is not http or https', async () => {
    const result = await checkLink(`${base}/to-ftp`);
    expect(result).toMatchObject({ verdict: 'error', error: expect.stringContaining('ftp://files.example.com/') });
    expect(result.status).toBeUndefined();
  });

  it('times out on a server that never answers', async () => {
    const result = await checkLink(`${base}/never`, { timeoutMs: 300 });
    expect(result).toMatchObject({ verdict: 'error', error: 'timed out after 300 ms' });
    expect(result.status).toBeUndefined();
    expect(result.ms).toBeLessThan(5_000);
  });

  it('reports a closed port as connection refused', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    const result = await checkLink(url);
    expect(result).toMatchObject({ verdict: 'error', error: 'connection refused' });
    expect(result.status).toBeUndefined();
  });

  it('answers an address that is not http or https with an error instead of throwing', async () => {
    expect(await checkLink('mailto:partner@example.com')).toMatchObject({ verdict: 'error', error: expect.stringMatching(/not an http/) });
  });

  it('sends its own user agent', async () => {
    await checkLink(`${base}/seen`);
    expect(seen.userAgent).toBe(DEFAULT_USER_AGENT);
  });

  it('asks with GET, since many sites refuse HEAD', async () => {
    await checkLink(`${base}/seen`);
    expect(seen.method).toBe('GET');
  });
});

describe('describeLinkCheck', () => {
  const checkedAt = new Date();

  it('names the status, redirects, time and final address', () => {
    const result: LinkCheckResult = { checkedAt, url: 'https://a.example/', finalUrl: 'https://b.example/x', status: 200, redirects: 2, ms: 340, verdict: 'ok' };
    expect(describeLinkCheck(result)).toBe('200 OK after 2 redirects in 340 ms (https://b.example/x)');
  });

  it('says why there was no answer', () => {
    const result: LinkCheckResult = { checkedAt, url: 'https://a.example/', finalUrl: 'https://a.example/', redirects: 0, ms: 10_000, error: 'timed out after 10000 ms', verdict: 'error' };
    expect(describeLinkCheck(result)).toBe('no answer: timed out after 10000 ms');
  });
});

const monitoredUrl = 'https://partner.example.net/join?aff=1';
const verdictOf: Record<number, LinkVerdict> = { 200: 'ok', 403: 'blocked', 404: 'broken', 500: 'error' };

function resultFor(status: number): LinkCheckResult {
  return { checkedAt: new Date(), url: monitoredUrl, finalUrl: monitoredUrl, status, redirects: 0, ms: 5, verdict: verdictOf[status] ?? 'error' };
}

function capturingLogger() {
  const lines: string[] = [];
  const errors: string[] = [];
  const logger: Logger = { info: (line) => lines.push(line), error: (message) => errors.push(message) };
  return { logger, lines, errors };
}

/** A monitor whose checks answer the given statuses in turn, without any network. */
function scriptedMonitor(statuses: number[], intervalMs = 3_600_000, log: LinkCheckLog = memoryLinkCheckLog()) {
  const { logger, lines, errors } = capturingLogger();
  let calls = 0;
  const monitor = new LinkMonitor({
    url: monitoredUrl,
    intervalMs,
    logger,
    log,
    check: async () => resultFor(statuses[calls++ % statuses.length] ?? 200),
  });
  const runAll = async () => {
    for (let i = 0; i < statuses.length; i++) await monitor.runCheck();
  };
  return { monitor, lines, errors, runAll, calls: () => calls };
}

describe('LinkMonitor', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('does not call a single 404 broken', async () => {
    const { monitor, errors, runAll } = scriptedMonitor([404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 1, broken: false });
    expect(errors).toEqual([]);
  });

  it('counts 404 twice in a row as broken', async () => {
    const { monitor, runAll } = scriptedMonitor([404, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true });
  });

  it('logs one error line naming the address, status and count when the link turns broken', async () => {
    const { errors, runAll } = scriptedMonitor([404, 404]);
    await runAll();
    expect(errors).toEqual([`affiliate link looks broken: ${monitoredUrl} answered 404 on 2 checks in a row; check AFFILIATE_URL`]);
  });

  it('logs the error again on each further broken check', async () => {
    const { errors, runAll } = scriptedMonitor([404, 404, 404]);
    await runAll();
    expect(errors).toHaveLength(2);
    expect(errors[1]).toContain('on 3 checks in a row');
  });

  it.each([403, 500])('keeps a broken streak going across a %s, which says nothing about whether the page is gone', async (status) => {
    const { monitor, runAll } = scriptedMonitor([404, status, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true });
  });

  it('starts counting again after a 200', async () => {
    const { monitor, errors, runAll } = scriptedMonitor([404, 200, 404]);
    await runAll();
    expect(await monitor.state()).toMatchObject({ consecutiveBroken: 1, broken: false });
    expect(errors).toEqual([]);
  });

  it('logs one info line when a broken link works again', async () => {
    const { monitor, lines, runAll } = scriptedMonitor([404, 404, 200]);
    await runAll();
    expect((await monitor.state()).broken).toBe(false);
    expect(lines.filter((line) => line.includes('works again'))).toEqual([
      `affiliate link works again: ${monitoredUrl} answered 200 after 2 broken checks in a row`,
    ]);
  });

  it('logs one info line per check with the address, status and verdict', async () => {
    const { lines, runAll } = scriptedMonitor([200, 403]);
    await runAll();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z link check ${monitoredUrl.replace(/[?.]/g, '\\$&')}: 200 \\(ok\\)$`));
    expect(lines[1]).toMatch(/: 403 \(blocked\)$/);
  });

  it('keeps the latest result in its state', async () => {
    const { monitor, runAll } = scriptedMonitor([200, 403]);
    await runAll();
    expect((await monitor.state()).last).toMatchObject({ status: 403, verdict: 'blocked' });
  });

  it('records a check function that throws as an error result instead of rejecting', async () => {
    const { logger } = capturingLogger();
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: memoryLinkCheckLog(), check: () => Promise.reject(new Error('boom')) });
    expect(await monitor.runCheck()).toMatchObject({ verdict: 'error', error: 'boom' });
  });

  it('shares one in-flight check between concurrent runCheck calls', async () => {
    const { logger } = capturingLogger();
    let calls = 0;
    let answer: (result: LinkCheckResult) => void = () => {};
    const check = () => {
      calls++;
      return new Promise<LinkCheckResult>((resolve) => (answer = resolve));
    };
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: memoryLinkCheckLog(), check });
    const first = monitor.runCheck();
    const second = monitor.runCheck();
    answer(resultFor(200));
    expect(await second).toBe(await first);
    expect(calls).toBe(1);
  });

  it('checks right away when started', async () => {
    jest.useFakeTimers();
    const { monitor, calls } = scriptedMonitor([200]);
    monitor.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(1);
    monitor.stop();
  });

  it('checks again every interval', async () => {
    jest.useFakeTimers();
    const { monitor, calls } = scriptedMonitor([200], 1_000);
    monitor.start();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(calls()).toBe(4);
    monitor.stop();
  });

  it('checks no more once stopped', async () => {
    jest.useFakeTimers();
    const { monitor, calls } = scriptedMonitor([200], 1_000);
    monitor.start();
    monitor.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(calls()).toBe(1);
  });

  it('leaves a period to the instance that claimed it first: one check per period across instances', async () => {
    const shared = memoryLinkCheckLog();
    const one = scriptedMonitor([200], 3_600_000, shared);
    const two = scriptedMonitor([200], 3_600_000, shared);
    expect(await one.monitor.tick()).toMatchObject({ status: 200 });
    expect(await two.monitor.tick()).toBeUndefined();
    expect(one.calls() + two.calls()).toBe(1);
    expect(await two.monitor.state()).toMatchObject({ last: { status: 200 } });
  });

  it('skips a tick, logging why, when the history cannot be reached', async () => {
    const { logger, errors } = capturingLogger();
    const unreachable: LinkCheckLog = { claim: () => Promise.reject(new Error('connect ECONNREFUSED')), add: async () => {}, recent: async () => [] };
    const monitor = new LinkMonitor({ url: monitoredUrl, intervalMs: 1_000, logger, log: unreachable, check: async () => resultFor(200) });
    expect(await monitor.tick()).toBeUndefined();
    expect(errors).toEqual(['link check skipped: connect ECONNREFUSED']);
  });

  it('does not let its timer keep the process alive', () => {
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    const { monitor } = scriptedMonitor([200]);
    monitor.start();
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    monitor.stop();
  });
});

describe.each(engines)('LinkMonitor on a %s database', (engine) => {
  it('shows every instance the same banner, from the shared history', async () => {
    const opened = await openTestDatabase(engine);
    try {
      const log = () => databaseLinkCheckLog(opened.database.db, (job, period) => claimJobRun(opened.database.db, job, period));
      const checker = scriptedMonitor([404, 404], 3_600_000, log());
      await checker.runAll();
      const other = scriptedMonitor([200], 3_600_000, log());
      expect(await other.monitor.state()).toMatchObject({ consecutiveBroken: 2, broken: true, last: { status: 404 } });
      expect(other.calls()).toBe(0);
    } finally {
      await opened.close();
    }
  });
});

describe('scripts/check-link', () => {
  /** Runs the CLI in-process with its output captured. */
  async function run(argv: string[], env: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const output: Output = { out: (line) => out.push(line), err: (line) => err.push(line) };
    const code = await main(argv, env, output);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('exits 0 and says the link works for a 200', async () => {
    const { code, out } = await run(['--url', `${base}/chain/start`]);
    expect(code).toBe(0);
    const [checking, summary, verdict] = out.split('\n');
    expect(checking).toBe(`Checking ${base}/chain/start`);
    expect(summary).toMatch(/^200 OK after 2 redirects in \d+ ms \(http:\/\/127\.0\.0\.1:\d+\/landing\?from=chain\)$/);
    expect(verdict).toBe('The link works.');
  });

  it('exits 0 for a 403 and says a refused check does not mean the link is broken', async () => {
    const { code, out } = await run(['--url', `${base}/status/403`]);
    expect(code).toBe(0);
    expect(out).toContain('The partner site refused the check (403 Forbidden): this is common for automated requests and does not mean the link is broken.');
  });

  it('exits 1 and says the link looks broken for a 404', async () => {
    const { code, out } = await run(['--url', `${base}/status/404`]);
    expect(code).toBe(1);
    expect(out).toContain('The link looks broken (404 Not Found)');
  });

  it('exits 2 when the partner site does not answer in time', async () => {
    const { code, out } = await run(['--url', `${base}/never`, '--timeout', '300']);
    expect(code).toBe(2);
    expect(out).toContain('no answer: timed out after 300 ms');
  });

  it('exits 2 when the partner site answers with a server error', async () => {
    const { code, out } = await run(['--url', `${base}/status/500`]);
    expect(code).toBe(2);
    expect(out).toContain('The partner site answered with an error (500 Internal Server Error)');
  });

  it('checks AFFILIATE_URL when no --url is given', async () => {
    const url = `https://127.0.0.1:${await freePort()}/join`;
    const { code, out } = await run([], { AFFILIATE_URL: url });
    expect(code).toBe(2);
    expect(out).toMatch(new RegExp(`^Checking ${url.replace(/\./g, '\\.')}\nno answer: connection refused\n`));
  });

  it.each([
    [['--url', 'ftp://files.example.com/'], '--url must be an http:// or https:// address'],
    [['--url', 'not a url'], '--url must be an http:// or https:// address'],
    [['--timeout', 'soon'], '--timeout must be a whole number'],
    [['--verbose'], "Unknown option '--verbose'"],
  ])('exits 64 with a usage line for the bad arguments %j', async (argv, message) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(64);
    expect(out).toBe('');
    expect(err).toMatch(new RegExp(`^check-link: ${message.replace(/[.*+?/]/g, '\\$&')}.*\nusage: `));
  });

  /** The real command, through tsx, as an operator would run it. */
  async function runScript(argv: string[], env: Record<string, string> = {}) {
    const tsx = path.join(projectRoot, 'node_modules/.bin/tsx');
    const child = spawn(tsx, ['scripts/check-link.ts', ...argv], { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  }

  it('runs as a command and exits with the verdict code', async () => {
    const { code, stdout } = await runScript(['--url', `${base}/status/410`]);
    expect(code).toBe(1);
    expect(stdout).toContain('The link looks broken (410 Gone)');
  });

  it('exits 1 with one line naming the variable for a bad AFFILIATE_URL', async () => {
    const { code, stdout, stderr } = await runScript([], { AFFILIATE_URL: 'http://partner.example.net/' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('check-link: AFFILIATE_URL must use https://, got "http://partner.example.net/"\n');
  });
});
