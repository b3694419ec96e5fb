import fc from 'fast-check';
import { addDays, splitAtWholeMonths } from '../../server/lib/utcDay';

/**
 * splitAtWholeMonths: what the range reads of monthly sums (daily counts, costs, conversions) take whole
 * from their months, and what they read day by day around them.
 */
describe('splitAtWholeMonths', () => {
  it('takes the whole months inside a range and leaves the days around them', () => {
    expect(splitAtWholeMonths('2026-01-15', '2026-04-10')).toEqual({
      before: { from: '2026-01-15', to: '2026-01-31' },
      months: { first: '2026-02', last: '2026-03' },
      after: { from: '2026-04-01', to: '2026-04-10' },
    });
    // A range that starts and ends a month leaves empty spans on either side.
    expect(splitAtWholeMonths('2026-02-01', '2026-02-28')).toEqual({
      before: { from: '2026-02-01', to: '2026-01-31' },
      months: { first: '2026-02', last: '2026-02' },
      after: { from: '2026-03-01', to: '2026-02-28' },
    });
    expect(splitAtWholeMonths('2026-01-02', '2026-02-27')).toBeUndefined();
  });

  it('takes no month past the latest given; its days count after', () => {
    expect(splitAtWholeMonths('2026-01-01', '2026-04-30', '2026-02')).toEqual({
      before: { from: '2026-01-01', to: '2025-12-31' },
      months: { first: '2026-01', last: '2026-02' },
      after: { from: '2026-03-01', to: '2026-04-30' },
    });
    expect(splitAtWholeMonths('2026-03-01', '2026-04-30', '2026-02')).toBeUndefined();
  });

  it('covers every day of any range exactly once', () => {
    const day = fc.integer({ min: 0, max: 800 }).map((n) => addDays('2025-11-20', n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 400 }), fc.option(day.map((d) => d.slice(0, 7)), { nil: undefined }), (from, length, latest) => {
        const to = addDays(from, length);
        const split = splitAtWholeMonths(from, to, latest);
        const covered: string[] = [];
        const daysOf = (first: string, last: string) => {
          for (let d = first; d <= last; d = addDays(d, 1)) covered.push(d);
        };
        if (!split) {
          daysOf(from, to);
        } else {
          daysOf(split.before.from, split.before.to);
          for (let d = `${split.months.first}-01`; d.slice(0, 7) <= split.months.last; d = addDays(d, 1)) covered.push(d);
          daysOf(split.after.from, split.after.to);
          if (latest !== undefined) expect(split.months.last <= latest).toBe(true);
        }
        const expected: string[] = [];
        for (let d = from; d <= to; d = addDays(d, 1)) expected.push(d);
        expect(covered).toEqual(expected);
      }),
    );
  });
});
