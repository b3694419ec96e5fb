import type { Browser, Page } from 'puppeteer-core';
import { createStatsStores } from '../../server/statsStores';
import { affiliatePlacements, type AffiliatePlacement } from '../../shared/affiliate';
import { launchBrowser, openPage, viewports, watchProblems } from '../support/browser';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { startTestServer, testAffiliateUrl, type RunningServer } from '../support/testApp';

/** Headless Chromium names itself in its user agent and is (rightly) not counted; these tests play a person. */
const personUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Recorded {
  placement: string;
  page: string;
  via: string;
  device: string;
}

let store: TestEngineDatabase;
let site: RunningServer;
beforeEach(async () => {
  store = await openTestDatabase('sqlite');
  site = await startTestServer({}, { stores: createStatsStores(store.database) });
});
afterEach(async () => {
  await site.close();
  await store.close();
});

const recorded = (): Promise<Recorded[]> =>
  store.database.db.selectFrom('clicks').select(['placement', 'page', 'via', 'device']).orderBy('id').execute();

/** Waits until the server has recorded `count` clicks: beacons arrive on their own schedule. */
async function waitForClicks(count: number): Promise<Recorded[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await recorded();
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`expected ${count} recorded clicks, found ${rows.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The home page as a person's phone shows it; click reporting needs no island hydrated, so none is made to. */
async function openHome(options: { javaScript?: boolean } = {}): Promise<Page> {
  const { page } = await openPage(browser, `${site.url}/`, { viewport: viewports.phone, userAgent: personUserAgent, islands: 'scheduled', ...options });
  return page;
}

/**
 * Follows one affiliate link with a real click and closes the tab it opens. Only the partner's tab is
 * taken (another test's new page is never mistaken for it), and a click that opened none fails here, in
 * its own test, naming what the press landed on.
 */
async function follow(page: Page, placement: AffiliatePlacement, button: 'left' | 'middle' = 'left'): Promise<void> {
  await page.evaluate(() => {
    document.addEventListener('pointerdown', (event) => document.body.setAttribute('data-pressed', event.target instanceof Element ? event.target.outerHTML.slice(0, 120) : String(event.target)), { capture: true, once: true });
  });
  const opened = browser.waitForTarget((target) => target.url() === testAffiliateUrl, { timeout: 10_000 });
  const link = (await page.$(`a[data-placement="${placement}"]`))!;
  await link.scrollIntoView();
  await link.click({ button });
  const target = await opened.catch(async (error: unknown) => {
    const pressed = await page.$eval('body', (body) => body.getAttribute('data-pressed'));
    throw new Error(`a ${button} click on the ${placement} link opened no partner tab (the press landed on ${pressed ?? 'nothing'}): ${String(error)}`);
  });
  await (await target.page())?.close();
}

describe('counting affiliate clicks in a browser', () => {
  it('records one beacon per click on each of the six placements, and no second report by ping', async () => {
    const page = await openHome();
    const problems = watchProblems(page);
    for (const [index, placement] of affiliatePlacements.entries()) {
      await follow(page, placement);
      const rows = await waitForClicks(index + 1);
      expect(rows.at(-1)).toEqual({ placement, page: '/', via: 'beacon', device: 'mobile' });
    }
    // Each link's ping was dropped once its beacon was queued, before the browser read it.
    const pings = await page.$$eval('a[data-placement]', (links) => links.map((link) => link.getAttribute('ping')));
    expect(pings).toEqual(affiliatePlacements.map(() => null));
    expect(await recorded()).toHaveLength(6);
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it('never holds up the navigation: the click is not cancelled and the partner tab opens at once with the real address', async () => {
    const page = await openHome();
    await page.evaluate(() => {
      window.addEventListener('click', (event) => document.body.setAttribute('data-last-click-cancelled', String(event.defaultPrevented)));
    });
    const target = browser.waitForTarget((candidate) => candidate.url() === testAffiliateUrl, { timeout: 5000 });
    await (await page.$('a[data-placement="hero"]'))!.click();
    const tab = await (await target).page();
    expect(await page.$eval('body', (body) => body.getAttribute('data-last-click-cancelled'))).toBe('false');
    await tab?.close();
    await waitForClicks(1);
    await page.close();
  });

  it('counts a middle click, which opens the link in a background tab', async () => {
    const page = await openHome();
    await follow(page, 'bonus', 'middle');
    expect(await waitForClicks(1)).toEqual([{ placement: 'bonus', page: '/', via: 'beacon', device: 'mobile' }]);
    await page.close();
  });

  it('falls back to the link ping attribute when JavaScript is off', async () => {
    const page = await openHome({ javaScript: false });
    await follow(page, 'check-auctions-button');
    expect(await waitForClicks(1)).toEqual([{ placement: 'check-auctions-button', page: '/', via: 'ping', device: 'mobile' }]);
    await page.close();
  });

  it('does not count a headless browser that says what it is', async () => {
    const page = await browser.newPage();
    await page.goto(`${site.url}/`, { waitUntil: 'load' });
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/clicks'));
    await follow(page, 'hero');
    expect((await answered).status()).toBe(204);
    expect(await recorded()).toEqual([]);
    await page.close();
  });
});

describe('with CLICK_STATS=off in a browser', () => {
  it('sends no report at all', async () => {
    const off = await startTestServer({ CLICK_STATS: 'off' });
    const page = await browser.newPage();
    await page.setUserAgent(personUserAgent);
    const reports: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) reports.push(request.url());
    });
    await page.goto(`${off.url}/`, { waitUntil: 'load' });
    await follow(page, 'hero');
    // The page makes no report request of its own; a navigation-time ping would have been seen here too.
    await page.goto(`${off.url}/about-us`, { waitUntil: 'load' });
    expect(reports).toEqual([]);
    await page.close();
    await off.close();
  });
});
