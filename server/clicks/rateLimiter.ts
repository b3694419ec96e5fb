/**
 * A token bucket per key (the visitor hash): `burst` reports at once, then one every `refillMs`. Real
 * visitors click a button or two; a script replaying reports is held to a trickle. Keys whose bucket
 * has filled up again are dropped, and past `maxKeys` the oldest go first, so memory stays bounded.
 */
export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, otherwise the milliseconds until the next token. */
  take(key: string, now?: number): number;
  /** What take would wait, without taking anything. */
  wait(key: string, now?: number): number;
  readonly size: number;
}

export function createRateLimiter({ burst, refillMs, maxKeys = 100_000 }: { burst: number; refillMs: number; maxKeys?: number }): RateLimiter {
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

  return {
    take(key, now = Date.now()) {
      if (now - lastSweep > burst * refillMs) sweep(now);
      // Full (a flood from many addresses): forget the longest-known key, in constant time.
      if (buckets.size >= maxKeys && !buckets.has(key)) buckets.delete(buckets.keys().next().value!);
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
