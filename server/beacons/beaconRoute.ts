import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { RateLimiter } from '../limits/rateLimiter';
import { deviceClass, isBot, isPrefetch, optsOut, type DeviceClass } from './requestKind';
import { clientKey } from '../limits/clientKey';
import type { VisitorHasher } from './visitorSalts';
import { isHostName } from '../lib/hostName';
import type { FilteredCounter } from './filteredCounter';
import type { FilteredBeacon, FilterReason } from '../dayCounts/filterReasons';

/**
 * What every report a visitor's browser sends (clicks, page views) goes through before its own rules:
 * the same answers for the same faults, so a route adds only how its report reads and where it is kept.
 */
export interface BeaconGuardOptions {
  hashVisitor: VisitorHasher;
  /** Per visitor hash. */
  rateLimiter: RateLimiter;
  /**
   * Per client address (an IPv6 client by its /64, see clientKey), so a script that changes its user agent
   * on every report is still held back. Spent only by reports the visitor limit lets through.
   */
  addressRateLimiter: RateLimiter;
  /** The configured public origin, accepted as Origin besides the request's own host (a proxy may rename it). */
  siteUrl: string;
  /** Counts each report refused or skipped, per day and reason (filterReasons.ts), in memory: never waits. */
  filtered: FilteredCounter;
  now?: () => Date;
}

/** Who sent a report, as the stores keep it: never the address or the user agent themselves. */
export interface ReportVisit {
  at: Date;
  device: DeviceClass;
  visitor: string;
}

export interface BeaconRouteOptions<Report> extends BeaconGuardOptions {
  endpoint: string;
  /** Larger bodies are not reports: refused before they are read. */
  maxBytes: number;
  /** What one report tells of, for the answers' words and as filtered_counts names the beacon: 'click', 'view'. */
  subject: FilteredBeacon;
  /** What a valid report names, for the 400 answer: 'a known placement'. */
  expected: string;
  /** The report in a request (its body as text, and for pings its query and headers); undefined when it is not a valid one. */
  read(req: Request, body: string): Report | undefined;
  /**
   * Writes the report; when the promise resolves, it is committed. A report the database's state refuses
   * (a leave report with no view to go with) resolves to its reason instead, answered 409 and counted.
   */
  record(report: Report, visit: ReportVisit): Promise<void | RefusedReport>;
}

/** A report refused by what is recorded already (filterReasons.ts), with the answer's words. */
export interface RefusedReport {
  reason: FilterReason;
  message: string;
}

/** How long a client should wait when the database cannot take a report. */
const retryAfterSeconds = 30;

/** A report sent from another site's page is not one of our visitors'. */
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

/** A beacon's JSON body (sent as text/plain, which needs no CORS preflight) when it is an object; else undefined. */
export function jsonObject(body: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/**
 * The host a report was sent to, in lower case, for telling this site's own referrer apart: '' when the
 * request names none (an empty Host header, or behind a trusted proxy an empty X-Forwarded-Host such as
 * `X-Forwarded-Host: ,`), where Express's req.host is undefined.
 */
export const ownHost = (req: Request): string => (req.host ?? '').toLowerCase();

/** A referrer's host as `URL.host` gives it: a host name of at most 253 characters, with an optional port. */
const isReferrerHost = (host: string) => host.length <= 253 && isHostName(host.replace(/:\d{1,5}$/, ''));

/**
 * A reported referrer as stored: its host in lower case, or null when none or this site itself;
 * undefined when it is not a host at all (the report is then not a valid one).
 */
export function storedReferrerHost(referrer: unknown, ownHost: string): string | null | undefined {
  if (typeof referrer !== 'string') return undefined;
  const host = referrer.toLowerCase();
  if (host !== '' && !isReferrerHost(host)) return undefined;
  return host === '' || host === ownHost ? null : host;
}

/**
 * POST `endpoint`: one report of something a visitor did. 204 when counted, or answered and
 * deliberately not counted (bots, prefetches, Global Privacy Control / Do Not Track), so nothing is
 * learned by probing; 400 for anything but a small, well-formed report (`read`); 409 for one that what is
 * recorded refuses (`record`: a leave report with no view of its page); 403 from another site;
 * 429 when one visitor or one address (an IPv6 /64) reports too fast; 503 with Retry-After when the
 * database cannot take it; 405 for other methods. The 204 is sent only after the row is committed, so an
 * acknowledged report is never lost. Never a cookie, never cached. Every answer but 204-recorded, 503
 * and 405 is counted in `filtered` under its reason (filterReasons.ts), and nothing else about it is kept.
 */
export function beaconRoute<Report>(options: BeaconRouteOptions<Report>): express.Router {
  const { endpoint, maxBytes, subject, expected, read, record, hashVisitor, rateLimiter, addressRateLimiter, siteUrl, filtered, now = () => new Date() } = options;
  const router = express.Router({ caseSensitive: true, strict: true });
  const readBody = express.raw({ type: () => true, limit: maxBytes, inflate: false });
  const tooBig = `Expected a ${subject} report of at most ${maxBytes} bytes`;
  const countFiltered = (reason: FilterReason) => filtered.count(subject, reason, now());

  // A declared body past the limit is refused before a byte of it is read, and the connection closed, so
  // the client cannot make the server read (or wait for) the rest.
  const refuseDeclaredOversize: RequestHandler = (req, res, next) => {
    const declared = Number(req.get('content-length') ?? 0);
    if (!(declared > maxBytes)) return next();
    res.set({ 'Cache-Control': 'no-store', Connection: 'close' });
    countFiltered('malformed');
    reject(res, 400, tooBig);
  };

  const tooMany = (res: Response, waitMs: number) => {
    countFiltered('rate-limited');
    res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
    reject(res, 429, `Too many ${subject} reports`);
  };
  const unavailable = (res: Response) => {
    // The availability tracker logs the outage once; nothing is logged per request.
    res.set('Retry-After', String(retryAfterSeconds));
    reject(res, 503, `The ${subject} could not be recorded`);
  };

  const handleReport: RequestHandler = async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (isCrossSite(req, siteUrl)) {
      countFiltered('cross-site');
      return reject(res, 403, `Only this site's pages may send ${subject} reports`);
    }
    const userAgent = req.get('user-agent') ?? '';
    const skipped: FilterReason | undefined = isPrefetch(req.headers) ? 'prefetch' : isBot(userAgent) ? 'bot' : optsOut(req.headers) ? 'opted-out' : undefined;
    if (skipped) {
      countFiltered(skipped);
      res.status(204).end();
      return;
    }
    const report = read(req, Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');
    if (report === undefined) {
      countFiltered('malformed');
      return reject(res, 400, `Expected a ${subject} report of ${expected}`);
    }

    const ip = req.ip ?? '';
    const address = clientKey(ip);
    // A held-back address is refused before its visitor is hashed (which may wait on the database).
    const addressWaitMs = addressRateLimiter.wait(address);
    if (addressWaitMs > 0) return tooMany(res, addressWaitMs);
    let visitor: string;
    try {
      visitor = await hashVisitor(ip, userAgent);
    } catch {
      return unavailable(res);
    }
    // Both limits are read before either is spent, at one instant with no await in between, so a report one
    // of them refuses costs nothing from the other: a visitor stuck past its own limit does not use up the
    // allowance of everyone else behind its address (a carrier NAT, an office).
    const at = Date.now();
    const waitMs = Math.max(rateLimiter.wait(visitor, at), addressRateLimiter.wait(address, at));
    if (waitMs > 0) return tooMany(res, waitMs);
    rateLimiter.take(visitor, at);
    addressRateLimiter.take(address, at);
    let refused: void | RefusedReport;
    try {
      refused = await record(report, { at: now(), device: deviceClass(userAgent, req.get('sec-ch-ua-mobile')), visitor });
    } catch {
      return unavailable(res);
    }
    if (refused) {
      countFiltered(refused.reason);
      return reject(res, 409, refused.message);
    }
    res.status(204).end();
  };

  // Oversized, compressed or cut-off bodies are all the same to a client: not a valid report. Anything else
  // thrown here is a fault of ours, left to the app's error handler (500, logged), never passed off as the body's.
  const badBody: ErrorRequestHandler = (error: { status?: unknown }, _req, res, next) => {
    if (res.headersSent || !(typeof error?.status === 'number' && error.status >= 400 && error.status < 500)) return next(error);
    res.set('Cache-Control', 'no-store');
    countFiltered('malformed');
    reject(res, 400, tooBig);
  };

  router.post(endpoint, refuseDeclaredOversize, readBody, handleReport, badBody);
  router.all(endpoint, (_req, res) => {
    res.set({ Allow: 'POST', 'Cache-Control': 'no-store' }).status(405).type('text/plain').send('Method Not Allowed\n');
  });
  return router;
}
