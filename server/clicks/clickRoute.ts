import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { affiliatePlacements } from '../../shared/affiliate';
import { clickEndpoint, clickReportLimits, type ClickReportBody } from '../../shared/clickReport';
import { isPagePath } from '../../shared/routes';
import { isHostName } from '../hostName';
import type { Logger } from '../logger';
import type { Click, ClickStore } from './clickStore';
import type { RateLimiter } from './rateLimiter';
import { deviceClass, isBot, isPrefetch, optsOut } from './requestKind';

export interface ClickRouteOptions {
  store: ClickStore;
  hashVisitor: (ip: string, userAgent: string) => string;
  rateLimiter: RateLimiter;
  /** The configured public origin, accepted as Origin besides the request's own host (a proxy may rename it). */
  siteUrl: string;
  logger: Logger;
  now?: () => Date;
}

type Report = Pick<Click, 'placement' | 'page' | 'referrerHost' | 'via'>;

/** A referrer's host as `URL.host` gives it: a host name of at most 253 characters, with an optional port. */
const isReferrerHost = (host: string) => host.length <= 253 && isHostName(host.replace(/:\d{1,5}$/, ''));

function isPlacement(value: unknown): value is string {
  return typeof value === 'string' && (affiliatePlacements as readonly string[]).includes(value);
}

/** A beacon's JSON body (sent as text/plain, which needs no CORS preflight). */
function fromBeacon(body: string, ownHost: string): Report | undefined {
  let parsed: Partial<ClickReportBody>;
  try {
    parsed = JSON.parse(body) as Partial<ClickReportBody>;
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
 * deliberately not counted (bots, prefetches, Global Privacy Control / Do Not Track), so nothing is learned by probing; 400 for anything but a
 * small, well-formed report of a known placement; 403 from another site; 429 when one visitor reports
 * too fast. The 204 is sent only after the row is committed, so an acknowledged click is never lost.
 */
export function clickRoutes({ store, hashVisitor, rateLimiter, siteUrl, logger, now = () => new Date() }: ClickRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const readBody = express.raw({ type: () => true, limit: clickReportLimits.maxBytes, inflate: false });

  const recordClick: RequestHandler = (req, res) => {
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

    const visitor = hashVisitor(req.ip ?? '', userAgent);
    const waitMs = rateLimiter.take(visitor);
    if (waitMs > 0) {
      res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
      return reject(res, 429, 'Too many click reports');
    }
    try {
      store.record({ ...report, at: now(), device: deviceClass(userAgent, req.get('sec-ch-ua-mobile')), visitor });
    } catch (error) {
      logger.error('a click could not be recorded', error);
      res.set('Retry-After', '60');
      return reject(res, 503, 'The click could not be recorded');
    }
    res.status(204).end();
  };

  // Oversized, compressed or cut-off bodies are all the same to a client: not a valid report.
  const badBody: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    res.set('Cache-Control', 'no-store');
    reject(res, 400, `Expected a click report of at most ${clickReportLimits.maxBytes} bytes`);
  };

  router.post(clickEndpoint, readBody, recordClick, badBody);
  router.all(clickEndpoint, (_req, res) => {
    res.set('Allow', 'POST').status(405).type('text/plain').send('Method Not Allowed\n');
  });
  return router;
}
