import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { createStatsStores } from '../../server/statsStores';
import { affiliatePlacements, readClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { homeMeta } from '../../shared/content/home';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { paths } from '../../shared/routes';
import { browserUserAgent } from '../support/beaconReports';
import { launchBrowser, openPage, viewports, type PageProblems } from '../support/browser';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { parseHtml, type HtmlNode } from '../support/html';
import { standInNetwork } from '../support/standInNetwork';
import { startTestServer, testAffiliateUrl, type RunningServer } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';

/**
 * The whole funnel, as the issue tells it: a person lands from a newsletter, moves about the site in
 * place, follows every affiliate button; the network reports a sale for each click by its sub-ID; /admin
 * shows each sale under the button that earned it and under the newsletter that brought the visitor.
 */
const conversionsKey = 'funnel-test-key-0123456789abcdef';
const adminToken = 'funnel-admin-token-0123456789';
/** A different commission per placement, so a sale credited to the wrong button shows. */
const payouts: Record<AffiliatePlacement, string> = {
  hero: '10.00',
  explainer: '11.00',
  'start-learning': '12.00',
  'check-auctions-image': '13.00',
  'check-auctions-button': '14.00',
  bonus: '15.00',
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe.each(engines)('the funnel on %s', (engine) => {
  let store: TestEngineDatabase;
  let site: RunningServer;
  let page: Page;
  let problems: PageProblems;
  beforeEach(async () => {
    store = await openTestDatabase(engine);
    site = await startTestServer(
      { AFFILIATE_SUBID_PARAM: 'subid', CONVERSIONS_KEY: conversionsKey, ADMIN_TOKEN: adminToken },
      { stores: createStatsStores(store.database) },
    );
  });
  afterEach(async () => {
    await page?.close();
    await site.close();
    await store.close();
  });

  const db = () => store.database.db;
  const count = async (table: 'views' | 'clicks' | 'conversions') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('rows')).executeTakeFirstOrThrow()).rows);

  /** Follows one affiliate link with a real click and gives the address the partner tab opened with. */
  async function follow(placement: AffiliatePlacement): Promise<URL> {
    const partner = new URL(testAffiliateUrl).origin;
    const opened = browser.waitForTarget((target) => target.url().startsWith(partner), { timeout: 10_000 });
    const link = (await page.$(`a[data-placement="${placement}"]`))!;
    await link.scrollIntoView();
    await link.click();
    const target = await opened;
    await (await target.page())?.close();
    return new URL(target.url());
  }

  async function admin(): Promise<HtmlNode> {
    const response = await request(site.url).get('/admin').set('Authorization', `Bearer ${adminToken}`).expect(200);
    return parseHtml(response.text);
  }

  it('credits each postback to the placement clicked and to the newsletter that brought the visitor, in /admin', async () => {
    ({ page, problems } = await openPage(browser, `${site.url}/?utm_source=newsletter`, { viewport: viewports.phone, userAgent: browserUserAgent, islands: 'scheduled' }));
    await page.waitForSelector('[data-route-announcer]');
    await page.click(`.site-footer a[href="${paths.privacyPolicy}"]`);
    await page.waitForFunction((title) => document.title === title, {}, privacyPolicy.title);
    await page.goBack();
    await page.waitForFunction((title) => document.title === title, {}, homeMeta.title);
    await waitUntil('three page views', async () => (await count('views')) >= 3);

    const clickIds = new Map<AffiliatePlacement, string>();
    for (const placement of affiliatePlacements) {
      const address = await follow(placement);
      const clickId = address.searchParams.get('subid') ?? '';
      expect(readClickId(clickId)).toEqual({ clickId, placement });
      clickIds.set(placement, clickId);
    }
    await waitUntil('six clicks', async () => (await count('clicks')) >= 6);
    expect(await db().selectFrom('clicks').select(['placement', 'click_id', 'source']).orderBy('id').execute()).toEqual(
      affiliatePlacements.map((placement) => ({ placement, click_id: clickIds.get(placement), source: 'newsletter' })),
    );

    // The network reports one sale per click, by its own macros, over HTTP.
    const network = standInNetwork({ template: `${site.url}/api/conversions?key=${conversionsKey}&subid={subid}&tid={tid}&payout={payout}`, macro: (name) => `{${name}}` });
    for (const placement of affiliatePlacements) {
      expect(await network.send({ subid: clickIds.get(placement)!, tid: `SALE-${placement}`, payout: payouts[placement] })).toEqual({ status: 200, text: 'recorded' });
    }

    const html = await admin();
    const byPlacement = tableCaptioned(html, 'Clicks and conversions by placement');
    for (const placement of affiliatePlacements) {
      // Clicks, visitors, share, conversions, conversion rate, revenue, earnings per click (between the seen figures, which leave reports set).
      expect(cells(rowHeaded(byPlacement, placement)).slice(2, 9)).toEqual(['1', '1', '17%', '1', '100%', `${payouts[placement]} USD`, `${payouts[placement]} USD`]);
    }
    const bySource = tableCaptioned(html, 'Visitors, clicks and conversions by source');
    // Visitors, visitors who clicked, clicks, click-through rate, conversions, revenue: all of it the newsletter's.
    expect(bySource.all('tbody th[scope="row"]').map((cell) => cell.text())).toEqual(['newsletter']);
    expect(cells(rowHeaded(bySource, 'newsletter'))).toEqual(['1', '1', '6', '100%', '6', '75.00 USD']);
    expect(problems.messages).toEqual([]);
  }, 60_000);
});
