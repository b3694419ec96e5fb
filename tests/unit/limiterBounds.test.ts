import { addressRateLimit, visitorRateLimit } from '../../server/clicks/clickRoute';
import { createRateLimiter, defaultMaxKeys } from '../../server/limits/rateLimiter';
import { viewAddressRateLimit, viewVisitorRateLimit } from '../../server/views/viewRoute';
import { createWrongSecretThrottle, defaultMaxAddresses } from '../../server/limits/wrongSecretThrottle';

/**
 * Every map the serving process keeps per address or per visitor, made as server/app.ts, the admin gate
 * and /api/conversions make them, driven by a flood of distinct keys: none ever holds more than its bound.
 */
const flood = 500_000;
/** 20,000 distinct keys a second: far more than the sweep of refilled buckets can keep up with, so the bound is what holds. */
const msPerKey = 0.05;

const limiters = [
  ['clicks per visitor', visitorRateLimit],
  ['clicks per address', addressRateLimit],
  ['views per visitor', viewVisitorRateLimit],
  ['views per address', viewAddressRateLimit],
] as const;

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

  it(`holds at most ${defaultMaxAddresses.toLocaleString('en')} addresses in a wrong-secret throttle (/admin, /api/conversions), through ${flood.toLocaleString('en')} distinct ones`, () => {
    let clock = 0;
    const throttle = createWrongSecretThrottle({ now: () => clock });
    let largest = 0;
    for (let i = 0; i < flood; i += 1) {
      clock = i * msPerKey;
      throttle.fail(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::/64`);
      largest = Math.max(largest, throttle.size);
    }
    expect(largest).toBe(defaultMaxAddresses);
  });
});
