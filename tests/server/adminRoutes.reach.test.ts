import request from 'supertest';
import { createClickStore } from '../../server/clicks/clickStore';
import { parseConversion } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createLeaveStore, type Leave } from '../../server/leaves/leaveStore';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { engines, type TestEngineDatabase } from '../support/engines';
import { assertSelector, parseHtml, type HtmlNode } from '../support/html';

const at = new Date('2026-11-20T10:00:00Z');
const homeSections = ['hero', 'what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus'];

/** A page's reach card on /admin: the section headed by its path. */
function reachOf(page: HtmlNode, path: string): HtmlNode {
  const card = page.all('section.reach-page').find((candidate) => candidate.one('h3').text() === path);
  if (!card) throw new Error(`No reach card for ${path}:\n${page.all('section.reach-page').map((section) => section.dump()).join('\n')}`);
  return card;
}

describe.each(engines)('GET /admin with leave reports on %s', (engine) => {
  let store: TestEngineDatabase;
  let app: Awaited<ReturnType<typeof openAdminApp>>['app'];
  const adminPage = async (query = '?from=2026-11-20&to=2026-11-21') =>
    parseHtml((await request(app).get(`/admin${query}`).set('Authorization', basicAuth(adminToken)).expect(200)).text);
  const view = (visitor: string, page = '/') =>
    createViewStore(store.database.db).record({ at, page, referrerHost: null, source: 'newsletter', medium: null, campaign: null, device: 'mobile', visitor });
  const leave = async (visitor: string, fields: Pick<Leave, 'sections' | 'seen' | 'clicked' | 'engagedSeconds'>) =>
    expect(await createLeaveStore(store.database.db).record({ at, page: '/', device: 'mobile', visitor, variants: '', ...fields })).toBe('recorded');

  beforeEach(async () => {
    ({ store, app } = await openAdminApp({ engine }));
  });
  afterEach(() => store.close());

  describe('when visitors sent leave reports', () => {
    beforeEach(async () => {
      for (const visitor of ['a', 'b', 'c', 'd']) await view(visitor);
      await view('a', '/about-us');
      // a read two sections and followed the hero's link; b left from the hero; c read to the bonus and saw it; d sent no leave report.
      await leave('a', { sections: ['hero', 'what-is'], seen: ['hero'], clicked: ['hero'], engagedSeconds: 42 });
      await leave('b', { sections: ['hero'], seen: ['hero'], clicked: [], engagedSeconds: 42 });
      await leave('c', { sections: homeSections, seen: ['hero', 'bonus'], clicked: [], engagedSeconds: 42 });
      const clickId = newClickId('hero');
      await createClickStore(store.database.db).record({ at, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'a', via: 'beacon', clickId, source: 'newsletter' });
      const sale = parseConversion({ txid: 'T1', subid: clickId, payout: '40' });
      if (sale.error) throw new Error(sale.error.message);
      await createConversionStore(store.database.db).record(sale.report, 'postback', new Date('2026-11-20T11:00:00Z'));
    });

    it('shows per placement who saw it, their click-through and revenue per 1,000 who saw, before and after the click figures', async () => {
      const table = tableCaptioned(await adminPage(), 'Clicks and conversions by placement');
      expect(table.all('thead th[scope="col"]').map((cell) => cell.text())).toEqual([
        'Placement', 'Saw', 'CTR of those who saw', 'Clicks', 'Visitors', 'Share of clicks', 'Conversions', 'Conversion rate', 'Revenue',
        'Earnings per click', 'Revenue per 1,000 who saw',
      ]);
      expect(cells(rowHeaded(table, 'hero'))).toEqual(['3', '33%', '1', '1', '100%', '1', '100%', '40.00 USD', '40.00 USD', '13,333.33 USD']);
      expect(cells(rowHeaded(table, 'bonus'))).toEqual(['1', '0%', '0', '0', '0%', '0', '–', '–', '–', '–']);
      expect(cells(rowHeaded(table, 'explainer'))).toEqual(['0', '–', '0', '0', '0%', '0', '–', '–', '–', '–']);
      expect(cells(rowHeaded(table, 'All placements'))).toEqual(['', '', '1', '1', '100%', '1', '100%', '40.00 USD', '40.00 USD', '']);
    });

    it('says what share of the views the reach rests on, beside the placements and the pages', async () => {
      const lines = (await adminPage()).all('p.coverage').map((line) => line.text());
      expect(lines).toEqual(['Reach rests on 3 leave reports for 5 views (60%).', 'Reach rests on 3 leave reports for 5 views (60%).']);
    });

    it('shows each page\'s sections in page order with the share of its reporting visitors who reached each, as text and a hidden bar', async () => {
      const home = reachOf(await adminPage(), '/');
      // Each read 42 s: the report places its quantiles within the 40–50 s bucket (server/dayCounts/leaveDimensions.ts).
      expect(home.one('p').text()).toBe('3 visitors reported leaving it. Engaged time: median 45 s, upper quartile 48 s.');
      const table = tableCaptioned(home, 'Reach of /');
      expect(table.all('tbody th[scope="row"]').map((cell) => cell.text())).toEqual(homeSections);
      expect(cells(rowHeaded(table, 'hero'))).toEqual(['100%']);
      expect(cells(rowHeaded(table, 'what-is'))).toEqual(['67%']);
      expect(cells(rowHeaded(table, 'how-it-works'))).toEqual(['33%']);
      expect(cells(rowHeaded(table, 'bonus'))).toEqual(['33%']);
      const bars = assertSelector(table, 'td .reach-bar[aria-hidden="true"]', homeSections.length);
      expect(bars.map((bar) => bar.one('span').attr('class'))).toEqual(['reach-100', 'reach-67', 'reach-33', 'reach-33', 'reach-33', 'reach-33', 'reach-33']);
    });

    it('says in one line that a page viewed without a leave report has none, with no bars', async () => {
      const about = reachOf(await adminPage(), '/about-us');
      expect(about.text()).toBe('/about-us No leave report from this page in this range.');
      expect(about.all('table')).toEqual([]);
    });
  });

  describe('when no leave report arrived', () => {
    it('says reach appears once browsers send leave reports, and shows no bars', async () => {
      await view('a');
      const page = await adminPage();
      expect(page.all('p.coverage').map((line) => line.text())).toEqual(
        Array(2).fill('No leave report in this range: reach appears once visitors’ browsers send them.'),
      );
      expect(page.all('section.reach-page')).toEqual([]);
      expect(cells(rowHeaded(tableCaptioned(page, 'Clicks and conversions by placement'), 'hero'))).toEqual(['0', '–', '0', '0', '–', '0', '–', '–', '–', '–']);
    });
  });
});
