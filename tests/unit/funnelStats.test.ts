import { readFunnelReport, type FunnelReport } from '../../server/funnelReport/funnelReport';
import { createClickStore, type Click, type ClickStore } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore, type ConversionStore } from '../../server/conversions/conversionStore';
import { createViewStore, type View, type ViewStore } from '../../server/views/viewStore';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { closeDaysAndForget } from '../support/closeDays';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

const now = new Date('2026-11-21T15:00:00Z');

function conversion(fields: ConversionFields) {
  const parsed = parseConversion(fields);
  if (parsed.error) throw new Error(parsed.error.message);
  return parsed.report;
}

/** Each source's figures summed over the days' source rows are the range's figures of that source. */
function expectDaysToAddUp(report: FunnelReport): void {
  const summed = new Map<string, { visitors: number; clicks: number; clickers: number; conversions: number }>();
  for (const row of report.days.flatMap((entry) => entry.sources)) {
    const total = summed.get(row.source) ?? { visitors: 0, clicks: 0, clickers: 0, conversions: 0 };
    summed.set(row.source, { visitors: total.visitors + row.visitors, clicks: total.clicks + row.clicks, clickers: total.clickers + row.clickers, conversions: total.conversions + row.conversions });
  }
  expect(Object.fromEntries(summed)).toEqual(
    Object.fromEntries(report.sources.map(({ source, visitors, clicks, clickers, conversions }) => [source, { visitors, clicks, clickers, conversions }])),
  );
}

describe.each(engines)('the funnel in readFunnelReport on %s', (engine) => {
  let opened: TestEngineDatabase;
  let clicks: ClickStore;
  let views: ViewStore;
  let conversions: ConversionStore;
  const read = (from: string, to: string) => readFunnelReport(opened.database.db, { from, to });

  const view = (at: string, visitor: string, source: string | null, page = '/') =>
    views.record({ at: new Date(at), page, referrerHost: null, source, medium: null, campaign: null, device: 'mobile', visitor } satisfies View);
  /** Records a click with a fresh click ID and resolves to that ID, for the conversion that names it. */
  async function click(at: string, placement: AffiliatePlacement, visitor: string, source: string | null): Promise<string> {
    const clickId = newClickId(placement);
    await clicks.record({ at: new Date(at), placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId, source } satisfies Click);
    return clickId;
  }
  const sale = (at: string, fields: ConversionFields) => conversions.record(conversion(fields), 'postback', new Date(at));

  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    clicks = createClickStore(opened.database.db);
    views = createViewStore(opened.database.db);
    conversions = createConversionStore(opened.database.db);
  });
  afterEach(() => opened.close());

  describe('over two recent days', () => {
    beforeEach(async () => {
      await view('2026-11-20T08:00:00Z', 'a', 'newsletter');
      await view('2026-11-20T08:01:00Z', 'a', 'newsletter', '/about-us');
      await view('2026-11-20T09:00:00Z', 'b', 'google.com');
      await view('2026-11-20T10:00:00Z', 'c', 'direct');
      await view('2026-11-21T08:00:00Z', 'd', 'newsletter');
      const heroOfA = await click('2026-11-20T08:02:00Z', 'hero', 'a', 'newsletter');
      const bonusOfA = await click('2026-11-20T08:03:00Z', 'bonus', 'a', 'newsletter');
      const heroOfB = await click('2026-11-20T09:01:00Z', 'hero', 'b', 'google.com');
      const heroOfD = await click('2026-11-21T08:01:00Z', 'hero', 'd', 'newsletter');
      // A ping: no JavaScript, so no click ID and no source.
      await clicks.record({ at: new Date('2026-11-21T09:00:00Z'), placement: 'explainer', page: '/', referrerHost: null, device: 'desktop', visitor: 'e', via: 'ping' });
      // A click the day before the range, converting inside it.
      const heroOfF = await click('2026-11-19T12:00:00Z', 'hero', 'f', 'direct');

      await sale('2026-11-21T10:00:00Z', { txid: 'T1', subid: heroOfA, payout: '40' });
      await sale('2026-11-21T10:00:00Z', { txid: 'T2', subid: bonusOfA, payout: '10.50', currency: 'EUR' });
      await sale('2026-11-21T10:00:00Z', { txid: 'T3', subid: heroOfB, payout: '25' });
      await sale('2026-11-21T11:00:00Z', { txid: 'T3', subid: heroOfB, status: 'refund' });
      await sale('2026-11-21T12:00:00Z', { txid: 'T4', subid: heroOfD, payout: '12.25' });
      await sale('2026-11-21T12:00:00Z', { txid: 'T5', payout: '5' });
      await sale('2026-11-20T12:00:00Z', { txid: 'T6', subid: heroOfF, payout: '100' });
    });

    it('counts visitors, visitors who clicked and conversions of the range, refunds left out, revenue in the main currency and in each', async () => {
      const report = await read('2026-11-20', '2026-11-21');
      expect(report.currency).toBe('USD');
      expect(report.currencies).toEqual(['USD', 'EUR']);
      expect(report.all).toEqual({
        clicks: 5,
        visitors: 4,
        views: 5,
        viewVisitors: 4,
        conversions: 4,
        revenue: 57.25,
        revenueByCurrency: { USD: 57.25, EUR: 10.5 },
        unattributed: 1,
      });
    });

    it('credits each conversion to the placement of its click', async () => {
      const { totals } = await read('2026-11-20', '2026-11-21');
      expect(totals.find((row) => row.placement === 'hero')).toEqual({ placement: 'hero', clicks: 3, visitors: 3, conversions: 2, revenue: 52.25, revenueByCurrency: { USD: 52.25 } });
      expect(totals.find((row) => row.placement === 'bonus')).toEqual({ placement: 'bonus', clicks: 1, visitors: 1, conversions: 1, revenue: 0, revenueByCurrency: { EUR: 10.5 } });
      expect(totals.find((row) => row.placement === 'explainer')).toEqual({ placement: 'explainer', clicks: 1, visitors: 1, conversions: 0, revenue: 0, revenueByCurrency: {} });
    });

    it('counts a conversion under the day of its click, and one without a click under the day it arrived', async () => {
      const [first, second] = (await read('2026-11-20', '2026-11-21')).days;
      expect(first?.all).toEqual({ clicks: 3, visitors: 2, views: 4, viewVisitors: 3, conversions: 2, revenue: 40, revenueByCurrency: { USD: 40, EUR: 10.5 } });
      expect(first?.placements.hero).toEqual({ clicks: 2, visitors: 2, conversions: 1, revenue: 40, revenueByCurrency: { USD: 40 } });
      expect(second?.all).toEqual({ clicks: 2, visitors: 2, views: 1, viewVisitors: 1, conversions: 2, revenue: 17.25, revenueByCurrency: { USD: 17.25 } });
      expect(second?.placements.hero).toMatchObject({ clicks: 1, conversions: 1, revenue: 12.25 });
    });

    it('leaves out a conversion that arrived in the range for a click before it, and counts it in a range holding its click', async () => {
      expect((await read('2026-11-20', '2026-11-20')).all.conversions).toBe(2);
      const dayBefore = await read('2026-11-19', '2026-11-19');
      expect(dayBefore.all).toMatchObject({ clicks: 1, conversions: 1, revenue: 100 });
      expect(dayBefore.totals[0]).toMatchObject({ placement: 'hero', conversions: 1, revenue: 100 });
    });

    it('breaks the range down by source, most visitors first, a source not known last', async () => {
      const { sources } = await read('2026-11-20', '2026-11-21');
      expect(sources).toEqual([
        { source: 'newsletter', visitors: 2, clicks: 3, clickers: 2, conversions: 3, revenue: 52.25, revenueByCurrency: { USD: 52.25, EUR: 10.5 } },
        { source: 'google.com', visitors: 1, clicks: 1, clickers: 1, conversions: 0, revenue: 0, revenueByCurrency: {} },
        { source: 'direct', visitors: 1, clicks: 0, clickers: 0, conversions: 0, revenue: 0, revenueByCurrency: {} },
        { source: '', visitors: 0, clicks: 1, clickers: 1, conversions: 1, revenue: 5, revenueByCurrency: { USD: 5 } },
      ]);
    });

    it('breaks each day down by source too, and the days add up to the range', async () => {
      const report = await read('2026-11-20', '2026-11-21');
      expect(report.days[0]?.sources.map((row) => row.source)).toEqual(['newsletter', 'google.com', 'direct']);
      // The ping's click and the sale that named no click are a source not known.
      expect(report.days[1]?.sources).toEqual([
        { source: 'newsletter', visitors: 1, clicks: 1, clickers: 1, conversions: 1, revenue: 12.25, revenueByCurrency: { USD: 12.25 } },
        { source: '', visitors: 0, clicks: 1, clickers: 1, conversions: 1, revenue: 5, revenueByCurrency: { USD: 5 } },
      ]);
      expectDaysToAddUp(report);
    });
  });

  describe('the main currency', () => {
    it('is USD, with no revenue anywhere, when nothing converted', async () => {
      const report = await read('2026-11-20', '2026-11-21');
      expect({ currency: report.currency, currencies: report.currencies, sources: report.sources }).toEqual({ currency: 'USD', currencies: [], sources: [] });
      expect(report.all).toEqual({ clicks: 0, visitors: 0, views: 0, viewVisitors: 0, conversions: 0, revenue: 0, revenueByCurrency: {}, unattributed: 0 });
    });

    it('is the currency with most conversions, not most revenue', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'E1', subid: 'hero', payout: '1', currency: 'EUR' });
      await sale('2026-11-20T10:00:00Z', { txid: 'E2', subid: 'hero', payout: '2', currency: 'EUR' });
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero', payout: '500' });
      const report = await read('2026-11-20', '2026-11-20');
      expect(report.currency).toBe('EUR');
      expect(report.currencies).toEqual(['EUR', 'USD']);
      expect(report.all).toMatchObject({ conversions: 3, revenue: 3, revenueByCurrency: { EUR: 3, USD: 500 } });
      expect(Object.keys(report.all.revenueByCurrency)).toEqual(['EUR', 'USD']);
    });

    it('is the first in alphabetical order on a tie', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero', payout: '3' });
      await sale('2026-11-20T10:00:00Z', { txid: 'G1', subid: 'hero', payout: '4', currency: 'GBP' });
      const report = await read('2026-11-20', '2026-11-20');
      expect({ currency: report.currency, currencies: report.currencies, revenue: report.all.revenue }).toEqual({ currency: 'GBP', currencies: ['GBP', 'USD'], revenue: 4 });
    });

    it('counts conversions without a payout, which earn nothing', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero' });
      await sale('2026-11-20T10:00:00Z', { txid: 'U2', subid: 'hero' });
      await sale('2026-11-20T10:00:00Z', { txid: 'E1', subid: 'hero', payout: '9', currency: 'EUR' });
      const report = await read('2026-11-20', '2026-11-20');
      expect({ currency: report.currency, currencies: report.currencies }).toEqual({ currency: 'USD', currencies: ['EUR'] });
      expect(report.all).toMatchObject({ conversions: 3, revenue: 0, revenueByCurrency: { EUR: 9 } });
    });
  });

  it('sums payouts exactly, in millionths: 0.1 + 0.2 + 0.000001 is 0.300001', async () => {
    for (const [txid, payout] of [['A', '0.1'], ['B', '0.2'], ['C', '0.000001']]) await sale('2026-11-20T10:00:00Z', { txid, subid: 'bonus', payout });
    const report = await read('2026-11-20', '2026-11-20');
    expect(report.all.revenue).toBe(0.300001);
    expect(report.totals.find((row) => row.placement === 'bonus')?.revenue).toBe(0.300001);
  });

  it('shows conversions of a placement no longer on the page after the current ones', async () => {
    await opened.database.db
      .insertInto('conversions')
      .values({ txid: 'OLD', subid: 'sidebar', click_id: null, placement: 'sidebar', payout_micros: 2_000_000, currency: 'USD', status: 'sale', received_at: now.getTime(), day: '2026-11-21', reversed_at: null })
      .execute();
    const report = await read('2026-11-21', '2026-11-21');
    expect(report.totals.at(-1)).toEqual({ placement: 'sidebar', clicks: 0, visitors: 0, conversions: 1, revenue: 2, revenueByCurrency: { USD: 2 } });
    expect(report.days[0]?.placements.sidebar).toMatchObject({ conversions: 1, revenue: 2 });
  });

  describe('past the retention period', () => {
    beforeEach(async () => {
      // 2026-11-01 is past 10 days' retention; its views and clicks are folded and deleted.
      await view('2026-11-01T08:00:00Z', 'a', 'newsletter');
      await view('2026-11-01T08:01:00Z', 'a', 'newsletter', '/about-us');
      await view('2026-11-01T09:00:00Z', 'b', 'direct');
      const folded = await click('2026-11-01T08:02:00Z', 'hero', 'a', 'newsletter');
      await clicks.record({ at: new Date('2026-11-01T09:01:00Z'), placement: 'bonus', page: '/', referrerHost: null, device: 'mobile', visitor: 'b', via: 'ping' });
      // Conversions stay raw for 180 days at least: this one, of the folded click, is still a row.
      await sale('2026-11-02T10:00:00Z', { txid: 'R1', subid: folded, payout: '30' });
      // Received in April: folded into daily_conversions (the refunded one counts nothing).
      await sale('2026-04-01T10:00:00Z', { txid: 'F1', subid: 'hero', payout: '7' });
      await sale('2026-04-01T10:00:00Z', { txid: 'F2', subid: 'hero', payout: '8', currency: 'EUR' });
      await sale('2026-04-01T11:00:00Z', { txid: 'F3', payout: '1' });
      await sale('2026-04-01T11:00:00Z', { txid: 'F4', subid: 'hero', payout: '50' });
      await sale('2026-04-02T11:00:00Z', { txid: 'F4', status: 'chargeback' });
      // Raw, recent ones.
      await view('2026-11-20T08:00:00Z', 'c', 'newsletter');
      await click('2026-11-20T08:01:00Z', 'hero', 'c', 'newsletter');

      expect(await closeDaysAndForget(opened.database.db, 10, now)).toEqual({ views: 3, clicks: 2 });
      expect(await conversions.foldOldConversions(10, now)).toBe(4);
    });

    it('reads folded views, clicks and sources with the raw days', async () => {
      const report = await read('2026-11-01', '2026-11-21');
      expect(report.all).toMatchObject({ clicks: 3, visitors: 3, views: 4, viewVisitors: 3, conversions: 1, revenue: 30 });
      expect(report.days[0]?.all).toMatchObject({ clicks: 2, visitors: 2, views: 3, viewVisitors: 2, conversions: 1, revenue: 30 });
      expect(report.sources).toEqual([
        { source: 'newsletter', visitors: 2, clicks: 2, clickers: 2, conversions: 1, revenue: 30, revenueByCurrency: { USD: 30 } },
        { source: 'direct', visitors: 1, clicks: 0, clickers: 0, conversions: 0, revenue: 0, revenueByCurrency: {} },
        { source: '', visitors: 0, clicks: 1, clickers: 1, conversions: 0, revenue: 0, revenueByCurrency: {} },
      ]);
      expectDaysToAddUp(report);
    });

    it('reads folded conversions per placement, source and currency, reversed ones left out', async () => {
      const report = await read('2026-04-01', '2026-04-02');
      expect({ currency: report.currency, currencies: report.currencies }).toEqual({ currency: 'USD', currencies: ['USD', 'EUR'] });
      expect(report.all).toMatchObject({ conversions: 3, revenue: 8, revenueByCurrency: { USD: 8, EUR: 8 }, unattributed: 1 });
      expect(report.totals[0]).toEqual({ placement: 'hero', clicks: 0, visitors: 0, conversions: 2, revenue: 7, revenueByCurrency: { USD: 7, EUR: 8 } });
      expect(report.days[0]?.all).toMatchObject({ conversions: 3, revenue: 8 });
      expect(report.days[1]?.all).toMatchObject({ conversions: 0, revenue: 0 });
      expect(report.sources).toEqual([{ source: '', visitors: 0, clicks: 0, clickers: 0, conversions: 3, revenue: 8, revenueByCurrency: { USD: 8, EUR: 8 } }]);
    });
  });
});
