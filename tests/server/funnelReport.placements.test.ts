import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { createClickStore, type Click, type ClickStore } from '../../server/clicks/clickStore';
import { closeDaysAndForget } from '../support/closeDays';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const now = new Date('2026-11-21T15:00:00Z');

describe.each(engines)('readFunnelReport on %s', (engine) => {
  let opened: TestEngineDatabase;
  let store: ClickStore;
  const read = (from: string, to: string) => readFunnelReport(opened.database.db, { from, to });
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

  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    store = createClickStore(opened.database.db);
    await store.record(click('2026-11-20T08:00:00Z', 'hero', 'a', { referrerHost: 'www.google.com' }));
    await store.record(click('2026-11-20T09:00:00Z', 'hero', 'a', { referrerHost: 'www.google.com' }));
    await store.record(click('2026-11-20T10:00:00Z', 'bonus', 'a', { device: 'desktop' }));
    await store.record(click('2026-11-21T10:00:00Z', 'hero', 'b'));
    // Past the retention period: its day closed into daily totals and its raw rows deleted before the report is read.
    await store.record(click('2026-11-01T10:00:00Z', 'explainer', 'c'));
    await store.record(click('2026-11-01T11:00:00Z', 'explainer', 'd'));
    await closeDaysAndForget(opened.database.db, 10, now);
  });
  afterEach(() => opened.close());

  it('counts clicks and unique visitors per placement per day', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.days.map((entry) => entry.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(report.days[0]?.placements.hero).toEqual({ clicks: 2, visitors: 1, conversions: 0, revenue: 0, revenueByCurrency: {} });
    expect(report.days[0]?.placements.bonus).toMatchObject({ clicks: 1, visitors: 1 });
    expect(report.days[0]?.all).toMatchObject({ clicks: 3, visitors: 1 });
    expect(report.days[1]?.placements.hero).toMatchObject({ clicks: 1, visitors: 1 });
  });

  it('totals every placement in page order, zeros included', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.totals).toMatchObject([
      { placement: 'hero', clicks: 3, visitors: 2 },
      { placement: 'explainer', clicks: 0, visitors: 0 },
      { placement: 'start-learning', clicks: 0, visitors: 0 },
      { placement: 'check-auctions-image', clicks: 0, visitors: 0 },
      { placement: 'check-auctions-button', clicks: 0, visitors: 0 },
      { placement: 'bonus', clicks: 1, visitors: 1 },
    ]);
    expect(report.all).toMatchObject({ clicks: 4, visitors: 2 });
  });

  it('reads folded days from the daily totals', async () => {
    const report = await read('2026-11-01', '2026-11-01');
    expect(await opened.database.db.selectFrom('clicks').where('day', '=', '2026-11-01').selectAll().execute()).toEqual([]);
    expect(report.days[0]?.placements.explainer).toMatchObject({ clicks: 2, visitors: 2 });
    expect(report.all).toMatchObject({ clicks: 2, visitors: 2 });
  });

  it('breaks clicks down by device and referring site', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.devices).toEqual([
      { device: 'mobile', clicks: 3 },
      { device: 'desktop', clicks: 1 },
    ]);
    expect(report.referrers).toEqual([
      { host: '', clicks: 2 },
      { host: 'www.google.com', clicks: 2 },
    ]);
  });

  it('keeps clicks of a placement no longer on the page, after the current ones', async () => {
    await store.record(click('2026-11-21T11:00:00Z', 'sidebar', 'e'));
    const report = await read('2026-11-21', '2026-11-21');
    expect(report.totals.at(-1)).toMatchObject({ placement: 'sidebar', clicks: 1, visitors: 1 });
  });
});
