import { createClickStore } from '../../server/clicks/clickStore';
import { createConversionStore, minimumConversionDays } from '../../server/conversions/conversionStore';
import { newClickId } from '../../shared/affiliate';
import { engines, useTestDatabase } from '../support/engines';
import { click, conversion } from '../support/storeRows';

describe.each(engines)('the funnel stores on %s', (engine) => {
  const { db } = useTestDatabase(engine);
  const conversionRows = () =>
    db().selectFrom('conversions').select(['txid', 'click_id', 'placement', 'click_day', 'page', 'source', 'device', 'day']).orderBy('txid').execute();

  describe('a conversion joins its click by the click ID', () => {
    it('and keeps the click placement, page, source, device and day', async () => {
      const clickId = newClickId('bonus');
      await createClickStore(db()).record(click({ placement: 'bonus', page: '/about-us', device: 'tablet', clickId, source: 'newsletter' }));
      await createConversionStore(db()).record(conversion({ txid: 'T-1', subid: clickId, payout: '40' }), 'postback', new Date('2026-11-23T09:00:00Z'));
      expect(await conversionRows()).toEqual([
        { txid: 'T-1', click_id: clickId, placement: 'bonus', click_day: '2026-11-20', page: '/about-us', source: 'newsletter', device: 'tablet', day: '2026-11-23' },
      ]);
    });

    it('read without case, as ClickBank sends its tid back upper-cased', async () => {
      const clickId = newClickId('hero');
      await createClickStore(db()).record(click({ clickId, source: 'google.com' }));
      await createConversionStore(db()).record(conversion({ txid: 'T-2', subid: clickId.toUpperCase() }), 'postback');
      expect(await conversionRows()).toEqual([expect.objectContaining({ click_id: clickId, placement: 'hero', source: 'google.com', click_day: '2026-11-20' })]);
    });

    it('and is credited to the placement its code names when the click was never recorded', async () => {
      const clickId = newClickId('check-auctions-button');
      await createConversionStore(db()).record(conversion({ txid: 'T-3', subid: clickId }), 'postback', new Date('2026-11-21T00:00:00Z'));
      expect(await conversionRows()).toEqual([
        { txid: 'T-3', click_id: clickId, placement: 'check-auctions-button', click_day: null, page: null, source: null, device: null, day: '2026-11-21' },
      ]);
    });

    it('a refund of a transaction not seen yet is joined too, so its late sale arrives reversed and attributed', async () => {
      const clickId = newClickId('explainer');
      await createClickStore(db()).record(click({ placement: 'explainer', clickId, source: 'direct' }));
      const store = createConversionStore(db());
      expect(await store.record(conversion({ txid: 'T-4', subid: clickId, status: 'refund' }), 'postback')).toBe('unknown txid');
      expect(await store.record(conversion({ txid: 'T-4', subid: clickId }), 'postback')).toBe('duplicate');
      expect(await conversionRows()).toEqual([expect.objectContaining({ txid: 'T-4', placement: 'explainer', source: 'direct', click_day: '2026-11-20' })]);
    });
  });

  describe('past the retention period', () => {
    it(`folds conversions only once they are past both the retention period and ${minimumConversionDays} days, under their click's day`, async () => {
      const clickId = newClickId('hero');
      await createClickStore(db()).record(click({ at: new Date('2026-01-10T12:00:00Z'), clickId, source: 'newsletter' }));
      const store = createConversionStore(db());
      await store.record(conversion({ txid: 'OLD-1', subid: clickId, payout: '40.25' }), 'postback', new Date('2026-01-12T00:00:00Z'));
      await store.record(conversion({ txid: 'OLD-2', subid: 'hero', payout: '10', currency: 'EUR' }), 'import', new Date('2026-01-12T00:00:00Z'));
      await store.record(conversion({ txid: 'OLD-3', payout: '99' }), 'postback', new Date('2026-01-12T00:00:00Z'));
      await store.record(conversion({ txid: 'OLD-3', status: 'chargeback' }), 'postback', new Date('2026-02-12T00:00:00Z'));
      // Past the 30-day retention period but not 180 days old: a chargeback may still come for it.
      await store.record(conversion({ txid: 'RECENT', subid: 'bonus', payout: '5' }), 'postback', new Date('2026-09-01T00:00:00Z'));

      expect(await store.foldOldConversions(30, new Date('2026-11-20T08:00:00Z'))).toBe(3);

      expect(await db().selectFrom('conversions').select('txid').execute()).toEqual([{ txid: 'RECENT' }]);
      expect(await db().selectFrom('conversion_events').select('txid').execute()).toEqual([{ txid: 'RECENT' }]);
      const folded = await db().selectFrom('daily_conversions').selectAll().orderBy('placement').orderBy('currency').execute();
      expect(folded.map((row) => ({ ...row, currency: row.currency.trim(), payout_micros: Number(row.payout_micros) }))).toEqual([
        { day: '2026-01-12', placement: 'hero', source: '', currency: 'EUR', conversions: 1, payout_micros: 10_000_000 },
        { day: '2026-01-10', placement: 'hero', source: 'newsletter', currency: 'USD', conversions: 1, payout_micros: 40_250_000 },
      ]);
    });
  });
});
