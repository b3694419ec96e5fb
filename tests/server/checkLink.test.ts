import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { main, type Output } from '../../scripts/check-link';
import { checkLink, DEFAULT_USER_AGENT, describeLinkCheck, type LinkCheckResult } from '../../server/linkHealth/checkLink';
import { freePort } from '../support/mainProcess';
import { runScript } from '../support/scriptProcess';

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
  const runCheckLink = (argv: string[], env: Record<string, string> = {}) => runScript('scripts/check-link.ts', argv, env);

  it('runs as a command and exits with the verdict code', async () => {
    const { code, stdout } = await runCheckLink(['--url', `${base}/status/410`]);
    expect(code).toBe(1);
    expect(stdout).toContain('The link looks broken (410 Gone)');
  });

  it('exits 1 with one line naming the variable for a bad AFFILIATE_URL', async () => {
    const { code, stdout, stderr } = await runCheckLink([], { AFFILIATE_URL: 'http://partner.example.net/' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('check-link: AFFILIATE_URL must use https://, got "http://partner.example.net/"\n');
  });
});
