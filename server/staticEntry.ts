import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** One encoding of a response body, with its strong ETag. */
interface Representation {
  body: Buffer;
  etag: string;
}

/**
 * A response held in memory with every encoding it is offered in. Pages and files are prepared
 * once, so a request costs a map lookup and a write: no rendering, no compressing, no disk.
 */
export interface StaticEntry {
  contentType: string;
  cacheControl: string;
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}

/** Types worth compressing; images and fonts are compressed formats already. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/.test(contentType);
}

function hashOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

/** The strongest compression of a text body, in both encodings served: used at build and at start-up. */
export function compressText(body: Buffer): { br: Buffer; gzip: Buffer } {
  return {
    br: brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

export interface EntryOptions {
  contentType: string;
  cacheControl: string;
  /** Encodings prepared earlier (build.ts writes .br and .gz beside each asset). */
  precompressed?: { br?: Buffer; gzip?: Buffer };
}

/** Prepares a body for serving; compressible bodies without precompressed copies are compressed now. */
export function createStaticEntry(body: Buffer, { contentType, cacheControl, precompressed }: EntryOptions): StaticEntry {
  const hash = hashOf(body);
  const entry: StaticEntry = { contentType, cacheControl, identity: { body, etag: `"${hash}"` } };
  if (!isCompressible(contentType) || body.length < 256) return entry;
  const { br, gzip } = precompressed?.br && precompressed.gzip ? { br: precompressed.br, gzip: precompressed.gzip } : compressText(body);
  if (br.length < body.length) entry.br = { body: br, etag: `"${hash}-br"` };
  if (gzip.length < body.length) entry.gzip = { body: gzip, etag: `"${hash}-gz"` };
  return entry;
}

/**
 * Brotli when the client takes it, else gzip, else the plain body. The server's preference decides
 * between encodings the client rates equally (browsers list gzip first but all take br).
 */
function chooseEncoding(req: Request, entry: StaticEntry): { encoding?: 'br' | 'gzip'; representation: Representation } {
  if (!entry.br && !entry.gzip) return { representation: entry.identity };
  const accepted = new Set(req.acceptsEncodings());
  if (entry.br && accepted.has('br')) return { encoding: 'br', representation: entry.br };
  if (entry.gzip && accepted.has('gzip')) return { encoding: 'gzip', representation: entry.gzip };
  return { representation: entry.identity };
}

/** True when If-None-Match names this entry in any of its encodings (weak comparison, RFC 9110 13.1.2). */
function isNotModified(req: Request, entry: StaticEntry): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  const known = new Set([entry.identity.etag, entry.br?.etag, entry.gzip?.etag]);
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || known.has(tag);
  });
}

/** Sends an entry with its validators and caching rules; answers 304 to a matching conditional GET. */
export function sendStaticEntry(req: Request, res: Response, entry: StaticEntry, status = 200): void {
  const { encoding, representation } = chooseEncoding(req, entry);
  if (entry.br || entry.gzip) res.vary('Accept-Encoding');
  res.set('Cache-Control', entry.cacheControl);
  if (status === 200) res.set('ETag', representation.etag);
  if (status === 200 && isNotModified(req, entry)) {
    res.status(304).end();
    return;
  }
  res.status(status);
  res.set('Content-Type', entry.contentType);
  if (encoding) res.set('Content-Encoding', encoding);
  res.set('Content-Length', String(representation.body.length));
  res.end(req.method === 'HEAD' ? undefined : representation.body);
}
