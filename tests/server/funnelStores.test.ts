import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore, minimumConversionDays } from '../../server/conversions/conversionStore';
import { runMaintenance } from '../../server/jobs/maintenance';
import { createStatsStores } from '../../server/statsStores';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore, type View } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';

function click(overrides: Partial<Click> = {}): Click {
  return { at: new Date('2026-11-20T12:00:00Z'), placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'v1', via: 'beacon', ...overrides };
}

function view(overrides: Partial<View> = {}): View {
  return { at: new Date('2026-11-20T12:00:00Z'), page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: 'v1', ...overrides };
}

function report(fields: ConversionFields) {
  const parsed = parseConversion(fields);
  if (parsed.error) throw new Error(parsed.error.message);
  return parsed.report;
}

describe.each(engines)('the funnel stores on %s', (engine) => {
  let opened: TestEngineDatabase;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
  });
  afterEach(() => opened.close());
  const db = () => opened.database.db;
  const conversionRows = () =>
    db().selectFrom('conversions').select(['txid', 'click_id', 'placement', 'click_day', 'page', 'source', 'device', 'day']).orderBy('txid').execute();

  describe('a conversion joins its click by the click ID', () => {
    it('and keeps the click placement, page, source, device and day', async () => {
      const clickId = newClickId('bonus');
      await createClickStore(db()).record(click({ placement: 'bonus', page: '/about-us', device: 'tablet', clickId, source: 'newsletter' }));
      await createConversionStore(db()).record(report({ txid: 'T-1', subid: clickId, payout: '40' }), 'postback', new Date('2026-11-23T09:00:00Z'));
      expect(await conversionRows()).toEqual([
        { txid: 'T-1', click_id: clickId, placement: 'bonus', click_day: '2026-11-20', page: '/about-us', source: 'newsletter', device: 'tablet', day: '2026-11-23' },
      ]);
    });

    it('read without case, as ClickBank sends its tid back upper-cased', async () => {
      const clickId = newClickId('hero');
      await createClickStore(db()).record(click({ clickId, source: 'google.com' }));
      await createConversionStore(db()).record(report({ txid: 'T-2', subid: clickId.toUpperCase() }), 'postback');
      expect(await conversionRows()).toEqual([expect.objectContaining({ click_id: clickId, placement: 'hero', source: 'google.com', click_day: '2026-11-20' })]);
    });

    it('and is credited to the placement its code names when the click was never recorded', async () => {
      const clickId = newClickId('check-auctions-button');
      await createConversionStore(db()).record(report({ txid: 'T-3', subid: clickId }), 'postback', new Date('2026-11-21T00:00:00Z'));
      expect(await conversionRows()).toEqual([
        { txid: 'T-3', click_id: clickId, placement: 'check-auctions-button', click_day: null, page: null, source: null, device: null, day: '2026-11-21' },
      ]);
    });

    it('a refund of a transaction not seen yet is joined too, so its late sale arrives reversed and attributed', async () => {
      const clickId = newClickId('explainer');
      await createClickStore(db()).record(click({ placement: 'explainer', clickId, source: 'direct' }));
      const store = createConversionStore(db());
      expect(await store.record(report({ txid: 'T-4', subid: clickId, status: 'refund' }), 'postback')).toBe('unknown txid');
      expect(await store.record(report({ txid: 'T-4', subid: clickId }), 'postback')).toBe('duplicate');
      expect(await conversionRows()).toEqual([expect.objectContaining({ txid: 'T-4', placement: 'explainer', source: 'direct', click_day: '2026-11-20' })]);
    });
  });

  describe('past the retention period', () => {
    it(`folds conversions only once they are past both the retention period and ${minimumConversionDays} days, under their click's day`, async () => {
      const clickId = newClickId('hero');
      await createClickStore(db()).record(click({ at: new Date('2026-01-10T12:00:00Z'), clickId, source: 'newsletter' }));
      const store = createConversionStore(db());
      await store.record(report({ txid: 'OLD-1', subid: clickId, payout: '40.25' }), 'postback', new Date('2026-01-12T00:00:00Z'));
      await store.record(report({ txid: 'OLD-2', subid: 'hero', payout: '10', currency: 'EUR' }), 'import', new Date('2026-01-12T00:00:00Z'));
      await store.record(report({ txid: 'OLD-3', payout: '99' }), 'postback', new Date('2026-01-12T00:00:00Z'));
      await store.record(report({ txid: 'OLD-3', status: 'chargeback' }), 'postback', new Date('2026-02-12T00:00:00Z'));
      // Past the 30-day retention period but not 180 days old: a chargeback may still come for it.
      await store.record(report({ txid: 'RECENT', subid: 'bonus', payout: '5' }), 'postback', new Date('2026-09-01T00:00:00Z'));

      expect(await store.foldOldConversions(30, new Date('2026-11-20T08:00:00Z'))).toBe(3);

      expect(await db().selectFrom('conversions').select('txid').execute()).toEqual([{ txid: 'RECENT' }]);
      expect(await db().selectFrom('conversion_events').select('txid').execute()).toEqual([{ txid: 'RECENT' }]);
      const folded = await db().selectFrom('daily_conversions').selectAll().orderBy('placement').orderBy('currency').execute();
      expect(folded.map((row) => ({ ...row, currency: row.currency.trim(), payout_micros: Number(row.payout_micros) }))).toEqual([
        { day: '2026-01-12', placement: 'hero', source: '', currency: 'EUR', conversions: 1, payout_micros: 10_000_000 },
        { day: '2026-01-10', placement: 'hero', source: 'newsletter', currency: 'USD', conversions: 1, payout_micros: 40_250_000 },
      ]);
    });

    it('is what maintenance does: closes the days, then deletes old views and clicks and folds old conversions', async () => {
      const stores = createStatsStores(opened.database);
      await stores.views.record(view({ at: new Date('2025-01-01T10:00:00Z') }));
      await stores.clicks.record(click({ at: new Date('2025-01-01T10:01:00Z'), source: 'direct' }));
      await stores.conversions.record(report({ txid: 'M-1', subid: 'hero' }), 'postback', new Date('2025-01-02T00:00:00Z'));
      const lines: string[] = [];
      await runMaintenance(stores, { ...silentLogger, info: (line: string) => lines.push(line) }, 10, new Date('2026-11-20T08:00:00Z'));
      for (const table of ['views', 'clicks', 'conversions'] as const) {
        expect(await db().selectFrom(table).select('id').execute()).toEqual([]);
      }
      expect(lines).toEqual([
        'Closed 2025-01-01 to 2026-11-19 into daily totals',
        'Deleted 1 views and 1 clicks older than 10 days (their days stay in the daily totals), and folded 1 conversions older than 180 days into daily totals',
      ]);
      expect(await db().selectFrom('daily_counts').select(['dimension', 'value', 'views', 'clicks']).where('day', '=', '2025-01-01').where('dimension', 'in', ['all', 'source']).orderBy('dimension').execute()).toEqual([
        { dimension: 'all', value: '', views: 1, clicks: 1 },
        { dimension: 'source', value: 'direct', views: 1, clicks: 1 },
      ]);
    });
  });
});
