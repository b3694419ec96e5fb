import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { RequestHandler } from 'express';

/** Headers every /admin answer carries, the 401 and 429 included: never cached, never indexed. */
export function setPrivateHeaders(res: Parameters<RequestHandler>[1]): void {
  res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
}

/** The token a request offers: HTTP Basic (any user name, the token as password) or a Bearer token. */
function offeredToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme = '', credentials = ''] = authorization.trim().split(/\s+/, 2);
  if (scheme.toLowerCase() === 'bearer') return credentials;
  if (scheme.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

/** Hashing both sides first gives equal lengths, so the comparison takes the same time whatever is offered. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who a failure is counted against: an IPv4 address (also when written as IPv4-mapped IPv6), or the
 * /64 prefix of an IPv6 address, since one host or home is normally given a whole /64 and could
 * otherwise step through its addresses to escape the count.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0');
  const groups = [...headGroups, ...zeros, ...tailGroups].slice(0, 4).map((group) => parseInt(group, 16).toString(16));
  return `${groups.join(':')}::/64`;
}

export interface AdminThrottleOptions {
  /** Wrong tokens an address may offer in a row before it is held back. */
  burst?: number;
  /** After the burst, one more try per this many milliseconds. */
  refillMs?: number;
  /** Addresses remembered at most; past it the longest-known is forgotten. */
  maxAddresses?: number;
  /** The clock, in milliseconds; tests pass their own. */
  now?: () => number;
}

/**
 * A token bucket per address that only wrong tokens spend, and that can be read without spending:
 * unlike the click limiter (clicks/rateLimiter.ts, whose only operation is take), the gate must
 * refuse a held-back address before looking at its token, and let a right token through for free.
 */
function createFailureThrottle({ burst, refillMs, maxAddresses }: Required<Omit<AdminThrottleOptions, 'now'>>) {
  const buckets = new Map<string, { tokens: number; updated: number }>();
  const tokensAt = (bucket: { tokens: number; updated: number }, now: number) =>
    Math.min(burst, bucket.tokens + (now - bucket.updated) / refillMs);
  return {
    /** Milliseconds until this address may try a token again: 0 when it may now. Spends nothing. */
    waitMs(key: string, now: number): number {
      const bucket = buckets.get(key);
      if (!bucket) return 0;
      const tokens = tokensAt(bucket, now);
      if (tokens >= burst) buckets.delete(key);
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * refillMs);
    },
    /** Spends one try for a wrong token (called only after waitMs said 0). */
    fail(key: string, now: number): void {
      const bucket = buckets.get(key);
      const tokens = bucket ? tokensAt(bucket, now) : burst;
      buckets.delete(key);
      if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value!);
      buckets.set(key, { tokens: Math.max(0, tokens - 1), updated: now });
    },
  };
}

/**
 * Lets a request through only with the admin token. Browsers ask for it with their own sign-in
 * prompt (Basic); scripts can send `Authorization: Bearer <token>`.
 *
 * Wrong tokens are throttled per client address (`req.ip`, so behind a proxy TRUST_PROXY must be set):
 * 10 in a row, then one every 6 s. Ten covers an operator mistyping a few times, and a minute's wait
 * after that costs them little; a script is held to 10 guesses a minute per address instead of
 * hundreds a second. A long random token (`openssl rand -hex 24`) is what keeps /admin safe; the
 * throttle makes a weak one slow to guess and keeps guessing from costing the server work. While an
 * address is held back every /admin request from it gets 429 with Retry-After and its token is not
 * even compared, so a held-back guesser learns nothing. The right token is never counted, and works
 * at once from any other address. A request offering no token is the browser's first visit (it asks
 * for one on the 401) and is not counted either.
 */
export function requireAdminToken(token: string, options: AdminThrottleOptions = {}): RequestHandler {
  const expected = digest(token);
  const { burst = 10, refillMs = 6_000, maxAddresses = 10_000, now = Date.now } = options;
  const throttle = createFailureThrottle({ burst, refillMs, maxAddresses });
  return (req, res, next) => {
    const key = clientKey(req.ip);
    const waitMs = throttle.waitMs(key, now());
    if (waitMs > 0) {
      setPrivateHeaders(res);
      res
        .status(429)
        .set('Retry-After', String(Math.ceil(waitMs / 1000)))
        .type('text/plain')
        .send('Too many wrong admin tokens from this address; try again after Retry-After seconds.\n');
      return;
    }
    const offered = offeredToken(req.get('authorization'));
    if (offered !== undefined && timingSafeEqual(digest(offered), expected)) {
      next();
      return;
    }
    if (offered !== undefined) throttle.fail(key, now());
    setPrivateHeaders(res);
    res
      .status(401)
      .set('WWW-Authenticate', 'Basic realm="Auctions Guide admin", charset="UTF-8", Bearer realm="Auctions Guide admin"')
      .type('text/plain')
      .send('This page needs the admin token (ADMIN_TOKEN).\n');
  };
}
