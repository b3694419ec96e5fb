import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { createStatsStores } from '../../server/statsStores';
import { launchBrowser, viewports } from '../support/browser';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { startTestServer, type RunningServer } from '../support/testApp';
import { seedYearOfTraffic } from '../support/yearOfTraffic';

/**
 * Issue 30's "done when", in a browser: /admin over a year of generated rows (tests/support/yearOfTraffic.ts,
 * closed by the app's own jobs) answers "how are we doing" on the first screen at a phone's width and a
 * desk's, never scrolls sideways, and axe finds nothing serious. ADMIN_SCREENSHOTS=DIR also saves each
 * width's first screen and whole page there, to look at.
 */
const adminToken = 'glance-admin-token-0123456789';
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const screenshots = process.env.ADMIN_SCREENSHOTS;

let browser: Browser;
let store: TestEngineDatabase;
let site: RunningServer;
beforeAll(async () => {
  store = await openTestDatabase('sqlite');
  await seedYearOfTraffic(store.database.db);
  site = await startTestServer({ ADMIN_TOKEN: adminToken }, { stores: createStatsStores(store.database) });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await store?.close();
});

async function openAdmin(viewport: (typeof viewports)[keyof typeof viewports], query = 'days=365'): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.authenticate({ username: 'operator', password: adminToken });
  const response = await page.goto(`${site.url}/admin?${query}`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return page;
}

describe.each(Object.entries(viewports))('/admin for a year at %s width', (name, viewport) => {
  let page: Page;
  beforeAll(async () => {
    page = await openAdmin(viewport);
    if (screenshots) {
      mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: path.join(screenshots, `admin-${viewport.width}-first-screen.png`) });
      await page.screenshot({ path: path.join(screenshots, `admin-${viewport.width}-full.png`), fullPage: true });
    }
  });
  afterAll(() => page?.close());

  it('shows the headline figures and the main chart within the first screen', async () => {
    const boxes = await page.evaluate(() =>
      ['ol.funnel', 'svg.main-chart'].map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return { selector, top: box.top, bottom: box.bottom, height: box.height };
      }),
    );
    for (const box of boxes) {
      expect(box.height).toBeGreaterThan(0);
      expect({ selector: box.selector, within: box.top >= 0 && box.bottom <= viewport.height }).toEqual({ selector: box.selector, within: true });
    }
    // Each headline figure says its change against the previous year, in words as well as colour.
    const changes = await page.$$eval('ol.funnel .change', (spans) => spans.map((span) => span.textContent));
    expect(changes.length).toBeGreaterThanOrEqual(4);
    for (const change of changes) expect(change).toMatch(/^[+-]?\d[\d,]*% vs the previous 365 days$/);
  });

  it('never scrolls the page sideways, the wide tables scrolling inside their cards', async () => {
    // Open every fold, so the tables behind them are laid out and measured too.
    await page.$$eval('details', (folds) => folds.forEach((fold) => fold.setAttribute('open', '')));
    expect(await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))).toEqual({
      scrollWidth: viewport.width,
      innerWidth: viewport.width,
    });
  });

  it(`finds no serious or critical accessibility violation at ${name} width`, async () => {
    await page.evaluate(axeSource);
    const found = await page.evaluate(async () => {
      type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
      const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations;
    });
    const serious = found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
