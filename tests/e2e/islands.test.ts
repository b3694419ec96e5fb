import type { Page } from 'puppeteer-core';
import { pagePaths } from '../../shared/routes';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { openPage, useBrowserAndSite, viewports, type OpenedPage, type PageProblems, type Viewport } from '../support/browser';

const context = useBrowserAndSite();
const staticPages = ['/privacy-policy', '/terms-conditions', '/about-us'];
const scriptBudget = 6 * 1024;

/** Whether React has attached to a DOM node (it stores its fiber under a __reactFiber$ key). */
async function isReactManaged(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$')));
}

const hydratedState = (page: Page, name: string) =>
  page.$eval(`[${clientAttributes.island}="${name}"]`, (element, hydrated) => element.getAttribute(hydrated), clientAttributes.hydrated);

const waitForHydrated = (page: Page, name: string) =>
  page.waitForSelector(`[${clientAttributes.island}="${name}"][${clientAttributes.hydrated}="true"]`, { timeout: 10_000 });

/** The scripts the page has fetched so far, by the browser's resource timing: URL path and bytes transferred. */
const scriptsFetched = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => ({ path: new URL(entry.name).pathname, transferred: (entry as PerformanceResourceTiming).transferSize }))
      .filter((entry) => entry.path.endsWith('.js')),
  );

describe.each(Object.entries(viewports))('at %s width', (_name, viewport) => {
  describe.each([...pagePaths, '/no-such-page'])('the page %s', (path) => {
    let page: Page;
    let problems: PageProblems;

    beforeAll(async () => {
      ({ page, problems } = await context.open(path, { viewport }));
    });

    afterAll(() => page.close());

    it('hydrates every island and marks it hydrated', async () => {
      const states = await page.$$eval('[data-island]', (elements) => elements.map((element) => element.getAttribute('data-hydrated')));
      expect(states.length).toBeGreaterThan(0);
      expect(states.every((state) => state === 'true')).toBe(true);
    });

    it('leaves everything outside the islands as static HTML', async () => {
      expect(await isReactManaged(page, '.top-bar__menu-button')).toBe(true);
      expect(await isReactManaged(page, 'main h1')).toBe(false);
      expect(await isReactManaged(page, 'footer')).toBe(false);
    });

    it('logs no console errors, hydration warnings or failed requests', () => {
      expect(problems.messages).toEqual([]);
    });
  });
});

describe('loading conditions', () => {
  /** A page in a fresh browser context, so nothing comes from the cache and resource timing sees every byte. */
  async function openFresh(path: string, viewport: Viewport = viewports.phone): Promise<OpenedPage & { close(): Promise<void> }> {
    const incognito = await context.browser.createBrowserContext();
    const opened = await openPage(incognito, context.site.url + path, { viewport, islands: 'scheduled', waitUntil: 'networkidle0' });
    return { ...opened, close: () => incognito.close() };
  }

  describe.each(staticPages)('on %s, while the visitor does nothing', (path) => {
    it(`fetches only the entry and the navigation module, at most ${scriptBudget / 1024} KB, and no React; the top bar waits`, async () => {
      const { page, problems, close } = await openFresh(path);
      const scripts = await scriptsFetched(page);
      expect(scripts.map((script) => script.path.replace(/-[A-Z0-9]+\.js$/, '.js')).sort()).toEqual(['/assets/main.js', '/assets/navigation.js']);
      expect(scripts.reduce((sum, script) => sum + script.transferred, 0)).toBeLessThanOrEqual(scriptBudget);
      expect(await hydratedState(page, 'TopBar')).toBe('false');
      expect(problems.messages).toEqual([]);
      await close();
    });
  });

  it('hydrates the top bar of a static page on the first tap, keeping open the menu the browser opened for it', async () => {
    const { page, problems, close } = await openFresh('/about-us');
    await page.tap('.top-bar__menu-button');
    expect(await page.$eval('.top-bar__menu', (menu) => menu.matches(':popover-open'))).toBe(true);
    await waitForHydrated(page, 'TopBar');
    // The island's own state (data-open) took the popover's.
    await page.waitForSelector('.top-bar__menu[data-open="true"]');
    expect(await page.$eval('.top-bar__menu', (menu) => menu.matches(':popover-open'))).toBe(true);
    expect((await scriptsFetched(page)).some((script) => script.path.startsWith('/assets/hydrateIsland-'))).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.top-bar__menu[data-open="false"]:not(:popover-open)');
    expect(problems.messages).toEqual([]);
    await close();
  });

  it('hydrates the top bar of a static page when keyboard focus reaches it', async () => {
    const { page, problems, close } = await openFresh('/privacy-policy', viewports.desktop);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
    expect(await hydratedState(page, 'TopBar')).toBe('false');
    await page.keyboard.press('Tab');
    await waitForHydrated(page, 'TopBar');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('top-bar__brand');
    expect(problems.messages).toEqual([]);
    await close();
  });

  it('on the home page at phone width, fetches no React while the visitor does nothing, and hydrates the top bar on the first tap', async () => {
    const { page, problems, close } = await openFresh('/', viewports.phone);
    // networkidle0 has passed: the page has loaded and been idle, and the top bar still waits.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    expect(await hydratedState(page, 'TopBar')).toBe('false');
    expect((await scriptsFetched(page)).some((script) => script.path.startsWith('/assets/hydrateIsland-'))).toBe(false);
    await page.tap('.top-bar__menu-button');
    expect(await page.$eval('.top-bar__menu', (menu) => menu.matches(':popover-open'))).toBe(true);
    await waitForHydrated(page, 'TopBar');
    expect(await page.$eval('.top-bar__menu', (menu) => menu.matches(':popover-open'))).toBe(true);
    expect(problems.messages).toEqual([]);
    await close();
  });

  it('on the home page at desktop width, hydrates the top bar once idle, and the carousel only as it nears the viewport', async () => {
    const { page, problems, close } = await openFresh('/', viewports.desktop);
    await waitForHydrated(page, 'TopBar');
    expect(await hydratedState(page, 'ReviewCarousel')).toBe('false');
    expect((await scriptsFetched(page)).some((script) => script.path.startsWith('/assets/ReviewCarousel-'))).toBe(false);
    // Without JavaScript's help the first slide already shows; the buttons wait, hidden, for hydration.
    expect(await page.$eval('.carousel__nav', (nav) => getComputedStyle(nav).visibility)).toBe('hidden');
    await page.$eval('#reviews', (reviews) => reviews.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await waitForHydrated(page, 'ReviewCarousel');
    expect(await page.$eval('.carousel__nav', (nav) => getComputedStyle(nav).visibility)).toBe('visible');
    expect((await scriptsFetched(page)).some((script) => script.path.startsWith('/assets/ReviewCarousel-'))).toBe(true);
    expect(problems.messages).toEqual([]);
    await close();
  });

  it('after an in-place navigation, schedules the new page’s islands under their own conditions and drops the old ones', async () => {
    const { page, problems, close } = await openFresh('/', viewports.desktop);
    await waitForHydrated(page, 'TopBar');
    await page.click('.site-footer a[href="/privacy-policy"]');
    await page.waitForFunction(() => location.pathname === '/privacy-policy' && document.querySelector('main h1') !== null);
    // The policy's bar waits for a visitor; the home page's islands are gone with their page.
    await page.waitForSelector(`[${clientAttributes.island}="TopBar"][${clientAttributes.hydrated}="false"]`);
    expect(await page.$$eval(`[${clientAttributes.island}]`, (islands) => islands.length)).toBe(1);
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => location.pathname === '/');
    await waitForHydrated(page, 'TopBar');
    expect(problems.messages).toEqual([]);
    await close();
  });
});
