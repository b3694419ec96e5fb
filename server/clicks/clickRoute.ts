import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { affiliatePlacements } from '../../shared/affiliate';
import { clickEndpoint, clickBeaconLimits, type ClickBeaconBody } from '../../shared/clickBeacon';
import { isPagePath } from '../../shared/routes';
import { isHostName } from '../hostName';
import type { VisitorHasher } from '../db/visitorSalts';
import type { Click, ClickStore } from './clickStore';
import type { RateLimiter } from './rateLimiter';
import { deviceClass, isBot, isPrefetch, optsOut } from './requestKind';

export interface ClickRouteOptions {
  store: ClickStore;
  hashVisitor: VisitorHasher;
  /** Per visitor hash: a burst of 10, then one every 6 s. */
  rateLimiter: RateLimiter;
  /** Per client address, so a script that changes its user agent on every report is still held back. */
  addressRateLimiter: RateLimiter;
  /** The configured public origin, accepted as Origin besides the request's own host (a proxy may rename it). */
  siteUrl: string;
  now?: () => Date;
}

/**
 * Per address: a burst of 60, then one every 2 s (30 a minute). A real visitor follows a link or two,
 * so even a carrier NAT that puts a few thousand phones behind one address stays far below this (60
 * people clicking through in the same minute from one address is more than this site will see); a
 * script that rotates its user agent is held to 30 counted reports a minute instead of all of them.
 */
export const addressRateLimit = { burst: 60, refillMs: 2000 };
export const visitorRateLimit = { burst: 10, refillMs: 6000 };

/** How long a client should wait when the database cannot take the click. */
const retryAfterSeconds = 30;

type Report = Pick<Click, 'placement' | 'page' | 'referrerHost' | 'via'>;

/** A referrer's host as `URL.host` gives it: a host name of at most 253 characters, with an optional port. */
const isReferrerHost = (host: string) => host.length <= 253 && isHostName(host.replace(/:\d{1,5}$/, ''));

function isPlacement(value: unknown): value is string {
  return typeof value === 'string' && (affiliatePlacements as readonly string[]).includes(value);
}

/** A beacon's JSON body (sent as text/plain, which needs no CORS preflight). */
function fromBeacon(body: string, ownHost: string): Report | undefined {
  let parsed: Partial<ClickBeaconBody>;
  try {
    parsed = JSON.parse(body) as Partial<ClickBeaconBody>;
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { placement, page, referrer = '' } = parsed;
  if (!isPlacement(placement) || typeof page !== 'string' || !isPagePath(page) || typeof referrer !== 'string') return undefined;
  const host = referrer.toLowerCase();
  if (host !== '' && !isReferrerHost(host)) return undefined;
  return { placement, page, referrerHost: host === '' || host === ownHost ? null : host, via: 'beacon' };
}

/**
 * A hyperlink-auditing ping (the link's ping attribute, sent when JavaScript is off): the body is
 * "PING", the placement rides in the ping URL's query and the page in the Ping-From header.
 */
function fromPing(req: Request, body: string): Report | undefined {
  const placement = req.query.placement;
  if (body !== 'PING' || !isPlacement(placement)) return undefined;
  let page: string;
  try {
    page = new URL(req.get('ping-from') ?? '').pathname;
  } catch {
    return undefined;
  }
  return isPagePath(page) ? { placement, page, referrerHost: null, via: 'ping' } : undefined;
}

/** A report sent from another site's page is not one of our visitors' clicks. */
function isCrossSite(req: Request, siteUrl: string): boolean {
  if (req.get('sec-fetch-site') === 'cross-site') return true;
  const origin = req.get('origin');
  if (!origin || origin === 'null') return false;
  try {
    const { host } = new URL(origin);
    return origin !== siteUrl && host !== req.host;
  } catch {
    return true;
  }
}

function reject(res: Response, status: number, message: string): void {
  res.status(status).type('text/plain').send(`${message}\n`);
}

/**
 * POST /api/clicks: one report of a followed affiliate link. 204 when counted, or answered and
 * deliberately not counted (bots, prefetches, Global Privacy Control / Do Not Track), so nothing is
 * learned by probing; 400 for anything but a small, well-formed report of a known placement; 403 from
 * another site; 429 when one visitor or one address reports too fast; 503 with Retry-After when the
 * database cannot take it. The 204 is sent only after the row is committed, so an acknowledged click is
 * never lost.
 */
export function clickRoutes({ store, hashVisitor, rateLimiter, addressRateLimiter, siteUrl, now = () => new Date() }: ClickRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const readBody = express.raw({ type: () => true, limit: clickBeaconLimits.maxBytes, inflate: false });

  // A declared body past the limit is refused before a byte of it is read, and the connection closed, so
  // the client cannot make the server read (or wait for) the rest.
  const refuseDeclaredOversize: RequestHandler = (req, res, next) => {
    const declared = Number(req.get('content-length') ?? 0);
    if (!(declared > clickBeaconLimits.maxBytes)) return next();
    res.set({ 'Cache-Control': 'no-store', Connection: 'close' });
    reject(res, 400, `Expected a click report of at most ${clickBeaconLimits.maxBytes} bytes`);
  };

  const tooMany = (res: Response, waitMs: number) => {
    res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
    reject(res, 429, 'Too many click reports');
  };
  const unavailable = (res: Response) => {
    // The availability tracker logs the outage once; nothing is logged per request.
    res.set('Retry-After', String(retryAfterSeconds));
    reject(res, 503, 'The click could not be recorded');
  };

  const recordClick: RequestHandler = async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (isCrossSite(req, siteUrl)) return reject(res, 403, 'Click reports are accepted from this site only');
    const userAgent = req.get('user-agent') ?? '';
    if (isPrefetch(req.headers) || isBot(userAgent) || optsOut(req.headers)) {
      res.status(204).end();
      return;
    }
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const report = req.is('text/ping') ? fromPing(req, body) : fromBeacon(body, req.host.toLowerCase());
    if (!report) return reject(res, 400, 'Expected a click report of a known placement');

    const ip = req.ip ?? '';
    const addressWaitMs = addressRateLimiter.take(ip);
    if (addressWaitMs > 0) return tooMany(res, addressWaitMs);
    let visitor: string;
    try {
      visitor = await hashVisitor(ip, userAgent);
    } catch {
      return unavailable(res);
    }
    const visitorWaitMs = rateLimiter.take(visitor);
    if (visitorWaitMs > 0) return tooMany(res, visitorWaitMs);
    try {
      await store.record({ ...report, at: now(), device: deviceClass(userAgent, req.get('sec-ch-ua-mobile')), visitor });
    } catch {
      return unavailable(res);
    }
    res.status(204).end();
  };

  // Oversized, compressed or cut-off bodies are all the same to a client: not a valid report.
  const badBody: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    res.set('Cache-Control', 'no-store');
    reject(res, 400, `Expected a click report of at most ${clickBeaconLimits.maxBytes} bytes`);
  };

  router.post(clickEndpoint, refuseDeclaredOversize, readBody, recordClick, badBody);
  router.all(clickEndpoint, (_req, res) => {
    res.set('Allow', 'POST').status(405).type('text/plain').send('Method Not Allowed\n');
  });
  return router;
}
