import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { createRateLimiter } from './clicks/rateLimiter';

/**
 * Who a wrong secret is counted against: an IPv4 address (also when written as IPv4-mapped IPv6), or
 * the /64 prefix of an IPv6 address, since one host or home is normally given a whole /64 and could
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

/** Hashing both sides first gives equal lengths, so the comparison takes the same time whatever is offered. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/** A constant-time check of an offered secret against the configured one. */
export function secretMatcher(secret: string): (offered: string) => boolean {
  const expected = digest(secret);
  return (offered) => timingSafeEqual(digest(offered), expected);
}

export interface WrongSecretThrottleOptions {
  /** Wrong secrets an address may offer in a row before it is held back. */
  burst?: number;
  /** After the burst, one more try per this many milliseconds. */
  refillMs?: number;
  /** Addresses remembered at most; past it the longest-known is forgotten. */
  maxAddresses?: number;
  /** The clock, in milliseconds; tests pass their own. */
  now?: () => number;
}

export interface WrongSecretThrottle {
  /** Milliseconds until this address may offer a secret again: 0 when it may now. Spends nothing. */
  waitMs(key: string): number;
  /** Spends one try for a wrong secret (called only after waitMs said 0). */
  fail(key: string): void;
}

/**
 * A token bucket per address that only wrong secrets spend, and that is read before spending: a gate
 * must refuse a held-back address before looking at its secret, and let a right secret through for
 * free. The buckets are the click limiter's (clicks/rateLimiter.ts). Used by /admin (ADMIN_TOKEN) and
 * /api/conversions (CONVERSIONS_KEY); by default 10 wrong secrets in a row, then one every 6 s.
 */
export function createWrongSecretThrottle(options: WrongSecretThrottleOptions = {}): WrongSecretThrottle {
  const { burst = 10, refillMs = 6_000, maxAddresses = 10_000, now = Date.now } = options;
  const limiter = createRateLimiter({ burst, refillMs, maxKeys: maxAddresses });
  return {
    waitMs: (key) => limiter.wait(key, now()),
    fail: (key) => {
      limiter.take(key, now());
    },
  };
}
