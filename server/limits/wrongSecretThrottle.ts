import { createHash, timingSafeEqual } from 'node:crypto';
import { createRateLimiter } from './rateLimiter';

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
  /** Addresses remembered at most (`defaultMaxAddresses` unless given); past it the longest-known is forgotten. */
  maxAddresses?: number;
  /** The clock, in milliseconds; tests pass their own. */
  now?: () => number;
}

export interface WrongSecretThrottle {
  /** Milliseconds until this address may offer a secret again: 0 when it may now. Spends nothing. */
  waitMs(key: string): number;
  /** Spends one try for a wrong secret (called only after waitMs said 0). */
  fail(key: string): void;
  /** Addresses remembered now: never more than maxAddresses. */
  readonly size: number;
}

/** Addresses a throttle remembers at most: about 2 MB of buckets (see limits/rateLimiter.ts), whatever a flood of addresses sends. */
export const defaultMaxAddresses = 10_000;

/**
 * A token bucket per address that only wrong secrets spend, and that is read before spending: a gate
 * must refuse a held-back address before looking at its secret, and let a right secret through for
 * free. The buckets are the click limiter's (limits/rateLimiter.ts). Used by /admin (ADMIN_TOKEN) and
 * /api/conversions (CONVERSIONS_KEY); by default 10 wrong secrets in a row, then one every 6 s, for at
 * most `defaultMaxAddresses` addresses at once.
 */
export function createWrongSecretThrottle(options: WrongSecretThrottleOptions = {}): WrongSecretThrottle {
  const { burst = 10, refillMs = 6_000, maxAddresses = defaultMaxAddresses, now = Date.now } = options;
  const limiter = createRateLimiter({ burst, refillMs, maxKeys: maxAddresses });
  return {
    waitMs: (key) => limiter.wait(key, now()),
    fail: (key) => {
      limiter.take(key, now());
    },
    get size() {
      return limiter.size;
    },
  };
}
