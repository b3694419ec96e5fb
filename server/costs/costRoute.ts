import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { clientKey } from '../limits/clientKey';
import { createWrongSecretThrottle, secretMatcher, type WrongSecretThrottleOptions } from '../limits/wrongSecretThrottle';
import { utf8Only } from '../conversions/conversionRoute';
import { parseCostRow } from './costInput';
import type { CostRow } from './costRow';
import type { CostStore } from './costStore';

export const costsEndpoint = '/api/costs';

/** A POST holds at most this many rows: a day of a large account's ads, and a bounded transaction. */
export const maxCostRows = 1000;
/** A thousand rows of names up to 100 characters each fit well within this. */
export const maxCostBodyBytes = 512 * 1024;

const retryAfterSeconds = 30;

export interface CostRouteOptions {
  /** CONVERSIONS_KEY: the same key as the networks' postbacks. */
  key: string;
  store: Pick<CostStore, 'replaceCosts'>;
  /** Wrong keys per address: by default 10 in a row, then one every 6 s (as conversions). */
  throttle?: WrongSecretThrottleOptions;
  now?: () => Date;
}

/** A refused row: its place in `rows` (from 0) and why, never quoting what it held. */
export interface RejectedCostRow {
  index: number;
  reason: string;
}

const jsonShape = 'body must be JSON: {"rows": [{"day", "source", "campaign", "content", "cost", "currency"}, …]}';

function answer(res: Response, status: number, body: object): void {
  res.status(status).json(body);
}

/** What went wrong with a body the JSON parser refused, by its error's type. */
function bodyParserProblem(error: { status?: unknown; type?: unknown }): { status: number; error: string } {
  switch (error.type) {
    case 'entity.too.large':
      return { status: 413, error: `body must be at most ${maxCostBodyBytes} bytes` };
    case 'charset.unsupported':
      return { status: 415, error: 'body must be UTF-8 text' };
    case 'body.not.utf8':
      return { status: 400, error: 'body must be UTF-8 text' };
    case 'encoding.unsupported':
      return { status: 415, error: 'body must not be compressed (no Content-Encoding)' };
    case 'entity.parse.failed':
      return { status: 400, error: jsonShape };
    default: {
      const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 400;
      return { status, error: jsonShape };
    }
  }
}

/**
 * The key as the request gives it: `Authorization: Bearer KEY`, the query's `key`, or the body's `key`, as
 * conversions read theirs from the query or the body. Given in more than one place it must be the same.
 */
function offeredKey(req: Request): { key?: string; error?: string } {
  const found: string[] = [];
  const header = req.get('authorization');
  if (header !== undefined) {
    const bearer = /^Bearer +(\S+) *$/i.exec(header);
    if (!bearer) return { error: 'Authorization must be "Bearer KEY"' };
    found.push(bearer[1]!);
  }
  for (const source of [req.query as unknown, req.body as unknown]) {
    if (typeof source !== 'object' || source === null || !Object.hasOwn(source, 'key')) continue;
    const value = (source as Record<string, unknown>).key;
    if (typeof value !== 'string') return { error: 'key must be given once, as a string' };
    found.push(value);
  }
  if (new Set(found).size > 1) return { error: 'key is given twice with different values' };
  return { key: found[0] };
}

/** Each row checked on its own: the good ones, and one reason per refused row (a key given twice in the body is refused after its first). */
export function checkCostRows(rows: readonly unknown[], now: Date): { accepted: CostRow[]; rejected: RejectedCostRow[] } {
  const accepted: CostRow[] = [];
  const rejected: RejectedCostRow[] = [];
  const seen = new Map<string, number>();
  rows.forEach((input, index) => {
    const parsed = parseCostRow(input, now);
    if (parsed.reason !== undefined) return rejected.push({ index, reason: parsed.reason });
    const { row } = parsed;
    const key = JSON.stringify([row.day, row.source, row.campaign, row.content, row.currency]);
    const first = seen.get(key);
    if (first !== undefined) return rejected.push({ index, reason: `row ${first} already gives this day, source, campaign, content and currency` });
    seen.set(key, index);
    accepted.push(row);
  });
  return { accepted, rejected };
}

/**
 * POST /api/costs: a script or automation tool (as Keitaro's cost update is used) sets what ads cost, as
 * JSON `{ "rows": [{ "day", "source", "campaign"?, "content"?, "cost", "currency" }] }`. Each row is the
 * state of its day, source, campaign, ad and currency: it replaces what was held, never adds to it.
 * Answers JSON:
 * - 200 `{ applied, unchanged, rejected: [{ index, reason }] }`, sent once committed: the good rows are
 *   applied whatever the others held;
 * - 400, 413 or 415 `{ error }` for a body that is not such JSON (malformed, over 512 KB, more than 1,000
 *   rows, compressed, not UTF-8), answered before the key is compared, so it spends no wrong-key try;
 * - 403 for a wrong or missing key; 429 with Retry-After after 10 wrong keys in a row from an address;
 * - 503 with Retry-After while the database cannot take them; 405 for other methods.
 * Nothing here logs, and no answer quotes what was sent.
 */
export function costRoutes({ key, store, throttle: throttleOptions, now = () => new Date() }: CostRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const matchesKey = secretMatcher(key);
  const throttle = createWrongSecretThrottle(throttleOptions);

  const holdBackWrongKeys: RequestHandler = (req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
    const waitMs = throttle.waitMs(clientKey(req.ip));
    if (waitMs <= 0) return next();
    res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
    answer(res, 429, { error: 'Too many wrong keys from this address; try again after Retry-After seconds' });
  };

  const setCosts: RequestHandler = async (req, res) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return answer(res, 400, { error: jsonShape });
    const offered = offeredKey(req);
    if (offered.error !== undefined) return answer(res, 400, { error: offered.error });
    if (offered.key === undefined || !matchesKey(offered.key)) {
      throttle.fail(clientKey(req.ip));
      return answer(res, 403, { error: 'Wrong or missing key' });
    }
    const { rows } = body as { rows?: unknown };
    if (!Array.isArray(rows)) return answer(res, 400, { error: jsonShape });
    if (rows.length > maxCostRows) return answer(res, 413, { error: `rows must hold at most ${maxCostRows} rows; send the rest in another request` });
    const { accepted, rejected } = checkCostRows(rows, now());
    let counts = { changed: 0, unchanged: 0 };
    try {
      if (accepted.length > 0) counts = await store.replaceCosts(accepted, now());
    } catch {
      res.set('Retry-After', String(retryAfterSeconds));
      return answer(res, 503, { error: 'The costs could not be recorded; try again later' });
    }
    answer(res, 200, { applied: counts.changed, unchanged: counts.unchanged, rejected });
  };

  const badBody: ErrorRequestHandler = (error: { status?: unknown; type?: unknown }, _req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, error: line } = bodyParserProblem(error);
    answer(res, status, { error: line });
  };

  const notAllowed: RequestHandler = (_req, res) => {
    res.set('Allow', 'POST');
    answer(res, 405, { error: 'Method Not Allowed' });
  };
  router.post(costsEndpoint, holdBackWrongKeys, express.json({ limit: maxCostBodyBytes, inflate: false, verify: utf8Only, type: () => true }), setCosts, badBody);
  router.all(costsEndpoint, notAllowed);
  return router;
}
