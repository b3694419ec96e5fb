import request from 'supertest';
import { createClickStore } from '../../server/clicks/clickStore';
import { parseConversion } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createCostStore } from '../../server/costs/costStore';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { adminCampaigns } from '../../server/admin/SpendTable';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { cells, tableCaptioned } from '../support/adminTables';
import { engines, type TestEngineDatabase } from '../support/engines';
import { parseHtml } from '../support/html';

describe.each(engines)('GET /admin’s Spend and profit on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof openAdminApp>>['app'];
  const adminPage = async () => parseHtml((await request(app).get('/admin?from=2026-11-20&to=2026-11-21').set('Authorization', basicAuth(adminToken)).expect(200)).text);

  beforeEach(async () => {
    ({ store, app } = await openAdminApp({ engine }));
    const db = store.database.db;
    const at = new Date('2026-11-20T10:00:00Z');
    for (const [visitor, source] of [['a', 'newsletter'], ['b', 'newsletter'], ['g', 'google']] as const) {
      await createViewStore(db).record({ at, page: '/', referrerHost: null, source, medium: null, campaign: null, device: 'mobile', visitor });
    }
    const clickId = newClickId('hero');
    await createClickStore(db).record({ at, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'a', via: 'beacon', clickId, source: 'newsletter' });
    const parsed = parseConversion({ txid: 'T1', subid: clickId, payout: '40' });
    if (parsed.error) throw new Error(parsed.error.message);
    await createConversionStore(db).record(parsed.report, 'postback', new Date('2026-11-20T11:00:00Z'));
  });
  afterEach(() => store.close());

  it('says how to add costs when none is recorded, instead of an empty table', async () => {
    const page = await adminPage();
    expect(page.text()).toContain('No cost is recorded for this range. Add costs with npm run costs:import');
    expect(page.all('caption').some((caption) => caption.text().startsWith('Spend and profit'))).toBe(false);
  });

  it('lists the sources with a cost, losing money first, with profit, ROI, chance and verdict', async () => {
    await createCostStore(store.database.db).replaceCosts([
      { day: '2026-11-20', source: 'newsletter', campaign: '', content: '', amountMicros: 10_000_000, currency: 'USD' },
      { day: '2026-11-20', source: 'google', campaign: '', content: '', amountMicros: 6_000_000, currency: 'USD' },
    ]);
    const table = tableCaptioned(await adminPage(), 'Spend and profit by source');
    const rows = table.all('tbody tr');
    expect(rows.map((row) => row.all('th')[0]?.text())).toEqual(['google', 'newsletter', 'All sources']);
    const [google, newsletter] = rows;
    expect(cells(google!).slice(0, 9)).toEqual(['6.00 USD', '1', '6.00 USD', '0', '–', '0.00 USD', '-6.00 USD', '-100%', cells(google!)[8]]);
    expect(cells(newsletter!).slice(0, 8)).toEqual(['10.00 USD', '2', '5.00 USD', '1', '10.00 USD', '40.00 USD', '30.00 USD', '300%']);
    expect(cells(newsletter!)[9]).toMatch(/^too early|^paying|^losing/);
    expect(cells(rows[2]!)).toContain('24.00 USD');
  });

  it('lists the campaigns with a cost, each campaign’s ads under it, with what a visitor and a sale may cost to break even', async () => {
    const db = store.database.db;
    const at = new Date('2026-11-21T09:00:00Z');
    for (const [visitor, content] of [['s1', 'video'], ['s2', 'video'], ['s3', 'photo']] as const) {
      await createViewStore(db).record({ at, page: '/', referrerHost: null, source: 'facebook', medium: 'cpc', campaign: 'spring', content, device: 'mobile', visitor });
    }
    const clickId = newClickId('hero');
    await createClickStore(db).record({ at, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 's1', via: 'beacon', clickId, source: 'facebook', campaign: 'spring', content: 'video' });
    const parsed = parseConversion({ txid: 'S1', subid: clickId, payout: '40' });
    if (parsed.error) throw new Error(parsed.error.message);
    await createConversionStore(db).record(parsed.report, 'postback', new Date('2026-11-21T10:00:00Z'));
    await createCostStore(db).replaceCosts([
      { day: '2026-11-21', source: 'facebook', campaign: 'spring', content: 'video', amountMicros: 12_000_000, currency: 'USD' },
      { day: '2026-11-21', source: 'facebook', campaign: 'spring', content: 'photo', amountMicros: 9_000_000, currency: 'USD' },
    ]);
    const table = tableCaptioned(await adminPage(), 'Spend and profit by campaign and ad');
    const rows = table.all('tbody tr');
    expect(rows.map((row) => row.all('th')[0]?.text())).toEqual(['facebook / spring', 'spring, ad photo', 'spring, ad video']);
    const [campaign, photo, video] = rows;
    expect(cells(campaign!).slice(0, 8)).toEqual(['21.00 USD', '3', '7.00 USD', '1', '21.00 USD', '40.00 USD', '19.00 USD', '90%']);
    expect(cells(photo!).slice(0, 7)).toEqual(['9.00 USD', '1', '9.00 USD', '0', '–', '0.00 USD', '-9.00 USD']);
    expect(photo!.attr('class')).toBe('ad losing');
    expect(cells(video!).slice(0, 7)).toEqual(['12.00 USD', '2', '6.00 USD', '1', '12.00 USD', '40.00 USD', '28.00 USD']);
    // 40 USD from 2 visitors: a visitor may cost up to 20 USD, a sale up to what it paid.
    expect(cells(video!)[9]).toMatch(/Breaks even at 20\.00 USD a visitor, 40\.00 USD a sale\.$/);
  });

  it(`lists the ${adminCampaigns} campaigns losing most, and says how to see the rest`, async () => {
    await createCostStore(store.database.db).replaceCosts(
      Array.from({ length: adminCampaigns + 2 }, (_, index) => ({ day: '2026-11-20', source: 'facebook', campaign: `c${String(index).padStart(3, '0')}`, content: '', amountMicros: (index + 1) * 1_000_000, currency: 'USD' })),
    );
    const page = await adminPage();
    const rows = tableCaptioned(page, 'Spend and profit by campaign and ad').all('tbody tr');
    expect(rows).toHaveLength(adminCampaigns);
    // The most spent with no sale is the most lost: c051 first; c000 and c001 left out.
    expect(rows[0]!.all('th')[0]?.text()).toBe('facebook / c051');
    expect(page.text()).toContain('And 2 more campaigns with a cost: npm run stats -- --csv --spend lists every one.');
  });
});
