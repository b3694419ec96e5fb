import { isoWeek, lastCompleteWeek, latestSendingTime, scheduledDigestWeek } from '../../server/digest/digestWeek';

describe('isoWeek', () => {
  it.each([
    ['2026-01-01', '2026-W01'],
    ['2025-12-29', '2026-W01'],
    ['2027-01-03', '2026-W53'],
    ['2027-01-04', '2027-W01'],
    ['2026-01-19', '2026-W04'],
    ['2026-01-25', '2026-W04'],
    ['2021-01-03', '2020-W53'],
  ])('%s is in %s', (day, week) => {
    expect(isoWeek(day)).toBe(week);
  });
});

describe('latestSendingTime', () => {
  const monday8 = { day: 1, hour: 8 };
  it('is this week’s moment once it has come', () => {
    expect(latestSendingTime(new Date('2026-01-19T08:00:00Z'), monday8).toISOString()).toBe('2026-01-19T08:00:00.000Z');
    expect(latestSendingTime(new Date('2026-01-22T15:30:00Z'), monday8).toISOString()).toBe('2026-01-19T08:00:00.000Z');
  });
  it('is last week’s until then, even on the day', () => {
    expect(latestSendingTime(new Date('2026-01-19T07:59:59Z'), monday8).toISOString()).toBe('2026-01-12T08:00:00.000Z');
    expect(latestSendingTime(new Date('2026-01-18T23:00:00Z'), monday8).toISOString()).toBe('2026-01-12T08:00:00.000Z');
  });
  it('takes Sunday as day 0, at hour 0 and 23', () => {
    expect(latestSendingTime(new Date('2026-01-25T00:00:00Z'), { day: 0, hour: 0 }).toISOString()).toBe('2026-01-25T00:00:00.000Z');
    expect(latestSendingTime(new Date('2026-01-25T22:00:00Z'), { day: 0, hour: 23 }).toISOString()).toBe('2026-01-18T23:00:00.000Z');
  });
});

describe('scheduledDigestWeek', () => {
  it('reports the seven complete days before the sending day, and the seven before those, under the sending day’s ISO week', () => {
    expect(scheduledDigestWeek(new Date('2026-01-21T10:00:00Z'), { day: 1, hour: 8 })).toEqual({
      period: '2026-W04',
      due: new Date('2026-01-19T08:00:00Z'),
      current: { from: '2026-01-12', to: '2026-01-18' },
      previous: { from: '2026-01-05', to: '2026-01-11' },
    });
  });
  it('sent late in the week, still reports the same days under the same week', () => {
    const onTime = scheduledDigestWeek(new Date('2026-01-19T08:00:00Z'), { day: 1, hour: 8 });
    const late = scheduledDigestWeek(new Date('2026-01-25T23:59:00Z'), { day: 1, hour: 8 });
    expect(late).toEqual(onTime);
  });
});

describe('lastCompleteWeek', () => {
  it('ends yesterday', () => {
    expect(lastCompleteWeek(new Date('2026-03-02T00:30:00Z'))).toMatchObject({ current: { from: '2026-02-23', to: '2026-03-01' }, previous: { from: '2026-02-16', to: '2026-02-22' } });
  });
});
