import { createCostStore, FixedCostOverlapError } from '../../server/costs/costStore';
import type { CostRow } from '../../server/costs/costRow';
import { engines, useTestDatabase } from '../support/engines';

const cost = (fields: Partial<CostRow> = {}): CostRow => ({ day: '2026-11-20', source: 'facebook', campaign: 'spring', content: 'ad-1', amountMicros: 12_500_000, currency: 'USD', ...fields });

describe.each(engines)('costStore on %s', (engine) => {
  const database = useTestDatabase(engine);

  describe('replaceCosts', () => {
    it('sets amounts as state: a repeat changes nothing, a correction replaces, another currency is its own row', async () => {
      const store = createCostStore(database.db());
      expect(await store.replaceCosts([cost(), cost({ content: 'ad-2' })])).toEqual({ changed: 2, unchanged: 0 });
      expect(await store.replaceCosts([cost(), cost({ content: 'ad-2' })])).toEqual({ changed: 0, unchanged: 2 });
      expect(await store.replaceCosts([cost({ amountMicros: 1 }), cost({ content: 'ad-2' }), cost({ currency: 'EUR' })])).toEqual({ changed: 2, unchanged: 1 });
      expect(await store.readCosts({ from: '2026-11-20', to: '2026-11-20' })).toEqual([
        cost({ currency: 'EUR' }),
        cost({ amountMicros: 1 }),
        cost({ content: 'ad-2' }),
      ]);
    });

    it('counts a key given twice in one call once, with its last amount', async () => {
      const store = createCostStore(database.db());
      expect(await store.replaceCosts([cost(), cost({ amountMicros: 7 })])).toEqual({ changed: 1, unchanged: 0 });
      expect(await store.readCosts({ from: '2026-11-20', to: '2026-11-20' })).toEqual([cost({ amountMicros: 7 })]);
    });

    it('writes more rows than one statement holds, in one transaction', async () => {
      const store = createCostStore(database.db());
      const rows = Array.from({ length: 1234 }, (_, index) => cost({ content: `ad-${index}`, amountMicros: index }));
      expect(await store.replaceCosts(rows)).toEqual({ changed: 1234, unchanged: 0 });
      expect(await store.readCosts({ from: '2026-11-20', to: '2026-11-20' })).toHaveLength(1234);
    });

    it('lets two writers of the same rows in opposite orders finish together, each row written once', async () => {
      const store = createCostStore(database.db());
      const rows = Array.from({ length: 1500 }, (_, index) => cost({ content: `ad-${index}`, amountMicros: index }));
      const results = await Promise.all([store.replaceCosts(rows), store.replaceCosts([...rows].reverse()), store.replaceCosts(rows)]);
      expect(results.reduce((sum, result) => sum + result.changed, 0)).toBe(1500);
      expect(results.reduce((sum, result) => sum + result.unchanged, 0)).toBe(3000);
    });

    it('reads only the days asked for, and refuses a range longer than a report may be', async () => {
      const store = createCostStore(database.db());
      await store.replaceCosts([cost({ day: '2026-11-19' }), cost(), cost({ day: '2026-11-21' })]);
      expect((await store.readCosts({ from: '2026-11-20', to: '2026-11-21' })).map((row) => row.day)).toEqual(['2026-11-20', '2026-11-21']);
      await expect(store.readCosts({ from: '2000-01-01', to: '2100-12-31' })).rejects.toThrow(RangeError);
    });
  });

  describe('fixed costs', () => {
    it('turns a daily amount into a cost on each day of the rule within the range', async () => {
      const store = createCostStore(database.db());
      await store.setFixedCost({ source: 'newsletter', campaign: 'winter', from: '2026-01-30', to: '2026-02-02', dailyMicros: 12_500_000, perVisitorMicros: null, currency: 'USD' });
      const days = await store.readFixedCostDays({ from: '2026-02-01', to: '2026-02-10' });
      expect(days).toEqual([
        { day: '2026-02-01', source: 'newsletter', campaign: 'winter', content: '', amountMicros: 12_500_000, currency: 'USD' },
        { day: '2026-02-02', source: 'newsletter', campaign: 'winter', content: '', amountMicros: 12_500_000, currency: 'USD' },
      ]);
    });

    it("multiplies an amount per visitor by each day's visitors of the source, closed days and open ones", async () => {
      const db = database.db();
      const store = createCostStore(db);
      await db
        .insertInto('daily_counts')
        .values([
          { dimension: 'source', day: '2026-03-01', value: 'partner', views: 90, visitors: 40, clicks: 3, clickers: 2, distinct_values: 1 },
          { dimension: 'source', day: '2026-03-01', value: 'other', views: 9, visitors: 4, clicks: 0, clickers: 0, distinct_values: 1 },
          { dimension: 'all', day: '2026-03-01', value: '', views: 99, visitors: 44, clicks: 3, clickers: 2, distinct_values: 1 },
        ])
        .execute();
      await db.insertInto('closed_days').values({ day: '2026-03-01', closed_at: 0 }).execute();
      const view = (visitor: string) => ({ at: Date.parse('2026-03-02T10:00:00Z'), day: '2026-03-02', page: '/', referrer_host: null, source: 'partner', medium: null, campaign: null, device: 'desktop', visitor });
      await db.insertInto('views').values([view('a'), view('a'), view('b'), view('c')]).execute();
      await store.setFixedCost({ source: 'partner', campaign: '', from: '2026-03-01', to: '2026-03-31', dailyMicros: null, perVisitorMicros: 350_000, currency: 'EUR' });
      expect(await store.readFixedCostDays({ from: '2026-03-01', to: '2026-03-05' })).toEqual([
        { day: '2026-03-01', source: 'partner', campaign: '', content: '', amountMicros: 40 * 350_000, currency: 'EUR' },
        { day: '2026-03-02', source: 'partner', campaign: '', content: '', amountMicros: 3 * 350_000, currency: 'EUR' },
      ]);
    });

    it('lets only one of two overlapping rules set at the same moment in', async () => {
      const store = createCostStore(database.db());
      const rule = { source: 'newsletter', campaign: '', from: '2026-01-01', to: '2026-01-31', dailyMicros: 1_000_000, perVisitorMicros: null, currency: 'USD' };
      const results = await Promise.allSettled([store.setFixedCost(rule), store.setFixedCost({ ...rule, from: '2026-01-15', to: '2026-02-15' })]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await store.listFixedCosts()).toHaveLength(1);
    });

    it('refuses a rule overlapping another of the same source and campaign, lists and removes rules', async () => {
      const store = createCostStore(database.db());
      const rule = { source: 'newsletter', campaign: '', from: '2026-01-01', to: '2026-01-31', dailyMicros: 1_000_000, perVisitorMicros: null, currency: 'USD' };
      const first = await store.setFixedCost(rule);
      await expect(store.setFixedCost({ ...rule, from: '2026-01-31', to: '2026-02-28' })).rejects.toThrow(FixedCostOverlapError);
      const second = await store.setFixedCost({ ...rule, from: '2026-02-01', to: '2026-02-28' });
      await store.setFixedCost({ ...rule, campaign: 'other' });
      expect((await store.listFixedCosts()).map((listed) => listed.id)).toHaveLength(3);
      expect(await store.removeFixedCost(first.id)).toBe(true);
      expect(await store.removeFixedCost(first.id)).toBe(false);
      expect((await store.listFixedCosts()).map((listed) => listed.id)).toContain(second.id);
    });
  });
});
