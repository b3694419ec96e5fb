import { addressRateLimit, visitorRateLimit } from '../../server/clicks/clickRoute';
import { createRateLimiter, defaultMaxKeys } from '../../server/limits/rateLimiter';
import { viewAddressRateLimit, viewVisitorRateLimit } from '../../server/views/viewRoute';
import { flood, msPerKey } from '../support/keyFlood';

describe('createRateLimiter', () => {
  it('tells the wait without taking a token', () => {
    const limiter = createRateLimiter({ burst: 1, refillMs: 1000 });
    expect(limiter.wait('a', 0)).toBe(0);
    expect(limiter.wait('a', 0)).toBe(0);
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.wait('a', 250)).toBe(750);
    expect(limiter.take('a', 1000)).toBe(0);
  });

  it('allows a burst, then refuses with the wait until the next token', () => {
    const limiter = createRateLimiter({ burst: 3, refillMs: 1000 });
    expect([limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0)]).toEqual([0, 0, 0]);
    expect(limiter.take('a', 0)).toBe(1000);
    expect(limiter.take('a', 400)).toBe(600);
  });

  it('refills over time and keeps keys apart', () => {
    const limiter = createRateLimiter({ burst: 1, refillMs: 1000 });
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.take('b', 0)).toBe(0);
    expect(limiter.take('a', 500)).toBeGreaterThan(0);
    expect(limiter.take('a', 1000)).toBe(0);
  });

  it('never holds more than maxKeys visitors, forgetting the oldest first', () => {
    const limiter = createRateLimiter({ burst: 2, refillMs: 1000, maxKeys: 10 });
    for (let i = 0; i < 50; i += 1) limiter.take(`visitor-${i}`, 0);
    expect(limiter.size).toBe(10);
  });

  it('forgets visitors whose bucket has filled up again, so memory stays bounded', () => {
    const limiter = createRateLimiter({ burst: 2, refillMs: 1000 });
    for (let i = 0; i < 100; i += 1) limiter.take(`visitor-${i}`, 0);
    expect(limiter.size).toBe(100);
    limiter.take('late', 10_000);
    expect(limiter.size).toBe(1);
  });
});

const limiters = [
  ['clicks per visitor', visitorRateLimit],
  ['clicks per address', addressRateLimit],
  ['views per visitor', viewVisitorRateLimit],
  ['views per address', viewAddressRateLimit],
] as const;

/** The limiters as server/app.ts makes them for the beacons, driven by a flood of distinct keys: none ever holds more than its bound. */
describe('the bounds of the limiters', () => {
  it.each(limiters)(`holds at most ${defaultMaxKeys.toLocaleString('en')} keys limiting %s, through ${flood.toLocaleString('en')} distinct ones`, (_name, limit) => {
    const limiter = createRateLimiter(limit);
    let largest = 0;
    let refused = 0;
    for (let i = 0; i < flood; i += 1) {
      if (limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, i * msPerKey) > 0) refused += 1;
      largest = Math.max(largest, limiter.size);
    }
    expect(largest).toBe(defaultMaxKeys);
    // Each key is new, so each has its whole burst: forgetting old keys never refuses a new one.
    expect(refused).toBe(0);
  });
});
