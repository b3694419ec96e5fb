import { readClickStats, reportRange, ReportRangeError } from '../../server/clicks/clickStats';
import { openClickStore, type Click, type ClickStore } from '../../server/clicks/clickStore';
import { formatStatsCsv, formatStatsJson, formatStatsTable } from '../../server/clicks/formatStats';

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
    [{ from: '1990-01-01', to: '2026-01-01' }, /at most/],
  ])('rejects %j', (options, message) => {
    expect(() => reportRange(options, now)).toThrow(ReportRangeError);
    expect(() => reportRange(options, now)).toThrow(message);
  });
});

describe('readClickStats', () => {
  let store: ClickStore;
  const click = (at: string, placement: string, visitor: string, extra: Partial<Click> = {}): Click => ({
    at: new Date(at),
    placement,
    page: '/',
    referrerHost: null,
    device: 'mobile',
    visitor,
    via: 'beacon',
    ...extra,
  });

  beforeEach(() => {
    store = openClickStore({ dbPath: ':memory:', retentionDays: 10 }, new Date('2026-01-01T00:00:00Z'));
    store.record(click('2026-11-20T08:00:00Z', 'hero', 'a', { referrerHost: 'www.google.com' }));
    store.record(click('2026-11-20T09:00:00Z', 'hero', 'a', { referrerHost: 'www.google.com' }));
    store.record(click('2026-11-20T10:00:00Z', 'bonus', 'a', { device: 'desktop' }));
    store.record(click('2026-11-21T10:00:00Z', 'hero', 'b'));
    // Past the retention period: folded into daily totals before the report is read.
    store.record(click('2026-11-01T10:00:00Z', 'explainer', 'c'));
    store.record(click('2026-11-01T11:00:00Z', 'explainer', 'd'));
    store.foldOldClicks(now);
  });
  afterEach(() => store.close());

  it('counts clicks and unique visitors per placement per day', () => {
    const report = readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' });
    expect(report.days.map((entry) => entry.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(report.days[0]?.placements.hero).toEqual({ clicks: 2, visitors: 1 });
    expect(report.days[0]?.placements.bonus).toEqual({ clicks: 1, visitors: 1 });
    expect(report.days[0]?.all).toEqual({ clicks: 3, visitors: 1 });
    expect(report.days[1]?.placements.hero).toEqual({ clicks: 1, visitors: 1 });
  });

  it('totals every placement in page order, zeros included', () => {
    const report = readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' });
    expect(report.totals).toEqual([
      { placement: 'hero', clicks: 3, visitors: 2 },
      { placement: 'explainer', clicks: 0, visitors: 0 },
      { placement: 'start-learning', clicks: 0, visitors: 0 },
      { placement: 'check-auctions-image', clicks: 0, visitors: 0 },
      { placement: 'check-auctions-button', clicks: 0, visitors: 0 },
      { placement: 'bonus', clicks: 1, visitors: 1 },
    ]);
    expect(report.all).toEqual({ clicks: 4, visitors: 2 });
  });

  it('reads folded days from the daily totals', () => {
    const report = readClickStats(store.db, { from: '2026-11-01', to: '2026-11-01' });
    expect(store.db.prepare("SELECT count(*) AS n FROM clicks WHERE day = '2026-11-01'").get()).toEqual({ n: 0 });
    expect(report.days[0]?.placements.explainer).toEqual({ clicks: 2, visitors: 2 });
    expect(report.all).toEqual({ clicks: 2, visitors: 2 });
  });

  it('breaks raw clicks down by device and referring site', () => {
    const report = readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' });
    expect(report.devices).toEqual([
      { device: 'mobile', clicks: 3 },
      { device: 'desktop', clicks: 1 },
    ]);
    expect(report.referrers).toEqual([
      { host: '', clicks: 2 },
      { host: 'www.google.com', clicks: 2 },
    ]);
  });

  it('keeps clicks of a placement no longer on the page, after the current ones', () => {
    store.record(click('2026-11-21T11:00:00Z', 'sidebar', 'e'));
    const report = readClickStats(store.db, { from: '2026-11-21', to: '2026-11-21' });
    expect(report.totals.at(-1)).toEqual({ placement: 'sidebar', clicks: 1, visitors: 1 });
  });

  describe('formats', () => {
    it('prints a readable table: per day per placement, then totals with shares', () => {
      const text = formatStatsTable(readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' }));
      expect(text).toContain('Affiliate clicks, 2026-11-20 to 2026-11-21 (UTC, 2 days)');
      expect(text).toMatch(/^2026-11-21 {2}hero +1 +1$/m);
      expect(text).toMatch(/^2026-11-20 {2}hero +2 +1$/m);
      expect(text).toMatch(/^ {12}bonus +1 +1$/m);
      expect(text).toMatch(/^hero +3 +2 +75%$/m);
      expect(text).toMatch(/^all placements +4 +2 +100%$/m);
    });

    it('says so when there are no clicks', () => {
      expect(formatStatsTable(readClickStats(store.db, { from: '2025-01-01', to: '2025-01-02' }))).toContain('No clicks in this range.');
    });

    it('exports CSV with a row per day and placement', () => {
      const csv = formatStatsCsv(readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' })).trim().split('\n');
      expect(csv[0]).toBe('day,placement,clicks,visitors');
      expect(csv).toHaveLength(1 + 2 * 6);
      expect(csv).toContain('2026-11-20,hero,2,1');
      expect(csv).toContain('2026-11-21,bonus,0,0');
    });

    it('exports JSON that parses back to the report', () => {
      const report = readClickStats(store.db, { from: '2026-11-20', to: '2026-11-21' });
      expect(JSON.parse(formatStatsJson(report))).toEqual(report);
    });
  });
});
