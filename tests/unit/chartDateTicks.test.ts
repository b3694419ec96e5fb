import fc from 'fast-check';
import { bucketSizeOf } from '../../server/admin/chartBuckets';
import { dateTickLabel, dateTicksFor, mostDateTicks, type TickInterval } from '../../server/admin/chartDateTicks';
import { addDays, dayMs, dayStart } from '../../server/lib/utcDay';

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();
const month = (day: string) => Number(day.slice(5, 7));

/** What a tick of each interval must be. */
const isRoundFor: Record<TickInterval, (day: string) => boolean> = {
  day: () => true,
  week: (day) => weekday(day) === 1,
  '2 weeks': (day) => weekday(day) === 1,
  month: (day) => day.endsWith('-01'),
  '2 months': (day) => day.endsWith('-01') && month(day) % 2 === 1,
  quarter: (day) => day.endsWith('-01') && [1, 4, 7, 10].includes(month(day)),
  'half-year': (day) => day.endsWith('-01') && [1, 7].includes(month(day)),
  year: (day) => day.endsWith('-01-01'),
  '2 years': (day) => day.endsWith('-01-01') && Number(day.slice(0, 4)) % 2 === 0,
};
const intervalDays: Record<TickInterval, number> = { day: 1, week: 7, '2 weeks': 14, month: 28, '2 months': 59, quarter: 90, 'half-year': 181, year: 365, '2 years': 730 };
const barDays = { day: 1, week: 7, month: 28, quarter: 90 };

describe('dateTicksFor', () => {
  it.each([
    ['2026-11-22', '2026-11-28', 'day', ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']],
    ['2026-10-30', '2026-11-28', 'week', ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']],
    ['2026-08-31', '2026-11-28', '2 weeks', ['2026-08-31', '2026-09-14', '2026-09-28', '2026-10-12', '2026-10-26', '2026-11-09', '2026-11-23']],
    ['2026-06-01', '2026-11-28', 'month', ['2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01']],
    ['2025-11-29', '2026-11-28', '2 months', ['2026-01-01', '2026-03-01', '2026-05-01', '2026-07-01', '2026-09-01', '2026-11-01']],
    ['2016-12-01', '2026-11-28', '2 years', ['2018-01-01', '2020-01-01', '2022-01-01', '2024-01-01', '2026-01-01']],
  ])('ticks %s to %s every %s', (from, to, interval, days) => {
    const length = (dayStart(to) - dayStart(from)) / dayMs + 1;
    expect(dateTicksFor(from, to, bucketSizeOf(length))).toEqual({ interval, days });
  });

  it('ticks at round dates, at most seven, never finer than the bars, and enough to read a range by', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 365 * 30 }), fc.integer({ min: 1, max: 3660 }), (offset, length) => {
        const from = addDays('2000-01-01', offset);
        const to = addDays(from, length - 1);
        const bars = bucketSizeOf(length);
        const { interval, days } = dateTicksFor(from, to, bars);
        expect(days.length).toBeLessThanOrEqual(mostDateTicks);
        if (length >= 7) expect(days.length).toBeGreaterThanOrEqual(1);
        if (length >= 14) expect(days.length).toBeGreaterThanOrEqual(2);
        expect(intervalDays[interval]).toBeGreaterThanOrEqual(barDays[bars]);
        expect([...days].sort()).toEqual(days);
        for (const day of days) {
          expect(day >= from && day <= to).toBe(true);
          expect(isRoundFor[interval](day)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('dateTickLabel', () => {
  it.each([
    ['2026-11-03', 'day', 'Nov 3'],
    ['2026-11-02', 'week', 'Nov 2'],
    ['2026-03-01', 'month', 'Mar'],
    ['2026-01-01', 'quarter', 'Jan 2026'],
    ['2026-01-01', '2 years', '2026'],
  ] as const)('labels %s ticked every %s "%s"', (day, interval, label) => {
    expect(dateTickLabel(day, interval)).toBe(label);
  });
});
