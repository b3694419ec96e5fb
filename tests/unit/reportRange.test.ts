import fc from 'fast-check';
import { isDay } from '../../server/lib/utcDay';
import { daysOf, firstReportDay, lastReportDay, maxReportDays, reportRange, ReportRangeError } from '../../server/dayCounts/reportRange';
import { processCpuMs } from '../support/workTime';

const now = new Date('2026-11-21T15:00:00Z');

describe('reportRange', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(reportRange({}, now)).toEqual({ from: '2026-10-23', to: '2026-11-21' });
  });

  it('takes --days, --from and --to in any sensible combination', () => {
    expect(reportRange({ days: 7 }, now)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(reportRange({ from: '2026-01-01', to: '2026-01-31' }, now)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(reportRange({ from: '2026-02-20', days: 10 }, now)).toEqual({ from: '2026-02-20', to: '2026-03-01' });
    expect(reportRange({ to: '2026-03-01', days: 1 }, now)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
  });

  it.each([
    [{ from: '2026-02-30' }, /from must be a date/],
    [{ to: 'yesterday' }, /to must be a date/],
    [{ days: 0 }, /days must be a whole number/],
    [{ days: 2.5 }, /days must be a whole number/],
    [{ from: '2026-03-02', to: '2026-03-01' }, /must not be after/],
    [{ from: '2000-01-01', to: '2026-01-01' }, /at most 3660 days/],
    [{ to: '9999-12-31' }, /to must be a date from 2000-01-01 to 2100-12-31/],
    [{ from: '1999-12-31' }, /from must be a date from 2000-01-01/],
    [{ from: '2100-12-31', days: 2 }, /covers days from 2000-01-01 to 2100-12-31, not 2100-12-31 to 2101-01-01/],
    [{ to: '2000-01-01', days: 2 }, /not 1999-12-31 to 2000-01-01/],
  ])('rejects %j', (options, message) => {
    expect(() => reportRange(options, now)).toThrow(ReportRangeError);
    expect(() => reportRange(options, now)).toThrow(message);
  });
});

describe('daysOf', () => {
  it('lists every day of a range, across a leap day', () => {
    expect(daysOf({ from: '2028-02-28', to: '2028-03-01' })).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });

  it('stops at maxReportDays whatever the range says', () => {
    expect(daysOf({ from: '2000-01-01', to: '2100-12-31' })).toHaveLength(maxReportDays);
  });
});

/**
 * Properties of hostile input: fast-check draws options and clocks, and on a failure prints the seed and
 * path of the smallest failing case (`{ seed: 1234, path: "17:3" }`); pass them as fc.assert's second
 * argument, with numRuns, to replay exactly that case.
 */
describe('reportRange on anything thrown at it', () => {
  const dayOf = (at: Date) => at.toISOString().slice(0, 10);
  /**
   * Calendar days near and across both ends of the span (most often, so that about one case in eight is a
   * range that can be shown), days of any year, every year's 29 February, days no calendar has, and text.
   */
  const dayLike = fc.oneof(
    { arbitrary: fc.date({ min: new Date('1999-01-01T00:00:00Z'), max: new Date('2101-12-31T23:59:59Z'), noInvalidDate: true }).map(dayOf), weight: 12 },
    fc.date({ noInvalidDate: true }).map(dayOf),
    fc.integer({ min: 1990, max: 2110 }).map((year) => `${year}-02-29`),
    fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })).map(
      ([year, month, day]) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    ),
    fc.constantFrom(firstReportDay, lastReportDay, '1999-12-31', '2101-01-01', '9999-12-31', '0000-01-01', '+010000-01-01', '-000001-12-31', '2026-1-1', ' 2026-01-01', '2026-01-01\n', '2026-01-01T00:00:00Z', '２０２６-01-01', ''),
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const dayCount = fc.oneof(
    { arbitrary: fc.integer({ min: -2, max: maxReportDays + 2 }), weight: 6 },
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0.5, 1e308, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, maxReportDays, maxReportDays + 1),
  );
  const options = fc.record({ days: dayCount, from: dayLike, to: dayLike }, { requiredKeys: [] });
  const clock = fc.oneof(
    fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59.999Z'), noInvalidDate: true }),
    fc.date({ noInvalidDate: true }),
  );
  // The bound for every answer, on the CPU time it costs (a busy machine's waits are not the code's); a full
  // 3,660-day range takes a few milliseconds, so only a loop without end (or near it) fails.
  const quickMs = 1000;

  it('returns a range inside the span, from <= to, at most maxReportDays long, or throws ReportRangeError; and quickly', () => {
    fc.assert(
      fc.property(options, clock, (asked, now) => {
        const started = processCpuMs();
        let range;
        try {
          range = reportRange(asked, now);
        } catch (error) {
          expect(error).toBeInstanceOf(ReportRangeError);
          expect(processCpuMs() - started).toBeLessThan(quickMs);
          return;
        }
        expect(processCpuMs() - started).toBeLessThan(quickMs);
        expect(Object.keys(range).sort()).toEqual(['from', 'to']);
        expect(isDay(range.from) && isDay(range.to)).toBe(true);
        expect(range.from <= range.to).toBe(true);
        expect(range.from >= firstReportDay && range.to <= lastReportDay).toBe(true);
        expect(daysOf(range).length).toBeLessThanOrEqual(maxReportDays);
        expect(daysOf(range)).toHaveLength((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1);
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the very days it was asked for whenever it returns a range', () => {
    fc.assert(
      fc.property(options, clock, (asked, now) => {
        let range;
        try {
          range = reportRange(asked, now);
        } catch {
          return;
        }
        if (asked.from !== undefined) expect(range.from).toBe(asked.from);
        if (asked.to !== undefined) expect(range.to).toBe(asked.to);
        if (asked.from === undefined && asked.to === undefined) expect(range.to).toBe(dayOf(now));
        if (asked.from === undefined || asked.to === undefined) expect(daysOf(range)).toHaveLength(asked.days ?? 30);
      }),
      { numRuns: 1500 },
    );
  });

  it('accepts every range of 1 to maxReportDays days inside the span', () => {
    const spanDays = (Date.parse(lastReportDay) - Date.parse(firstReportDay)) / 86_400_000;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: spanDays }), fc.integer({ min: 1, max: maxReportDays }), (offset, days) => {
        const from = dayOf(new Date(Date.parse(firstReportDay) + offset * 86_400_000));
        const to = dayOf(new Date(Math.min(Date.parse(from) + (days - 1) * 86_400_000, Date.parse(lastReportDay))));
        expect(reportRange({ from, to }, now)).toEqual({ from, to });
        expect(reportRange({ from, days: daysOf({ from, to }).length }, now)).toEqual({ from, to });
      }),
      { numRuns: 200 },
    );
  });
});

describe('daysOf on any two days', () => {
  it('lists at most maxReportDays days and ends, even for days outside the span (9999-12-31 is followed by +010000-01-01)', () => {
    const anyDay = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((at) => at.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.oneof(anyDay, fc.constant('9999-12-25')), fc.oneof(anyDay, fc.constant('9999-12-31')), (from, to) => {
        const started = processCpuMs();
        expect(daysOf({ from, to }).length).toBeLessThanOrEqual(maxReportDays);
        expect(processCpuMs() - started).toBeLessThan(1000);
      }),
      { numRuns: 300 },
    );
  });
});
