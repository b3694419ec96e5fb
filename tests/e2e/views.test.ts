import type { Browser, Page } from 'puppeteer-core';
import { createStatsStores } from '../../server/statsStores';
import { affiliatePlacements, readClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { homeMeta } from '../../shared/content/home';
import { browserUserAgent } from '../support/beaconReports';
import { launchBrowser, openPage, viewports, type OpenPageOptions, type PageProblems } from '../support/browser';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { startTestServer, testAffiliateUrl, type RunningServer } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';

/**
 * The funnel's first steps in a real browser, with AFFILIATE_SUBID_PARAM=subid: one view report per page
 * view (in-place navigation included), each carrying the landing's source, and a click ID put into the
 * partner address's sub-ID at the moment of the click, which the click row keeps with that source.
 * (Headless Chromium names itself in its user agent and is not counted: these tests play a person.)
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

let store: TestEngineDatabase;
let site: RunningServer;
let page: Page;
let problems: PageProblems;
beforeEach(async () => {
  store = await openTestDatabase('sqlite');
  site = await startTestServer({ AFFILIATE_SUBID_PARAM: 'subid' }, { stores: createStatsStores(store.database) });
});
afterEach(async () => {
  expect(problems.messages).toEqual([]);
  await page.close();
  await site.close();
  await store.close();
});

const views = () => store.database.db.selectFrom('views').select(['page', 'referrer_host', 'source', 'medium', 'campaign']).orderBy('id').execute();
const clicks = () => store.database.db.selectFrom('clicks').select(['placement', 'via', 'click_id', 'source']).orderBy('id').execute();

/** Waits until the database holds `count` rows of a table, and gives them. */
const rowsOnceThere = <Row>(what: string, read: () => Promise<Row[]>, count: number) =>
  waitUntil(`${count} ${what}`, async () => {
    const rows = await read();
    return rows.length >= count && rows;
  });

async function land(path: string, options: OpenPageOptions = {}): Promise<void> {
  ({ page, problems } = await openPage(browser, site.url + path, { viewport: viewports.phone, userAgent: browserUserAgent, islands: 'scheduled', ...options }));
  // In-place navigation is installed after the first paint; its announcer says when.
  await page.waitForSelector('[data-route-announcer]');
}

/** Follows one affiliate link with a real click and gives the address the partner tab opened with. */
async function follow(placement: AffiliatePlacement, button: 'left' | 'middle' = 'left'): Promise<URL> {
  const partner = new URL(testAffiliateUrl).origin;
  const opened = browser.waitForTarget((target) => target.url().startsWith(partner), { timeout: 10_000 });
  const link = (await page.$(`a[data-placement="${placement}"]`))!;
  await link.scrollIntoView();
  await link.click({ button });
  const target = await opened;
  await (await target.page())?.close();
  return new URL(target.url());
}

describe('page views and click IDs in a browser', () => {
  it('reports the landing view with its source, medium and referring host, and each in-place view with the same source and no referrer', async () => {
    await land('/?utm_source=newsletter&utm_medium=email', { referer: 'http://news.example.com/issue-12' });
    expect(await rowsOnceThere('views', views, 1)).toEqual([{ page: '/', referrer_host: 'news.example.com', source: 'newsletter', medium: 'email', campaign: null }]);

    await page.evaluate(() => ((window as Window & { sameDocument?: boolean }).sameDocument = true));
    await page.click('.site-footer a[href="/privacy-policy"]');
    await page.waitForFunction((title) => document.title === title, {}, privacyPolicy.title);
    await page.goBack();
    await page.waitForFunction((title) => document.title === title, {}, homeMeta.title);
    expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);

    const inPlace = { referrer_host: null, source: 'newsletter', medium: 'email', campaign: null };
    expect((await rowsOnceThere('views', views, 3)).slice(1)).toEqual([
      { page: '/privacy-policy', ...inPlace },
      { page: '/', ...inPlace },
    ]);
  });

  it('opens each partner address with a fresh click ID of its placement in the sub-ID, the rest of the query as it was, and the click row keeps the ID and the source', async () => {
    await land('/?utm_source=newsletter&utm_medium=email');
    const seen = new Set<string>();
    for (const [index, placement] of affiliatePlacements.entries()) {
      const address = await follow(placement);
      const subid = address.searchParams.get('subid') ?? '';
      expect(readClickId(subid)?.placement).toBe(placement);
      expect([...address.searchParams.keys()].sort()).toEqual(['aff', 'campaign', 'subid']);
      expect([address.searchParams.get('aff'), address.searchParams.get('campaign')]).toEqual(['guide', 'spring']);
      seen.add(subid);
      const rows = await rowsOnceThere('clicks', clicks, index + 1);
      expect(rows[index]).toEqual({ placement, via: 'beacon', click_id: subid, source: 'newsletter' });
    }
    expect(seen.size).toBe(affiliatePlacements.length);
    // The landing view went too, with the same source.
    expect((await views())[0]).toEqual(expect.objectContaining({ page: '/', source: 'newsletter' }));
  });

  it('puts a click ID into the address a middle click opens in a background tab', async () => {
    await land('/');
    const address = await follow('start-learning', 'middle');
    const [row] = await rowsOnceThere('clicks', clicks, 1);
    expect(readClickId(address.searchParams.get('subid') ?? '')?.placement).toBe('start-learning');
    expect(row).toEqual({ placement: 'start-learning', via: 'beacon', click_id: address.searchParams.get('subid'), source: 'direct' });
  });

  it('credits a click after in-place navigation to the landing source', async () => {
    await land('/about-us?utm_source=partner-blog');
    await page.click('.prose-page > .back-link');
    await page.waitForFunction((title) => document.title === title, {}, homeMeta.title);
    const address = await follow('bonus');
    const [row] = await rowsOnceThere('clicks', clicks, 1);
    expect(row).toEqual({ placement: 'bonus', via: 'beacon', click_id: address.searchParams.get('subid'), source: 'partner-blog' });
  });

  it('lets the ping carry the click ID when sendBeacon refuses', async () => {
    await land('/', { beforeGoto: (tab) => tab.evaluateOnNewDocument(() => (Navigator.prototype.sendBeacon = () => false)) });
    const address = await follow('hero');
    const [row] = await rowsOnceThere('clicks', clicks, 1);
    expect(row).toEqual({ placement: 'hero', via: 'ping', click_id: address.searchParams.get('subid'), source: null });
    expect(readClickId(row!.click_id!)?.placement).toBe('hero');
  });

  it('sends no view and puts no click ID in the address for a visitor sending Global Privacy Control', async () => {
    const reports: string[] = [];
    await land('/?utm_source=newsletter', {
      beforeGoto: async (tab) => {
        tab.on('request', (request) => {
          if (new URL(request.url()).pathname === '/api/views') reports.push(request.url());
        });
        // A browser with Global Privacy Control says so to scripts and, in Sec-GPC, to the server (which then shows no experiment).
        await tab.evaluateOnNewDocument(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
        await tab.setExtraHTTPHeaders({ 'Sec-GPC': '1' });
      },
    });
    await page.click('.site-footer a[href="/privacy-policy"]');
    await page.waitForFunction((title) => document.title === title, {}, privacyPolicy.title);
    await page.click('.prose-page > .back-link');
    await page.waitForFunction((title) => document.title === title, {}, homeMeta.title);
    const address = await follow('explainer');
    expect(address.searchParams.get('subid')).toBe('explainer');
    expect(reports).toEqual([]);
    expect(await views()).toEqual([]);
  });

  it('records the leave report with its view: the same visitor, the sections down to the bonus, the bonus seen (the route and database, end to end)', async () => {
    await land('/');
    const [viewed] = await rowsOnceThere('views', views, 1);
    expect(viewed!.page).toBe('/');
    await page.evaluate(() => document.querySelector('a[data-placement="bonus"]')!.scrollIntoView({ block: 'center', behavior: 'instant' }));
    // The viewability rule asks for one second in view; half a second more for a slow machine.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const other = await browser.newPage();
    await other.bringToFront();
    await page.waitForFunction(() => document.visibilityState === 'hidden');
    await other.close();
    const leaves = () => store.database.db.selectFrom('leaves').select(['page', 'visitor', 'sections', 'seen', 'engaged_seconds']).execute();
    const [left, ...more] = await rowsOnceThere('leave reports', leaves, 1);
    expect(more).toEqual([]);
    const [view] = await store.database.db.selectFrom('views').select('visitor').execute();
    expect(left).toEqual({ page: '/', visitor: view!.visitor, sections: expect.stringMatching(/^hero .*bonus$/), seen: expect.stringMatching(/\bbonus$/), engaged_seconds: expect.anything() });
  });
});
