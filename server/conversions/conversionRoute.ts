import { isUtf8 } from 'node:buffer';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { clientKey } from '../limits/clientKey';
import { createWrongSecretThrottle, secretMatcher, type WrongSecretThrottleOptions } from '../limits/wrongSecretThrottle';
import { conversionFieldNames, parseConversion, statusMapFromLists, type ConversionFields } from './conversionFields';
import type { ConversionStore } from './conversionStore';
import type { Experiment } from '../../shared/experiments/experiment';

export const conversionsEndpoint = '/api/conversions';

/** A postback is a handful of short fields; anything larger is not one. */
const maxPostbackBytes = 8 * 1024;
const maxFormFields = 100;

/** How long a network should wait when the database cannot take the conversion. */
const retryAfterSeconds = 30;

export interface ConversionRouteOptions {
  /** CONVERSIONS_KEY: every postback must carry it as `key`. */
  key: string;
  store: Pick<ConversionStore, 'record'>;
  /** The experiments a sub-ID without JavaScript may name (shared/content/experiments.ts's unless given). */
  experiments?: readonly Experiment[];
  /** Wrong keys per address: by default 10 in a row, then one every 6 s. */
  throttle?: WrongSecretThrottleOptions;
  now?: () => Date;
}

/** The network's own status names for ours, listed in the postback URL: sale_status=APPROVED,PENDING. */
const statusListNames = ['sale_status', 'refund_status', 'chargeback_status'] as const;
/** The names read from a postback: the key, ours, `tid` (Keitaro's name for the transaction ID) and the status lists. */
const acceptedNames = ['key', 'tid', ...conversionFieldNames, ...statusListNames] as const;
type AcceptedName = (typeof acceptedNames)[number];

interface Collected {
  fields: Partial<Record<AcceptedName, string>>;
  /** The key cannot be read (given twice, or not as a string): answered before any key is compared. */
  keyError?: string;
  /** The first field that cannot be read, as a line naming it; checked after the key. */
  error?: string;
}

/** A value as a string: query strings and forms give strings, JSON may give numbers; anything else is not a field. */
function fieldText(name: string, value: unknown): string | { error: string } {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return { error: Array.isArray(value) ? `${name} must be given once` : `${name} must be a string` };
}

/**
 * The fields from the query string and the body together, so a network may put some in its URL
 * template and the rest in a form or JSON body. A field given twice with different values is refused
 * rather than guessed at. Names not listed here (networks add their own) are ignored.
 */
function collectFields(query: unknown, body: unknown): Collected {
  const sources = [query, body].filter((source): source is Record<string, unknown> => typeof source === 'object' && source !== null && !Array.isArray(source));
  const collected: Collected = { fields: {} };
  const { fields } = collected;
  for (const name of acceptedNames) {
    for (const source of sources) {
      if (!Object.hasOwn(source, name) || source[name] === null) continue;
      const text = fieldText(name, source[name]);
      let problem: string | undefined;
      if (typeof text !== 'string') problem = text.error;
      else if (fields[name] !== undefined && fields[name] !== text) problem = `${name} is given twice with different values`;
      else fields[name] = text;
      if (problem !== undefined && name === 'key') collected.keyError ??= problem;
      else if (problem !== undefined) collected.error ??= problem;
    }
  }
  if (fields.tid !== undefined && fields.txid !== undefined && fields.tid !== fields.txid) collected.error ??= 'txid and tid are both given, with different values';
  return collected;
}

function answer(res: Response, status: number, line: string): void {
  res.status(status).type('text/plain').send(`${line}\n`);
}

const formOrJson = 'body must be a form (application/x-www-form-urlencoded) or JSON (application/json)';
const jsonObjectOnly = 'body must be valid JSON: one object of fields';

/**
 * Why a POST body the parsers let through still cannot be read: of another type (text, multipart), so
 * left unparsed, or JSON that is not one object of fields. Undefined when it can be read, or there is none.
 */
function unreadableBody(req: Request): string | undefined {
  if (req.method !== 'POST') return undefined;
  if (req.body === undefined) {
    const hasBody = req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
    return hasBody ? formOrJson : undefined;
  }
  return typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? undefined : jsonObjectOnly;
}

/** What went wrong with a body the parsers refused, by their error's type: one line, and the status to answer. */
function bodyParserProblem(error: { status?: unknown; type?: unknown }): { status: number; line: string } {
  switch (error.type) {
    case 'entity.too.large':
      return { status: 413, line: `body must be at most ${maxPostbackBytes} bytes` };
    case 'parameters.too.many':
      return { status: 413, line: `body must hold at most ${maxFormFields} fields` };
    case 'charset.unsupported':
      return { status: 415, line: 'body must be UTF-8 text' };
    case 'body.not.utf8':
      return { status: 400, line: 'body must be UTF-8 text' };
    case 'encoding.unsupported':
      return { status: 415, line: 'body must not be compressed (no Content-Encoding)' };
    case 'entity.parse.failed':
      return { status: 400, line: jsonObjectOnly };
    default: {
      const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 400;
      return { status, line: `body must be a form or JSON of at most ${maxPostbackBytes} bytes` };
    }
  }
}

/**
 * Bytes that are not UTF-8 would be read as U+FFFD, and a txid recorded that the network never sent.
 * body-parser answers a verify error 403: its type lets badBody answer it as the body's error instead.
 */
export function utf8Only(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  if (encoding !== null && /^utf-?8$/i.test(encoding) && !isUtf8(body)) throw Object.assign(new Error('body is not UTF-8'), { type: 'body.not.utf8' });
}

/**
 * GET and POST /api/conversions: an affiliate network reports a sale, refund or chargeback (a
 * "postback"), with the fields in the query string, a form body or a JSON body. Answers, one line of
 * text each:
 * - 200 recorded | duplicate | reversed | already reversed | unknown txid (see ConversionOutcome),
 *   sent only once committed, so a network that got a 200 never needs to send it again;
 * - 400 naming the one field that is wrong;
 * - 400, 413 or 415 naming what is wrong with a body that cannot be read (not a form or JSON object,
 *   malformed, over 8 KB, compressed, not UTF-8), or with a key given twice or not as a string: answered
 *   before the key is compared, since the key may be in that body, so it spends no wrong-key try;
 * - 403 for a wrong or missing key; 429 with Retry-After once an address has sent 10 wrong keys in a
 *   row, after which it gets one more try every 6 s and its keys are not even compared;
 * - 503 with Retry-After while the database cannot take it (networks retry on anything but 2xx);
 * - 405 for other methods.
 * Nothing here logs: the key rides in the URL, and the access log writes the path without the query.
 */
export function conversionRoutes({ key, store, experiments, throttle: throttleOptions, now = () => new Date() }: ConversionRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const matchesKey = secretMatcher(key);
  const throttle = createWrongSecretThrottle(throttleOptions);
  const limits = { limit: maxPostbackBytes, inflate: false, verify: utf8Only };
  const readBody = [express.urlencoded({ ...limits, extended: false, parameterLimit: maxFormFields }), express.json(limits)];

  const holdBackWrongKeys: RequestHandler = (req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
    const waitMs = throttle.waitMs(clientKey(req.ip));
    if (waitMs <= 0) return next();
    res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
    answer(res, 429, 'Too many wrong keys from this address; try again after Retry-After seconds');
  };

  const recordConversion: RequestHandler = async (req, res) => {
    // A body that cannot be read may hold the key: its error is the answer, and no key is compared or
    // counted against the address (as with the parsers' own errors, answered by badBody).
    const bodyError = unreadableBody(req);
    if (bodyError !== undefined) return answer(res, 400, bodyError);
    const { fields, keyError, error } = collectFields(req.query, req.body);
    if (keyError !== undefined) return answer(res, 400, keyError);
    if (fields.key === undefined || !matchesKey(fields.key)) {
      throttle.fail(clientKey(req.ip));
      return answer(res, 403, 'Wrong or missing key');
    }
    if (error !== undefined) return answer(res, 400, error);
    const statusMap = statusMapFromLists({ sale: fields.sale_status, refund: fields.refund_status, chargeback: fields.chargeback_status });
    if (statusMap.error !== undefined) return answer(res, 400, statusMap.error);
    const reportFields: ConversionFields = { ...fields, txid: fields.txid ?? fields.tid };
    const parsed = parseConversion(reportFields, statusMap.map, experiments);
    if (parsed.error) return answer(res, 400, parsed.error.message);
    let outcome;
    try {
      outcome = await store.record(parsed.report, 'postback', now());
    } catch {
      // The availability tracker logs the outage once; nothing is logged per request.
      res.set('Retry-After', String(retryAfterSeconds));
      return answer(res, 503, 'The conversion could not be recorded; try again later');
    }
    answer(res, 200, outcome);
  };

  // Malformed, oversized, compressed or non-UTF-8 bodies: 400, 413 or 415 and one line, before any key is
  // compared (the key may be in the body), so no wrong-key try is spent; never logged.
  const badBody: ErrorRequestHandler = (error: { status?: unknown; type?: unknown }, _req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, line } = bodyParserProblem(error);
    answer(res, status, line);
  };

  const notAllowed: RequestHandler = (_req, res) => {
    res.set('Allow', 'GET, POST');
    answer(res, 405, 'Method Not Allowed');
  };
  // HEAD would otherwise run the GET handler: a link checker's HEAD must never record a conversion.
  router.head(conversionsEndpoint, notAllowed);
  router.get(conversionsEndpoint, holdBackWrongKeys, recordConversion);
  router.post(conversionsEndpoint, holdBackWrongKeys, ...readBody, recordConversion, badBody);
  router.all(conversionsEndpoint, notAllowed);
  return router;
}
