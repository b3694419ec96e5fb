import { STATUS_CODES } from 'node:http';
import { errorCode, fieldsOf, firstLine, messageOf } from '../lib/errorText';

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
  /** For the whole check, redirects included; default 10000. */
  timeoutMs?: number;
  /** Default 10. */
  maxRedirects?: number;
  userAgent?: string;
}

export const DEFAULT_USER_AGENT = 'AuctionsGuideLinkCheck/1.0 (affiliate link health check)';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function verdictFor(status: number): LinkVerdict {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 404 || status === 410) return 'broken';
  if (status === 403 || status === 405 || status === 429) return 'blocked';
  return 'error';
}

/**
 * Fetches url as a visitor's browser would (GET, following redirects), and says whether the page is there.
 * Never throws: a bad address, a network failure or a timeout is a result with verdict 'error'.
 */
export async function checkLink(url: string, options: CheckLinkOptions = {}): Promise<LinkCheckResult> {
  const { timeoutMs = 10_000, maxRedirects = 10, userAgent = DEFAULT_USER_AGENT } = options;
  const checkedAt = new Date();
  const started = performance.now();
  let currentUrl = url;
  let redirects = 0;
  const finish = (outcome: { status: number } | { error: string }): LinkCheckResult => {
    const common = { checkedAt, url, finalUrl: currentUrl, redirects, ms: Math.round(performance.now() - started) };
    return 'status' in outcome
      ? { ...common, status: outcome.status, verdict: verdictFor(outcome.status) }
      : { ...common, error: outcome.error, verdict: 'error' };
  };

  if (!isHttpUrl(url)) return finish({ error: `not an http:// or https:// address: ${url}` });
  // One signal for every hop, so a slow redirect chain cannot stretch the check past timeoutMs.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for (;;) {
      const response = await fetch(currentUrl, {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      // Only the status matters; dropping the body frees the socket instead of downloading the page.
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      if (!redirectStatuses.has(response.status) || location === null) return finish({ status: response.status });
      if (redirects >= maxRedirects) return finish({ error: `too many redirects (more than ${maxRedirects})` });
      const next = resolveLocation(location, currentUrl);
      if (next === undefined) return finish({ error: `redirected to an address that is not http:// or https://: ${location}` });
      currentUrl = next;
      redirects += 1;
    }
  } catch (error) {
    return finish({ error: signal.aborted ? `timed out after ${timeoutMs} ms` : describeFetchError(error) });
  }
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
}

function resolveLocation(location: string, base: string): string | undefined {
  if (!URL.canParse(location, base)) return undefined;
  const next = new URL(location, base).href;
  return isHttpUrl(next) ? next : undefined;
}

const networkErrors: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed before an answer',
};

/** fetch reports every network failure as TypeError("fetch failed"); the useful part is in its cause. */
function describeFetchError(error: unknown): string {
  const source = fieldsOf(error).cause ?? error;
  const code = errorCode(source);
  if (code !== undefined && networkErrors[code]) return networkErrors[code];
  if (code !== undefined && /CERT|TLS|SSL/.test(code)) return `TLS certificate problem (${code})`;
  return firstLine(messageOf(source)) || 'request failed';
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
