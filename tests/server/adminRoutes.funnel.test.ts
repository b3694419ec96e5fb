import request from 'supertest';
import { createClickStore, type Click } from '../../server/clicks/clickStore';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { engines, type TestEngineDatabase } from '../support/engines';
import { assertSelector, parseHtml } from '../support/html';

describe.each(engines)('GET /admin with views, clicks and conversions on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof openAdminApp>>['app'];
  const sale = async (fields: ConversionFields, at: string) => {
    const parsed = parseConversion(fields);
    if (parsed.error) throw new Error(parsed.error.message);
    await createConversionStore(store.database.db).record(parsed.report, 'postback', new Date(at));
  };
  const adminPage = async (query = '?from=2026-11-20&to=2026-11-21') =>
    parseHtml((await request(app).get(`/admin${query}`).set('Authorization', basicAuth(adminToken)).expect(200)).text);

  beforeEach(async () => {
    ({ store, app } = await openAdminApp({ engine }));
    const db = store.database.db;
    const views = createViewStore(db);
    const clicks = createClickStore(db);
    const at = new Date('2026-11-20T10:00:00Z');
    for (const [visitor, source] of [['a', 'newsletter'], ['b', 'newsletter'], ['c', 'newsletter'], ['g', 'www.google.com']] as const) {
      await views.record({ at, page: '/', referrerHost: null, source, medium: null, campaign: null, device: 'mobile', visitor });
    }
    const click = async (placement: AffiliatePlacement, visitor: string, source: string) => {
      const clickId = newClickId(placement);
      await clicks.record({ at, placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId, source } satisfies Click);
      return clickId;
    };
    const heroOfA = await click('hero', 'a', 'newsletter');
    const heroOfB = await click('hero', 'b', 'newsletter');
    const bonusOfG = await click('bonus', 'g', 'www.google.com');
    await sale({ txid: 'T1', subid: heroOfA, payout: '40' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T2', subid: bonusOfG, payout: '10' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T3', payout: '5' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T4', subid: heroOfB, payout: '99' }, '2026-11-21T09:00:00Z');
    await sale({ txid: 'T4', status: 'chargeback' }, '2026-11-21T10:00:00Z');
  });
  afterEach(() => store.close());

  it('sums the funnel up first: visitors, visitors who clicked, conversions, revenue', async () => {
    const steps = (await adminPage()).one('ol.funnel').all('li').map((step) => step.text());
    expect(steps).toEqual([
      '4 visitors 4 page views',
      '3 clicked an affiliate link 75% of visitors',
      '3 conversions 100% of 3 clicks',
      '55.00 USD revenue 18.33 USD per click',
    ]);
  });

  it('shows per placement conversions, conversion rate, revenue and earnings per click, refunds left out', async () => {
    const table = tableCaptioned(await adminPage(), 'Clicks and conversions by placement');
    expect(table.all('thead th').map((cell) => cell.text())).toEqual([
      'Placement', 'Saw', 'CTR of those who saw', 'Clicks', 'Visitors', 'Share of clicks', 'Conversions', 'Conversion rate', 'Revenue',
      'Earnings per click', 'Revenue per 1,000 who saw',
    ]);
    assertSelector(table, 'thead th[scope="col"]', 11);
    // No leave report here, so nobody is known to have seen a placement (tests/server/adminRoutes.reach.test.ts has them).
    expect(cells(rowHeaded(table, 'hero'))).toEqual(['0', '–', '2', '2', '67%', '1', '50%', '40.00 USD', '20.00 USD', '–']);
    expect(cells(rowHeaded(table, 'bonus'))).toEqual(['0', '–', '1', '1', '33%', '1', '100%', '10.00 USD', '10.00 USD', '–']);
    expect(cells(rowHeaded(table, 'explainer'))).toEqual(['0', '–', '0', '0', '0%', '0', '–', '–', '–', '–']);
    expect(cells(rowHeaded(table, 'All placements'))).toEqual(['', '', '3', '3', '100%', '3', '100%', '55.00 USD', '18.33 USD', '']);
  });

  it('says how many conversions named no placement', async () => {
    expect((await adminPage()).text()).toContain('1 conversion named no placement');
  });

  it('shows per source visitors, visitors who clicked, clicks, click-through rate, conversions and revenue', async () => {
    const table = tableCaptioned(await adminPage(), 'Visitors, clicks and conversions by source');
    expect(table.all('thead th[scope="col"]').map((cell) => cell.text())).toEqual([
      'Source', 'Visitors', 'Visitors who clicked', 'Clicks', 'Click-through rate', 'Conversions', 'Revenue',
    ]);
    expect(table.all('tbody th[scope="row"]').map((cell) => cell.text())).toEqual(['newsletter', 'www.google.com', '(not known)']);
    expect(cells(rowHeaded(table, 'newsletter'))).toEqual(['3', '2', '2', '67%', '1', '40.00 USD']);
    expect(cells(rowHeaded(table, 'www.google.com'))).toEqual(['1', '1', '1', '100%', '1', '10.00 USD']);
    expect(cells(rowHeaded(table, '(not known)'))).toEqual(['0', '0', '0', '–', '1', '5.00 USD']);
  });

  it('shows views, clicks, conversions and revenue day by day, conversions under the day of their click', async () => {
    const table = tableCaptioned(await adminPage(), 'Views, clicks and conversions per day');
    expect(table.all('thead th').slice(0, 5).map((cell) => cell.text())).toEqual(['Day', 'Views', 'Clicks', 'Conversions', 'Revenue']);
    expect(cells(rowHeaded(table, '2026-11-21'))).toEqual(['–', '–', '1', '5.00 USD', '–', '–', '–', '–', '–', '–']);
    expect(cells(rowHeaded(table, '2026-11-20'))).toEqual(['4 / 4', '3 / 3', '2', '50.00 USD', '2 / 2', '–', '–', '–', '–', '1 / 1']);
  });

  it('shows each day\'s sources, newest first, a day\'s rows grouped under it', async () => {
    const table = tableCaptioned(await adminPage(), 'Sources per day');
    const groups = table.all('tbody');
    expect(groups.map((group) => group.one('th[scope="rowgroup"]').text())).toEqual(['2026-11-21', '2026-11-20']);
    expect(groups.map((group) => group.all('th[scope="row"]').map((cell) => cell.text()))).toEqual([['(not known)'], ['newsletter', 'www.google.com']]);
    expect(cells(rowHeaded(groups[0]!, '(not known)'))).toEqual(['0', '0', '0', '–', '1', '5.00 USD']);
    expect(cells(rowHeaded(groups[1]!, 'newsletter'))).toEqual(['3', '2', '2', '67%', '1', '40.00 USD']);
    expect(cells(rowHeaded(groups[1]!, 'www.google.com'))).toEqual(['1', '1', '1', '100%', '1', '10.00 USD']);
  });

  it('shows revenue in each currency, one a line, when there is more than one', async () => {
    await sale({ txid: 'E1', subid: 'bonus', payout: '7.5', currency: 'EUR' }, '2026-11-20T12:00:00Z');
    const page = await adminPage();
    const bonus = rowHeaded(tableCaptioned(page, 'Clicks and conversions by placement'), 'bonus');
    expect(bonus.all('td')[7]!.all('span.amount').map((amount) => amount.text())).toEqual(['10.00 USD', '7.50 EUR']);
    expect(cells(bonus)).toEqual(['0', '–', '1', '1', '33%', '2', '200%', '10.00 USD 7.50 EUR', '10.00 USD 7.50 EUR', '–']);
    expect(page.one('ol.funnel').all('li')[3]!.text()).toBe('55.00 USD 7.50 EUR revenue 18.33 USD + 2.50 EUR per click');
  });
});
