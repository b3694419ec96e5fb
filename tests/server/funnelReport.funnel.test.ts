import { engines } from '../support/engines';
import { expectDaysToAddUp, useFunnelRecording } from '../support/funnelRecording';

const now = new Date('2026-11-21T15:00:00Z');

/** A placement's reach without leave reports (tests/server/reachReport.test.ts has it with them). */
const noReach = { seen: 0, seenClickers: 0, seenClickThrough: null, conversionsPerThousandSeen: null, revenuePerThousandSeen: null };

describe.each(engines)('the funnel in readFunnelReport on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  const { read, view, click, sale } = funnel;

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
      await funnel.clicks.record({ at: new Date('2026-11-21T09:00:00Z'), placement: 'explainer', page: '/', referrerHost: null, device: 'desktop', visitor: 'e', via: 'ping' });
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
        leaves: 0,
        leaveShare: 0,
      });
    });

    it('credits each conversion to the placement of its click', async () => {
      const { totals } = await read('2026-11-20', '2026-11-21');
      expect(totals.find((row) => row.placement === 'hero')).toEqual({ placement: 'hero', clicks: 3, visitors: 3, conversions: 2, revenue: 52.25, revenueByCurrency: { USD: 52.25 }, ...noReach });
      expect(totals.find((row) => row.placement === 'bonus')).toEqual({ placement: 'bonus', clicks: 1, visitors: 1, conversions: 1, revenue: 0, revenueByCurrency: { EUR: 10.5 }, ...noReach });
      expect(totals.find((row) => row.placement === 'explainer')).toEqual({ placement: 'explainer', clicks: 1, visitors: 1, conversions: 0, revenue: 0, revenueByCurrency: {}, ...noReach });
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

  it('shows conversions of a placement no longer on the page after the current ones', async () => {
    await funnel.opened.database.db
      .insertInto('conversions')
      .values({ txid: 'OLD', subid: 'sidebar', click_id: null, placement: 'sidebar', payout_micros: 2_000_000, currency: 'USD', status: 'sale', received_at: now.getTime(), day: '2026-11-21', reversed_at: null })
      .execute();
    const report = await read('2026-11-21', '2026-11-21');
    expect(report.totals.at(-1)).toEqual({ placement: 'sidebar', clicks: 0, visitors: 0, conversions: 1, revenue: 2, revenueByCurrency: { USD: 2 }, ...noReach });
    expect(report.days[0]?.placements.sidebar).toMatchObject({ conversions: 1, revenue: 2 });
  });
});
