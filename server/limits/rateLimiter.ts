/**
 * Keys a limiter holds at most unless told otherwise. A bucket costs about 110 bytes of heap keyed by an
 * IPv4 address, 175 by a visitor hash and 200 by an IPv6 /64, so a full limiter holds at most about 20 MB.
 */
export const defaultMaxKeys = 100_000;

/**
 * A token bucket per key (a visitor hash, a client address): `burst` reports at once, then one every
 * `refillMs`. Real visitors click a button or two; a script replaying reports is held to a trickle.
 * Memory is bounded whatever the traffic: keys whose bucket has filled up again are dropped, and the map
 * never holds more than `maxKeys` (`defaultMaxKeys` unless given): past it the longest-known keys go first.
 */
export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, otherwise the milliseconds until the next token. */
  take(key: string, now?: number): number;
  /** What take would wait, without taking anything. */
  wait(key: string, now?: number): number;
  /** Keys held now: never more than maxKeys. */
  readonly size: number;
}

export function createRateLimiter({ burst, refillMs, maxKeys = defaultMaxKeys }: { burst: number; refillMs: number; maxKeys?: number }): RateLimiter {
  // Never more than maxKeys entries: take makes room before it adds a key.
  const buckets = new Map<string, { tokens: number; updated: number }>();
  let lastSweep = 0;

  const refilled = (bucket: { tokens: number; updated: number }, now: number) =>
    Math.min(burst, bucket.tokens + (now - bucket.updated) / refillMs);

  const sweep = (now: number) => {
    for (const [key, bucket] of buckets) {
      if (refilled(bucket, now) >= burst) buckets.delete(key);
    }
    lastSweep = now;
  };

  // Full (a flood from many addresses): forget the longest-known hundredth at once. One key at a time would
  // cost far more than it looks: a Map keeps deleted entries as holes until it is rebuilt, and every new
  // iterator walks past all of them, so forgetting keys one by one took 45 µs each past 100,000 keys.
  const forgetBatch = Math.max(1, Math.ceil(maxKeys / 100));
  const forgetOldest = () => {
    let forgotten = 0;
    for (const key of buckets.keys()) {
      buckets.delete(key);
      if ((forgotten += 1) >= forgetBatch) break;
    }
  };

  return {
    take(key, now = Date.now()) {
      if (now - lastSweep > burst * refillMs) sweep(now);
      if (buckets.size >= maxKeys && !buckets.has(key)) forgetOldest();
      const bucket = buckets.get(key) ?? { tokens: burst, updated: now };
      const tokens = refilled(bucket, now);
      if (tokens < 1) return Math.ceil((1 - tokens) * refillMs);
      buckets.set(key, { tokens: tokens - 1, updated: now });
      return 0;
    },
    wait(key, now = Date.now()) {
      const bucket = buckets.get(key);
      const tokens = bucket ? refilled(bucket, now) : burst;
      return tokens < 1 ? Math.ceil((1 - tokens) * refillMs) : 0;
    },
    get size() {
      return buckets.size;
    },
  };
}
