import fc from 'fast-check';
import { bucketQuantile, engagedBucket, engagedBuckets, joinedValue, leaveValues, valueParts, type LeaveRow } from '../../server/dayCounts/leaveDimensions';
import { leaveBeaconLimits } from '../../shared/leaveBeacon';

const row: LeaveRow = { day: '2026-11-20', visitor: 'v', page: '/', variants: 'hero-words:b,cta:a', sections: 'hero what-is', seen: 'hero bonus', clicked: 'bonus', engaged_seconds: 47 };

describe('the leave dimensions', () => {
  it('count a report under its page, sections, seen placements (a followed one as a click too), bucket and variants', () => {
    expect(leaveValues('left', row)).toEqual([['/', false]]);
    expect(leaveValues('reached', row)).toEqual([[joinedValue('/', 'hero'), false], [joinedValue('/', 'what-is'), false]]);
    expect(leaveValues('seen', row)).toEqual([['hero', false], ['bonus', true]]);
    expect(leaveValues('engaged', row)).toEqual([[joinedValue('/', '40'), false]]);
    expect(leaveValues('variantSeen', row)).toEqual([
      [joinedValue('hero-words:b', ''), false],
      [joinedValue('hero-words:b', 'hero'), false],
      [joinedValue('hero-words:b', 'bonus'), true],
      [joinedValue('cta:a', ''), false],
      [joinedValue('cta:a', 'hero'), false],
      [joinedValue('cta:a', 'bonus'), true],
    ]);
  });

  it('count a report that reached and saw nothing under its page and bucket only, and outside experiments under no variant', () => {
    const bare = { ...row, variants: '', sections: '', seen: '', clicked: '', engaged_seconds: 0 };
    expect(leaveValues('reached', bare)).toEqual([]);
    expect(leaveValues('seen', bare)).toEqual([]);
    expect(leaveValues('variantSeen', bare)).toEqual([]);
    expect(leaveValues('engaged', bare)).toEqual([[joinedValue('/', '0'), false]]);
  });

  it('split a joined value back into its parts', () => {
    expect(valueParts(joinedValue('/', 'faq'))).toEqual(['/', 'faq']);
    expect(valueParts(joinedValue('hero-words:b', ''))).toEqual(['hero-words:b', '']);
  });

  it('put every engaged time from none to the cap in the last bucket at or below it', () => {
    expect(engagedBuckets.at(-1)).toBe(leaveBeaconLimits.maxEngagedSeconds);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: leaveBeaconLimits.maxEngagedSeconds }), (seconds) => {
        const bucket = engagedBucket(seconds);
        const next = engagedBuckets[engagedBuckets.indexOf(bucket as never) + 1];
        expect(bucket).toBeLessThanOrEqual(seconds);
        if (next !== undefined) expect(seconds).toBeLessThan(next);
      }),
    );
  });
});

describe('a quantile read from buckets', () => {
  it('is null without reports', () => {
    expect(bucketQuantile(new Map(), 0.5)).toBeNull();
  });

  it('falls within the bucket of the true quantile, whatever the times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: leaveBeaconLimits.maxEngagedSeconds }), { minLength: 1, maxLength: 500 }), fc.constantFrom(0.5, 0.75), (times, q) => {
        const counts = new Map<number, number>();
        for (const time of times) counts.set(engagedBucket(time), (counts.get(engagedBucket(time)) ?? 0) + 1);
        const sorted = times.toSorted((a, b) => a - b);
        const truth = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
        const bucket = engagedBucket(truth);
        const end = engagedBuckets[engagedBuckets.indexOf(bucket as never) + 1] ?? bucket;
        const read = bucketQuantile(counts, q)!;
        expect(read).toBeGreaterThanOrEqual(bucket);
        expect(read).toBeLessThanOrEqual(end);
      }),
    );
  });
});
