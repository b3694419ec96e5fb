import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { Server } from 'node:http';
import { createHttpServer } from '../../server/httpServer';
import { createTestApp } from '../support/testApp';

/**
 * A few hundred malformed, oversized and hostile requests, sent as raw bytes so nothing on the client
 * side tidies them up first. None may produce a 5xx, serve a file from outside public/ and the build,
 * or reflect markup; and the server must still answer afterwards.
 */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createHttpServer(await createTestApp());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface RawResponse {
  status: number;
  text: string;
}

/** Sends one raw request and reads the reply until the server closes the connection. */
async function raw(request: string | Buffer): Promise<RawResponse> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  socket.write(request);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('latin1');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}

const get = (target: string, headers = '') => raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\nConnection: close\r\n${headers}\r\n`);

const secrets = ['"dependencies"', 'createApp', 'root:x:0', 'compilerOptions', 'PRIVATE KEY'];

const traversalTargets = ['package.json', 'server/app.ts', 'tsconfig.json', '.git/config', 'etc/passwd', 'dist/manifest.json', 'build.ts'].flatMap((file) =>
  [
    `/../${file}`,
    `/../../${file}`,
    `/%2e%2e/${file}`,
    `/%2E%2E%2F${file}`,
    `/..%2f..%2f${file}`,
    `/..%5c..%5c${file.replace(/\//g, '%5c')}`,
    `/%252e%252e/${file}`,
    `/%c0%ae%c0%ae/${file}`,
    `/assets/../../${file}`,
    `/assets/..%2f..%2f${file}`,
    `/images/%2e%2e/%2e%2e/${file}`,
    `//${file}`,
    `/./${file}`,
    `/${file}`,
    `/public/../${file}`,
    `/assets/%2e%2e%2f%2e%2e%2f${file}%00.js`,
  ],
);

const malformedTargets = ['/%', '/%%', '/%zz', '/%e0%a4%a', '/%00', '/about-us%00', '/a%ff%fe', '/%ed%a0%80', '/' + 'a'.repeat(8000)];
/** The pages ignore query strings, so a malformed one just gets the page. */
const malformedQueries = ['/?%', '/?' + 'x=%'.repeat(100), '/about-us?%zz=%', '/?a[b]=1&a[c]=2&__proto__[x]=1'];

const markupQueries = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg/onload=alert(1)>", '<!--', '</script>', 'javascript:alert(1)'].flatMap((payload) =>
  ['/', '/about-us', '/About-Us/', '/missing', '/%'].map((path) => `${path}?q=${encodeURIComponent(payload)}&raw=${payload.replace(/ /g, '%20')}`),
);

const oddMethods = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'M-SEARCH', 'PURGE'];

// Replies are matched as raw bytes on purpose: nothing hostile may appear anywhere in them, headers included, however a parser would read it.
describe('hostile requests', () => {
  it.each(traversalTargets)('never serves a file outside public/ and the build for %s', async (target) => {
    const response = await get(target);
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(500);
    for (const secret of secrets) expect(response.text).not.toContain(secret);
  });

  it.each(malformedTargets.map((target) => [target.slice(0, 40), target]))('answers the malformed target %s with a 4xx', async (_label, target) => {
    const response = await get(target);
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(500);
  });

  it.each(malformedQueries)('answers the malformed query %s without a 5xx', async (target) => {
    expect((await get(target)).status).toBeLessThan(500);
  });

  it.each(markupQueries)('reflects no markup from %s', async (target) => {
    const response = await get(target);
    expect(response.status).toBeLessThan(500);
    // Percent-encoded in a Location header is harmless; raw markup anywhere is not.
    expect(response.text).not.toMatch(/<script>alert|<img[^>]*onerror|<svg\/onload|"><img/i);
  });

  it.each(oddMethods)('answers the method %s with 405, never 5xx', async (method) => {
    const response = await raw(`${method} / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`);
    expect(response.status).toBe(405);
    expect(response.text).toMatch(/\r\nAllow: GET, HEAD\r\n/);
  });

  it('answers a method Node does not know with 400', async () => {
    expect((await raw('FOO / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status).toBe(400);
  });

  it.each([
    ['a huge header', `X-Big: ${'a'.repeat(20_000)}\r\n`],
    ['hundreds of headers', Array.from({ length: 300 }, (_, i) => `X-H${i}: v\r\n`).join('')],
    ['a huge cookie', `Cookie: ${'c=1; '.repeat(5000)}\r\n`],
    ['a hostile If-None-Match', `If-None-Match: ${'"x",'.repeat(2000)}\r\n`],
    ['a hostile Accept-Encoding', `Accept-Encoding: ${'br;q=0.'.repeat(500)}\r\n`],
    ['a malformed Accept-Encoding', 'Accept-Encoding: ;;;,,,q=\r\n'],
    ['a forged Host', 'Host: evil.example.com\r\n'],
    ['X-Forwarded-For spoofing', 'X-Forwarded-For: <script>, 999.999.999.999\r\n'],
  ])('survives %s without a 5xx', async (_name, header) => {
    const response = await get('/', header);
    expect(response.status === 200 || response.status === 400 || response.status === 431).toBe(true);
  });

  it.each([
    ['garbage', 'GARBAGE\r\n\r\n'],
    ['a bad HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['no Host header', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['a space in the target', 'GET /a b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['an absolute-form target', 'GET http://evil.example.com/about-us HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['control bytes in the target', Buffer.from('GET /\x01\x7f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'latin1')],
    ['conflicting body lengths', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n'],
  ] as const)('answers %s with a client error or its page, never a 5xx', async (_name, request) => {
    const response = await raw(request);
    expect(response.status === 0 || response.status < 500).toBe(true);
  });

  it('still answers normally afterwards', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect((await get('/')).status).toBe(200);
  });
});
