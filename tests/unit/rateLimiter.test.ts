import fc from 'fast-check';
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

  it('forgets a key within two refills of its last report, but not while its bucket is still filling', () => {
    const limiter = createRateLimiter({ burst: 3, refillMs: 1000 });
    limiter.take('once', 0);
    limiter.take('thrice', 0);
    limiter.take('thrice', 0);
    limiter.take('thrice', 0);
    limiter.take('other', 1_999);
    // 'once' was full at 1,000 and is gone by 2,000; 'thrice' is full only at 3,000 and keeps its wait.
    limiter.take('other', 2_000);
    expect(limiter.size).toBe(2);
    expect([limiter.take('thrice', 2_000), limiter.take('thrice', 2_000), limiter.take('thrice', 2_000)]).toEqual([0, 0, 1000]);
    limiter.take('other', 6_000);
    expect(limiter.size).toBe(1);
  });

  it('gives every answer an exact token count would, whatever it forgets', () => {
    // The model: each key's tokens × refillMs, in integers, refilled by the milliseconds passed, never forgotten.
    const step = fc.record({ key: fc.integer({ min: 0, max: 5 }), advance: fc.integer({ min: 0, max: 3_000 }), look: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2_000 }), fc.array(step, { maxLength: 200 }), (burst, refillMs, steps) => {
        const limiter = createRateLimiter({ burst, refillMs, maxKeys: 6 });
        const scaled = new Map<number, { tokens: number; at: number }>();
        let now = 1_700_000_000_000;
        for (const { key, advance, look } of steps) {
          now += advance;
          const bucket = scaled.get(key) ?? { tokens: burst * refillMs, at: now };
          const tokens = Math.min(burst * refillMs, bucket.tokens + (now - bucket.at));
          const expected = tokens >= refillMs ? 0 : refillMs - tokens;
          if (look) {
            expect(limiter.wait(`k${key}`, now)).toBe(expected);
            continue;
          }
          expect(limiter.take(`k${key}`, now)).toBe(expected);
          scaled.set(key, { tokens: expected === 0 ? tokens - refillMs : tokens, at: now });
        }
        // Whatever is held is a key whose bucket is not full yet, or one whose slot has not ended.
        expect(limiter.size).toBeLessThanOrEqual(6);
      }),
      { numRuns: 500 },
    );
  });

  it('holds a steady flood of new addresses to what two refills bring, not all it has sent', () => {
    // The views' address limit, 1,400 new addresses a second (the 256 MB test's pace) for ten minutes.
    const limiter = createRateLimiter(viewAddressRateLimit);
    const perSecond = 1_400;
    let largest = 0;
    for (let i = 0; i < perSecond * 600; i += 1) {
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, Math.floor((i * 1000) / perSecond));
      largest = Math.max(largest, limiter.size);
    }
    expect(largest).toBeLessThanOrEqual((2 * perSecond * viewAddressRateLimit.refillMs) / 1000 + 1);
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
    let mostScheduled = 0;
    let refused = 0;
    for (let i = 0; i < flood; i += 1) {
      if (limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, i * msPerKey) > 0) refused += 1;
      largest = Math.max(largest, limiter.size);
      mostScheduled = Math.max(mostScheduled, limiter.scheduled);
    }
    expect(largest).toBe(defaultMaxKeys);
    // The keys waiting for their slot, the forgotten ones among them, are bounded too.
    expect(mostScheduled).toBeLessThanOrEqual(2 * defaultMaxKeys);
    // Each key is new, so each has its whole burst: forgetting old keys never refuses a new one.
    expect(refused).toBe(0);
  });
});
