import fc from 'fast-check';
import { DistinctCount, exactLimit, hash32, standardError, valuePrecision, wholePrecision } from '../../server/dayCounts/distinctCount';
import { maxValuesTallied, Tallies, type RawRow } from '../../server/dayCounts/rawDayCounts';
import { maxValuesPerDay, othersValue } from '../../server/dayCounts/dimensions';

const counted = (visitors: Iterable<string>, precision?: number) => {
  const count = new DistinctCount(precision);
  for (const visitor of visitors) count.add(visitor);
  return count;
};

/** Visitor hashes as the site writes them: 22 characters of base64url. */
const visitor = (n: number) => Buffer.from(`visitor ${n} of a day`).toString('base64url').slice(-22);
const visitors = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => visitor(from + index));

describe('DistinctCount', () => {
  it('counts up to exactLimit distinct visitors exactly (as their 32-bit hashes tell them apart), however often each comes', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 24 }), { maxLength: exactLimit }), fc.nat({ max: 3 }), (names, repeats) => {
        const count = counted(Array.from({ length: repeats + 1 }, () => names).flat());
        expect(count.count).toBe(new Set(names.map(hash32)).size);
      }),
    );
  });

  it.each([
    [valuePrecision, 1_000],
    [valuePrecision, 20_000],
    [valuePrecision, 300_000],
    [wholePrecision, 300_000],
  ])('estimates within 3 standard errors past it (precision %i, %i visitors)', (precision, n) => {
    const estimate = counted(visitors(0, n), precision).count;
    expect(Math.abs(estimate - n) / n).toBeLessThan(3 * standardError(precision));
  });

  it('holds at most 2^precision bytes, whatever it counts', () => {
    expect(counted(visitors(0, 50)).bytes).toBeLessThanOrEqual(exactLimit * 4);
    expect(counted(visitors(0, 20_000)).bytes).toBe(2 ** valuePrecision);
    expect(counted(visitors(0, 20_000), wholePrecision).bytes).toBe(2 ** wholePrecision);
  });

  it('merges as a union: a visitor in both counts once, the same as counting both lists in one', () => {
    fc.assert(
      fc.property(fc.nat({ max: 3000 }), fc.nat({ max: 3000 }), fc.nat({ max: 3000 }), (a, shared, b) => {
        const one = counted(visitors(0, a + shared));
        const two = counted(visitors(a, a + shared + b));
        expect(one.countWith(two)).toBe(counted([...visitors(0, a + shared), ...visitors(a, a + shared + b)]).count);
        expect(two.countWith(one)).toBe(one.countWith(two));
      }),
      { numRuns: 40 },
    );
  });

  it('refuses to merge counts of two precisions', () => {
    expect(() => counted(['a']).countWith(counted(['b'], wholePrecision))).toThrow(RangeError);
  });
});

const row = (fields: Partial<RawRow>): RawRow => ({ day: '2026-11-20', visitor: 'v', source: null, page: '/', device: 'mobile', referrer_host: null, variants: '', ...fields });

describe('Tallies of a day flooded with made-up values', () => {
  it(`keeps ${maxValuesTallied.toLocaleString('en')} values of a dimension apart, and counts the rest among the others with how many there were`, () => {
    const tallies = new Tallies();
    const sources = 30_000;
    // Two real sources, busy from the start (100 visitors each: counted exactly); then a flood of sources seen once each.
    for (let n = 0; n < 200; n++) tallies.add(row({ visitor: visitor(n), source: n % 2 === 0 ? 'google' : 'newsletter' }), 'view');
    for (let n = 0; n < sources; n++) tallies.add(row({ visitor: visitor(1000 + n), source: `made-up-${n}` }), 'view');
    const day = tallies.counts().get('source')!;
    expect(day).toHaveLength(maxValuesPerDay + 1);
    expect(day.slice(0, 2).map((one) => [one.value, one.views, one.visitors])).toEqual([
      ['google', 100, 100],
      ['newsletter', 100, 100],
    ]);
    const others = day.at(-1)!;
    expect(others.value).toBe(othersValue);
    expect(others.views).toBe(sources - (maxValuesPerDay - 2));
    // The values past those kept apart are a count too: within 3 standard errors of how many there were.
    expect(Math.abs(others.distinctValues - (sources - (maxValuesPerDay - 2))) / sources).toBeLessThan(3 * standardError(valuePrecision));
    const all = tallies.counts().get('all')!;
    expect(all[0]).toMatchObject({ views: 200 + sources });
    expect(Math.abs(all[0]!.visitors - (200 + sources)) / (200 + sources)).toBeLessThan(3 * standardError(wholePrecision));
  });
});
