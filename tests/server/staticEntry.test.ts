import { once } from 'node:events';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { readManifest } from '../../server/manifest';
import { distDir } from '../../server/lib/paths';
import { assertSelector, parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp();
});
const manifest = readManifest(distDir);

/** Fetches over a real socket and keeps the raw body bytes, so tests see exactly what went over the wire. */
async function raw(path: string, headers: Record<string, string>) {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('page caching', () => {
  it('gives pages a strong ETag and a short shared-cache lifetime', async () => {
    const response = await request(app).get('/about-us').expect(200);
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await request(app).get('/').expect(200);
    const second = await request(app).get('/').set('If-None-Match', first.headers.etag!).expect(304);
    expect(second.text ?? '').toBe('');
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('treats the ETag of another encoding of the same page as a match', async () => {
    const brotli = await request(app).get('/').set('Accept-Encoding', 'br').expect(200);
    await request(app).get('/').set('Accept-Encoding', 'identity').set('If-None-Match', `W/${brotli.headers.etag}`).expect(304);
  });

  it('answers a stale ETag with the full page', async () => {
    await request(app).get('/').set('If-None-Match', '"stale"').expect(200);
  });

  it('gives each page its own ETag', async () => {
    const tags = await Promise.all(['/', '/about-us', '/privacy-policy', '/terms-conditions'].map(async (path) => (await request(app).get(path)).headers.etag));
    expect(new Set(tags).size).toBe(4);
  });
});

describe('compression', () => {
  it('sends pages brotli-compressed to clients that accept it', async () => {
    const response = await raw('/', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toContain('Accept-Encoding');
    const html = brotliDecompressSync(response.body).toString();
    // The decompressed bytes on purpose: they must begin the document, as sent.
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    assertSelector(parseHtml(html), 'h1', 1);
  });

  it('sends gzip to clients without brotli, and identity to clients that accept neither', async () => {
    const gzip = await raw('/', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    assertSelector(parseHtml(gunzipSync(gzip.body).toString()), 'h1', 1);
    const plain = await raw('/', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    assertSelector(parseHtml(plain.body.toString()), 'h1', 1);
  });

  it('serves the precompressed brotli copy of the client bundle', async () => {
    const response = await raw(manifest.entry.file, { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });
});
