import { PoliteFetcher } from '../../server/fetching/politeFetcher';
import { waitUntil } from '../support/waitUntil';
import { requestedPaths, startTestMerchant, type TestMerchant } from '../support/testMerchant';

const userAgent = 'AuctionsGuideBot/1.0 (+https://auctions.example.com)';

describe('PoliteFetcher against a merchant on 127.0.0.1', () => {
  let merchant: TestMerchant;
  let clock: number;
  const fetcher = (options: Partial<ConstructorParameters<typeof PoliteFetcher>[0]> = {}) =>
    new PoliteFetcher({ userAgent, productToken: 'AuctionsGuideBot', now: () => clock, ...options });

  beforeEach(async () => {
    clock = Date.parse('2026-11-28T12:00:00Z');
    merchant = await startTestMerchant({ '/': { body: '<p>hello</p>' } });
  });
  afterEach(() => merchant.close());

  it('names the site in its User-Agent and reads robots.txt once per day', async () => {
    const polite = fetcher();
    const first = await polite.fetch(`${merchant.origin}/`);
    expect(first).toMatchObject({ outcome: 'answered', status: 200 });
    expect(first.outcome === 'answered' && first.body.toString()).toBe('<p>hello</p>');
    expect(merchant.requests.every((request) => request.headers['user-agent'] === userAgent)).toBe(true);
    await polite.fetch(`${merchant.origin}/`);
    clock += 23 * 3600_000;
    await polite.fetch(`${merchant.origin}/`);
    expect(requestedPaths(merchant)).toEqual(['/robots.txt', '/', '/', '/']);
    clock += 3600_000 + 1;
    await polite.fetch(`${merchant.origin}/`);
    expect(requestedPaths(merchant).filter((path) => path === '/robots.txt')).toHaveLength(2);
  });

  it('obeys Disallow, allows on a 4xx robots.txt and disallows on a 5xx one, without asking for the page', async () => {
    merchant.answers.set('/robots.txt', { body: 'User-agent: *\nDisallow: /\n', headers: { 'content-type': 'text/plain' } });
    const disallowed = await fetcher().fetch(`${merchant.origin}/`);
    expect(disallowed).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('robots.txt') });
    merchant.answers.set('/robots.txt', { status: 500, body: 'oops' });
    expect(await fetcher().fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('robots.txt') });
    merchant.answers.set('/robots.txt', { status: 403, body: 'no' });
    expect(await fetcher().fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'answered', status: 200 });
    expect(requestedPaths(merchant)).toEqual(['/robots.txt', '/robots.txt', '/robots.txt', '/']);
  });

  it('sends the validators it is given and reports a 304 as not modified', async () => {
    merchant.answers.set('/', (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') response.writeHead(304).end();
      else response.writeHead(200, { etag: '"v1"', 'last-modified': 'Sat, 28 Nov 2026 10:00:00 GMT' }).end('<p>page</p>');
    });
    const polite = fetcher();
    const first = await polite.fetch(`${merchant.origin}/`);
    expect(first).toMatchObject({ outcome: 'answered', validators: { etag: '"v1"', lastModified: 'Sat, 28 Nov 2026 10:00:00 GMT' } });
    const again = await polite.fetch(`${merchant.origin}/`, { validators: first.outcome === 'answered' ? first.validators : {} });
    expect(again).toMatchObject({ outcome: 'notModified' });
    expect(merchant.requests.at(-1)!.headers['if-modified-since']).toBe('Sat, 28 Nov 2026 10:00:00 GMT');
  });

  it('asks nothing of a host before its Retry-After has passed', async () => {
    merchant.answers.set('/busy', { status: 429, body: 'slow down', headers: { 'retry-after': '120' } });
    const polite = fetcher();
    expect(await polite.fetch(`${merchant.origin}/busy`)).toMatchObject({ outcome: 'answered', status: 429 });
    const before = merchant.requests.length;
    clock += 119_000;
    expect(await polite.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('Retry-After') });
    expect(merchant.requests).toHaveLength(before);
    clock += 1_000;
    expect(await polite.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'answered', status: 200 });
  });

  it('makes one request at a time per host', async () => {
    for (const path of ['/a', '/b', '/c']) {
      merchant.answers.set(path, (_request, response) => {
        setTimeout(() => response.end(path), 30);
      });
    }
    const polite = fetcher();
    const results = await Promise.all(['/a', '/b', '/c'].map((path) => polite.fetch(`${merchant.origin}${path}`)));
    expect(results.map((result) => result.outcome)).toEqual(['answered', 'answered', 'answered']);
    expect(merchant.maxInFlight).toBe(1);
  });

  it('follows up to 5 redirects, and refuses a sixth and a redirect to http:// off the loopback', async () => {
    for (let hop = 0; hop < 6; hop += 1) merchant.answers.set(`/r${hop}`, { status: 302, body: '', headers: { location: `/r${hop + 1}` } });
    merchant.answers.set('/r6', { body: 'arrived' });
    merchant.answers.set('/r1-only', { status: 301, body: '', headers: { location: '/r5' } });
    const polite = fetcher();
    expect(await polite.fetch(`${merchant.origin}/r1-only`)).toMatchObject({ outcome: 'answered', status: 200, finalUrl: `${merchant.origin}/r6` });
    expect(await polite.fetch(`${merchant.origin}/r0`)).toMatchObject({ outcome: 'failed', reason: 'too many redirects (more than 5)' });
    merchant.answers.set('/away', { status: 302, body: '', headers: { location: 'http://merchant.example.com/' } });
    expect(await polite.fetch(`${merchant.origin}/away`)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('http:// address off the loopback') });
  });

  it('gives up after its timeout', async () => {
    merchant.answers.set('/slow', () => {});
    const result = await fetcher({ timeoutMs: 300 }).fetch(`${merchant.origin}/slow`);
    expect(result).toMatchObject({ outcome: 'failed', reason: 'timed out after 300 ms' });
  });

  it('cuts a 50 MB page at the 3 MB cap and never downloads the rest', async () => {
    let sent = 0;
    let closedEarly = false;
    merchant.answers.set('/huge', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const write = (): void => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', write);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => {
        closedEarly = sent < 50 * 1024 * 1024;
      });
      write();
    });
    const result = await fetcher().fetch(`${merchant.origin}/huge`);
    expect(result).toMatchObject({ outcome: 'answered', truncated: true });
    expect(result.outcome === 'answered' && result.body.length).toBe(3 * 1024 * 1024);
    await waitUntil('the merchant to see its connection closed', () => closedEarly);
    // What the server managed to write before the connection closed: the cap and the sockets' buffers, not 50 MB.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });
});
