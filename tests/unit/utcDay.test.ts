import fc from 'fast-check';
import { addDays, lastDayOfWeek, splitAtWholeMonths, splitIntoSums, weekOf } from '../../server/lib/utcDay';

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

/** Every day from..to, both included. */
function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

describe('weeks of the month', () => {
  it('are days 1-7, 8-14, 15-21, 22-28 and 29 to the end, named by their first day', () => {
    expect(['2026-03-01', '2026-03-07', '2026-03-08', '2026-03-21', '2026-03-22', '2026-03-28', '2026-03-29', '2026-03-31'].map(weekOf)).toEqual([
      '2026-03-01', '2026-03-01', '2026-03-08', '2026-03-15', '2026-03-22', '2026-03-22', '2026-03-29', '2026-03-29',
    ]);
    expect(lastDayOfWeek('2026-03-29')).toBe('2026-03-31');
    expect(lastDayOfWeek('2024-02-29')).toBe('2024-02-29');
    expect(lastDayOfWeek('2026-02-22')).toBe('2026-02-28');
    expect(lastDayOfWeek('2026-04-08')).toBe('2026-04-14');
  });

  it('hold every day of every month once, in order, each week within its month', () => {
    const weeks = new Map<string, string[]>();
    for (const day of daysFrom('2023-12-25', '2028-03-05')) weeks.set(weekOf(day), [...(weeks.get(weekOf(day)) ?? []), day]);
    for (const [week, days] of weeks) {
      if (days[0] === '2023-12-25' || days.at(-1) === '2028-03-05') continue; // cut by the span tested
      expect(days).toEqual(daysFrom(week, lastDayOfWeek(week)));
      expect(lastDayOfWeek(week).slice(0, 7)).toBe(week.slice(0, 7));
    }
  });
});

describe('splitIntoSums', () => {
  it('takes whole months, whole weeks around them, and the days left', () => {
    expect(splitIntoSums('2026-01-10', '2026-04-17')).toEqual({
      days: [
        { from: '2026-01-10', to: '2026-01-14' },
        { from: '2026-04-15', to: '2026-04-17' },
      ],
      weeks: [
        { first: '2026-01-15', last: '2026-01-29' },
        { first: '2026-04-01', last: '2026-04-08' },
      ],
      months: { first: '2026-02', last: '2026-03' },
    });
    // 30 days to today, none of them a whole month: four weeks and the days around them.
    expect(splitIntoSums('2026-10-29', '2026-11-27', { month: '2026-10', week: '2026-11-15' })).toEqual({
      days: [{ from: '2026-11-22', to: '2026-11-27' }],
      weeks: [{ first: '2026-10-29', last: '2026-11-15' }],
      months: undefined,
    });
    // Nothing summed yet: every day one by one.
    expect(splitIntoSums('2026-10-29', '2026-11-27', { month: '', week: '' })).toEqual({ days: [{ from: '2026-10-29', to: '2026-11-27' }], weeks: [], months: undefined });
  });

  it('covers every day of any range exactly once, and takes nothing whole past the latest given', () => {
    const day = fc.integer({ min: 0, max: 800 }).map((n) => addDays('2025-11-20', n));
    const latest = fc.option(day, { nil: undefined });
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 400 }), latest, latest, (from, length, latestMonthDay, latestWeekDay) => {
        const to = addDays(from, length);
        const caps = { month: latestMonthDay?.slice(0, 7), week: latestWeekDay && weekOf(latestWeekDay) };
        const { days, weeks, months } = splitIntoSums(from, to, caps);
        const covered = [
          ...days.flatMap((span) => daysFrom(span.from, span.to)),
          ...weeks.flatMap((span) => daysFrom(span.first, lastDayOfWeek(span.last))),
          ...(months ? daysFrom(`${months.first}-01`, addDays(`${addMonth(months.last)}-01`, -1)) : []),
        ].sort();
        expect(covered).toEqual(daysFrom(from, to));
        for (const span of days) expect(span.from <= span.to).toBe(true);
        if (caps.month !== undefined && months) expect(months.last <= caps.month).toBe(true);
        if (caps.week !== undefined) for (const span of weeks) expect(span.last <= caps.week).toBe(true);
        for (const span of weeks) expect(weekOf(span.first)).toBe(span.first);
      }),
    );
  });
});

/** The month after a YYYY-MM month. */
const addMonth = (month: string) => addDays(`${month}-28`, 7).slice(0, 7);
