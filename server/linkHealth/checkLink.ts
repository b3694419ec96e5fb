import { STATUS_CODES } from 'node:http';
import { PoliteFetcher } from '../fetching/politeFetcher';
import { productToken } from '../fetching/siteFetcher';

/**
 * 'broken' means the partner says the page is gone (404, 410). 'blocked' means it refused a robot
 * (403, 405, 429), which many partner sites do to every automated request, so it is not broken.
 * 'error' is everything that tells us nothing certain: 5xx, other 4xx, no answer at all.
 */
export type LinkVerdict = 'ok' | 'broken' | 'blocked' | 'error';

export interface LinkCheckResult {
  /** When the check started. */
  checkedAt: Date;
  /** The address checked. */
  url: string;
  /** The last address reached: url itself when there was no redirect. */
  finalUrl: string;
  /** The final HTTP status; undefined when the chain never ended at a page (network error, timeout, too many redirects). */
  status?: number;
  /** How many redirects were followed. */
  redirects: number;
  /** Total duration in whole milliseconds. */
  ms: number;
  /** One plain line saying why there is no status, such as "timed out after 10000 ms". */
  error?: string;
  verdict: LinkVerdict;
}

export interface CheckLinkOptions {
  /**
   * The site's polite fetcher (server/fetching/), shared with the claims watch so both keep to one request
   * at a time per host, robots.txt and Retry-After; its own timeout and redirect limit then apply. Without
   * one, a fetcher of this check's own is made from the options below.
   */
  fetcher?: PoliteFetcher;
  /** For the whole check, redirects included; default 10000. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

export const DEFAULT_USER_AGENT = 'AuctionsGuideLinkCheck/1.0 (affiliate link health check)';

function verdictFor(status: number): LinkVerdict {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 404 || status === 410) return 'broken';
  if (status === 403 || status === 405 || status === 429) return 'blocked';
  return 'error';
}

/**
 * Fetches url as a visitor's browser would (GET, following redirects), under the polite fetcher's rules
 * (robots.txt, Retry-After, at most 5 redirects, never to http:// off the loopback), and says whether the
 * page is there. Only the status matters: the body is dropped unread. Never throws: a bad address, a
 * network failure, a timeout or a refusal by robots.txt is a result with verdict 'error'.
 */
export async function checkLink(url: string, options: CheckLinkOptions = {}): Promise<LinkCheckResult> {
  const { timeoutMs = 10_000, maxRedirects = 5, userAgent = DEFAULT_USER_AGENT } = options;
  const fetcher = options.fetcher ?? new PoliteFetcher({ userAgent, productToken, timeoutMs, maxRedirects });
  const checkedAt = new Date();
  const started = performance.now();
  const result = await fetcher.fetch(url, { readBody: false });
  const common = { checkedAt, url, finalUrl: result.finalUrl, redirects: result.redirects, ms: Math.round(performance.now() - started) };
  if (result.outcome === 'failed') return { ...common, error: result.reason, verdict: 'error' };
  // A link check sends no validators, so a 304 is the server's own odd answer: read as the page being there.
  const status = result.outcome === 'answered' ? result.status : 304;
  return { ...common, status, verdict: status === 304 ? 'ok' : verdictFor(status) };
}

/** "404 Not Found", or the bare number for a status without a standard name. */
export function describeStatus(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** One line for people: "200 OK after 2 redirects in 340 ms (https://final.example/)" or "no answer: timed out after 10000 ms". */
export function describeLinkCheck(result: LinkCheckResult): string {
  const landedElsewhere = result.finalUrl !== result.url ? ` (${result.finalUrl})` : '';
  if (result.status === undefined) {
    const where = landedElsewhere && ` (last address ${result.finalUrl})`;
    return `no answer: ${result.error ?? 'unknown error'}${where}`;
  }
  const hops = result.redirects === 0 ? '' : ` after ${result.redirects} redirect${result.redirects === 1 ? '' : 's'}`;
  return `${describeStatus(result.status)}${hops} in ${result.ms} ms${landedElsewhere}`;
}
