import { daysOf, maxReportDays, reportRange, ReportRangeError } from '../../server/funnelReport/reportRange';

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
