import fc from 'fast-check';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { readFunnelReport, type FunnelReportOptions } from '../../server/funnelReport/funnelReport';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { forgetRawRows } from '../../server/jobs/forgetRawRows';
import { closeDaysAndForget } from '../support/closeDays';
import { engines, openTestDatabase } from '../support/engines';
import { expectDaysToAddUp, useFunnelRecording } from '../support/funnelRecording';

const now = new Date('2026-11-21T15:00:00Z');
const days = Array.from({ length: 8 }, (_, index) => `2026-11-${String(14 + index).padStart(2, '0')}`);

const row = fc.record({
  day: fc.constantFrom(...days),
  second: fc.integer({ min: 0, max: 86_399 }),
  visitor: fc.integer({ min: 0, max: 60 }).map((n) => `v${n}`),
  // A long tail of sources, so the top 20 (and 5 a day) leave some over; null is a source not known.
  source: fc.option(fc.integer({ min: 0, max: 40 }).map((n) => `source-${n}`), { freq: 8 }),
  page: fc.constantFrom('/', '/about-us', '/privacy-policy'),
  device: fc.constantFrom('mobile', 'tablet', 'desktop'),
  referrer: fc.option(fc.constantFrom('www.google.com', 'news.example.org', 'mail.example.com'), { freq: 3 }),
  placement: fc.constantFrom('hero', 'explainer', 'bonus'),
});

const at = ({ day, second }: { day: string; second: number }) => Date.parse(`${day}T00:00:00Z`) + second * 1000;

/**
 * The report read from closed days' totals is the report read from raw rows, row for row: before any day
 * is closed every figure comes from raw rows; after, from daily_counts (and today's raw rows); and after
 * raw rows past retention are deleted, from daily_counts alone.
 */
describe.each(engines)('a report from closed days on %s', (engine) => {
  it.each<[string, FunnelReportOptions]>([
    ['the top sources', {}],
    ['every source', { sources: 'all', daySources: 'all' }],
  ])('equals the report from raw rows, row for row, with %s', async (_name, options) => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1000, maxLength: 3000 }), fc.array(row, { minLength: 50, maxLength: 300 }), async (views, clicks) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          const insert = async (table: 'views' | 'clicks' | 'leaves', values: Record<string, unknown>[]) => {
            for (let start = 0; start < values.length; start += 400) await db.insertInto(table).values(values.slice(start, start + 400) as never).execute();
          };
          await insert(
            'views',
            views.map((view) => ({ at: at(view), day: view.day, page: view.page, referrer_host: view.referrer, source: view.source, medium: null, campaign: null, device: view.device, visitor: view.visitor })),
          );
          await insert(
            'clicks',
            clicks.map((click) => ({ at: at(click), day: click.day, placement: click.placement, page: click.page, referrer_host: click.referrer, device: click.device, visitor: click.visitor, via: 'beacon', source: click.source })),
          );
          // A leave report for most views (the reach dimensions): each its view's next ordinal, its figures from its place in the list.
          const ordinals = new Map<string, number>();
          const leaves = views.flatMap((view, index) => {
            if (index % 4 === 3) return [];
            const key = `${view.day} ${view.visitor} ${view.page}`;
            ordinals.set(key, (ordinals.get(key) ?? 0) + 1);
            const home = view.page === '/';
            const seen = home ? ['hero', 'explainer', 'bonus'].slice(0, index % 4) : [];
            const sections = home ? ['hero', 'what-is', 'how-it-works'].slice(0, 1 + (index % 3)) : [];
            return [
              {
                ...{ at: at(view), day: view.day, page: view.page, device: view.device, visitor: view.visitor, variants: '', ordinal: ordinals.get(key) },
                ...{ sections: sections.join(' '), seen: seen.join(' '), clicked: seen.slice(0, index % 2).join(' '), engaged_seconds: (index * 7) % 400 },
              },
            ];
          });
          await insert('leaves', leaves);
          const range = { from: days[0]!, to: days.at(-1)! };
          const fromRaw = await readFunnelReport(db, range, options);
          // With 41 sources, the top 20 leave some over: the sum of the rest is compared too.
          expect(fromRaw.otherSources === undefined).toBe(options.sources === 'all');
          // Every leave report counts, and the reach is compared too: the seen placements and the pages' sections.
          expect(fromRaw.all.leaves).toBe(leaves.length);
          expect(await closeFinishedDays(db, (day) => readRawDayCounts(db, day), now)).toEqual(days.slice(0, -1).filter((day) => day >= [...views, ...clicks].map((entry) => entry.day).sort()[0]!));
          expect(await readFunnelReport(db, range, options)).toEqual(fromRaw);
          await forgetRawRows(db, 1, now);
          expect(await readFunnelReport(db, range, options)).toEqual(fromRaw);
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 10 : 4 },
    );
  });
});

describe.each(engines)('the funnel in readFunnelReport on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  const { read, view, click, sale } = funnel;

  describe('past the retention period', () => {
    beforeEach(async () => {
      // 2026-11-01 is past 10 days' retention; its views and clicks are folded and deleted.
      await view('2026-11-01T08:00:00Z', 'a', 'newsletter');
      await view('2026-11-01T08:01:00Z', 'a', 'newsletter', '/about-us');
      await view('2026-11-01T09:00:00Z', 'b', 'direct');
      const folded = await click('2026-11-01T08:02:00Z', 'hero', 'a', 'newsletter');
      await funnel.clicks.record({ at: new Date('2026-11-01T09:01:00Z'), placement: 'bonus', page: '/', referrerHost: null, device: 'mobile', visitor: 'b', via: 'ping' });
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

      expect(await closeDaysAndForget(funnel.opened.database.db, 10, now)).toEqual({ views: 3, clicks: 2, leaves: 0 });
      expect(await funnel.conversions.foldOldConversions(10, now)).toBe(4);
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
      expect(report.totals[0]).toEqual({
        placement: 'hero',
        clicks: 0,
        visitors: 0,
        conversions: 2,
        revenue: 7,
        revenueByCurrency: { USD: 7, EUR: 8 },
        ...{ seen: 0, seenClickers: 0, seenClickThrough: null, conversionsPerThousandSeen: null, revenuePerThousandSeen: null },
      });
      expect(report.days[0]?.all).toMatchObject({ conversions: 3, revenue: 8 });
      expect(report.days[1]?.all).toMatchObject({ conversions: 0, revenue: 0 });
      expect(report.sources).toEqual([{ source: '', visitors: 0, clicks: 0, clickers: 0, conversions: 3, revenue: 8, revenueByCurrency: { USD: 8, EUR: 8 } }]);
    });
  });
});
