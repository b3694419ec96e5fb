import { bucketsOf, bucketSizeOf } from '../../server/admin/chartBuckets';
import { addDays } from '../../server/lib/utcDay';

const daysFrom = (from: string, count: number, value: (index: number) => number | null = () => 1) =>
  Array.from({ length: count }, (_, index) => ({ day: addDays(from, index), value: value(index) }));

describe('bucketSizeOf', () => {
  it.each([
    [1, 'day'],
    [92, 'day'],
    [93, 'week'],
    [366, 'week'],
    [367, 'month'],
    [2700, 'month'],
    [2701, 'quarter'],
    [3660, 'quarter'],
  ])('draws %i days a bar a %s', (count, size) => {
    expect(bucketSizeOf(count)).toBe(size);
  });
});

describe('bucketsOf', () => {
  it('adds up each week from Monday to Sunday, the first and last weeks partial', () => {
    // 2026-01-01 is a Thursday; 100 days end on Friday 2026-04-10.
    const { size, buckets } = bucketsOf(daysFrom('2026-01-01', 100));
    expect(size).toBe('week');
    expect(buckets[0]).toEqual({ from: '2026-01-01', to: '2026-01-04', value: 4 });
    expect(buckets[1]).toEqual({ from: '2026-01-05', to: '2026-01-11', value: 7 });
    expect(buckets.at(-1)).toEqual({ from: '2026-04-06', to: '2026-04-10', value: 5 });
    expect(buckets.reduce((sum, bucket) => sum + bucket.value!, 0)).toBe(100);
  });

  it('adds up calendar months, and quarters past 2,700 days, never more than 92 bars', () => {
    const months = bucketsOf(daysFrom('2025-11-15', 400));
    expect(months.size).toBe('month');
    expect(months.buckets[0]).toEqual({ from: '2025-11-15', to: '2025-11-30', value: 16 });
    expect(months.buckets[1]).toEqual({ from: '2025-12-01', to: '2025-12-31', value: 31 });
    const quarters = bucketsOf(daysFrom('2016-02-10', 3660));
    expect(quarters.size).toBe('quarter');
    expect(quarters.buckets[0]).toEqual({ from: '2016-02-10', to: '2016-03-31', value: 51 });
    expect(quarters.buckets[1]).toEqual({ from: '2016-04-01', to: '2016-06-30', value: 91 });
    expect(quarters.buckets.length).toBeLessThanOrEqual(92);
    expect(bucketsOf(daysFrom('2020-01-01', 2700)).buckets.length).toBeLessThanOrEqual(92);
  });

  it('leaves a bar without a known value (no cost recorded) at null, and adds up only known ones', () => {
    const { buckets } = bucketsOf(daysFrom('2026-03-02', 100, (index) => (index < 7 ? null : index === 7 ? 2.5 : null)));
    expect(buckets[0]).toEqual({ from: '2026-03-02', to: '2026-03-08', value: null });
    expect(buckets[1]).toEqual({ from: '2026-03-09', to: '2026-03-15', value: 2.5 });
  });
});
