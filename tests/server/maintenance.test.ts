import { deliveryHistoryMs, runMaintenance } from '../../server/jobs/maintenance';
import { silentLogger } from '../../server/lib/logger';
import { createStatsStores } from '../../server/statsStores';
import { engines, useTestDatabase } from '../support/engines';
import { click, conversion, view } from '../support/storeRows';

describe.each(engines)('runMaintenance on %s', (engine) => {
  const testDatabase = useTestDatabase(engine);
  const { db } = testDatabase;

  describe('past the retention period', () => {
    it('is what maintenance does: closes the days, months and weeks, then deletes old views and clicks and folds old conversions', async () => {
      const stores = createStatsStores(testDatabase.opened.database);
      await stores.views.record(view({ at: new Date('2025-01-01T10:00:00Z') }));
      await stores.clicks.record(click({ at: new Date('2025-01-01T10:01:00Z'), source: 'direct' }));
      await stores.conversions.record(conversion({ txid: 'M-1', subid: 'hero' }), 'postback', new Date('2025-01-02T00:00:00Z'));
      const lines: string[] = [];
      await runMaintenance(stores, { ...silentLogger, info: (line: string) => lines.push(line) }, 10, new Date('2026-11-20T08:00:00Z'));
      for (const table of ['views', 'clicks', 'conversions'] as const) {
        expect(await db().selectFrom(table).select('id').execute()).toEqual([]);
      }
      expect(lines).toEqual([
        'Closed 2025-01-01 to 2026-11-19 into daily totals',
        'Summed 2025-01 to 2026-10 into monthly totals',
        'Summed the weeks of the month from 2025-01-01 to 2026-11-08 into weekly totals',
        'Deleted 1 views and 1 clicks older than 10 days (their days stay in the daily totals), and folded 1 conversions older than 180 days into daily totals',
      ]);
      expect(await db().selectFrom('daily_counts').select(['dimension', 'value', 'views', 'clicks']).where('day', '=', '2025-01-01').where('dimension', 'in', ['all', 'source']).orderBy('dimension').execute()).toEqual([
        { dimension: 'all', value: '', views: 1, clicks: 1 },
        { dimension: 'source', value: 'direct', views: 1, clicks: 1 },
      ]);
    });
  });

  it('keeps every cost and fixed-cost rule, however old, as it keeps the daily totals they sit beside', async () => {
    const stores = createStatsStores(testDatabase.opened.database);
    const old = { day: '2025-01-01', source: 'facebook', campaign: 'spring', content: 'ad-1', amountMicros: 12_500_000, currency: 'USD' };
    await stores.costs.replaceCosts([old], new Date('2025-01-02T00:00:00Z'));
    await stores.costs.setFixedCost({ source: 'newsletter', campaign: '', from: '2025-01-01', to: '2025-01-31', dailyMicros: 1_000_000, perVisitorMicros: null, currency: 'USD' });
    await runMaintenance(stores, silentLogger, 10, new Date('2026-11-20T08:00:00Z'));
    expect(await stores.costs.readCosts({ from: '2025-01-01', to: '2025-01-01' })).toEqual([old]);
    expect(await stores.costs.readFixedCostDays({ from: '2025-01-31', to: '2025-02-01' })).toEqual([
      { day: '2025-01-31', source: 'newsletter', campaign: '', content: '', amountMicros: 1_000_000, currency: 'USD' },
    ]);
  });

  it("drops alerts' deliveries that ended more than 90 days ago, and never one still due", async () => {
    const stores = createStatsStores(testDatabase.opened.database);
    const now = new Date('2026-11-20T08:00:00Z');
    const old = now.getTime() - deliveryHistoryMs - 60_000;
    const row = (payload: string, created_at: number, finished: { sent_at?: number; given_up_at?: number; next_attempt_at?: number }) => ({
      incident_id: 1,
      event: 'opened',
      channel: 'webhook',
      payload,
      created_at,
      next_attempt_at: null,
      ...finished,
    });
    await db()
      .insertInto('outbox')
      .values([
        row('old sent', old, { sent_at: old }),
        row('old given up', old, { given_up_at: old }),
        row('old still due', old, { next_attempt_at: now.getTime() }),
        row('recent sent', now.getTime() - 86_400_000, { sent_at: now.getTime() - 86_400_000 }),
      ])
      .execute();
    await runMaintenance(stores, silentLogger, 400, now);
    expect((await db().selectFrom('outbox').select('payload').orderBy('payload').execute()).map((kept) => kept.payload)).toEqual(['old still due', 'recent sent']);
  });
});
