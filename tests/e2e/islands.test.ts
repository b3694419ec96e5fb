import type { Page } from 'puppeteer-core';
import { pagePaths } from '../../shared/routes';
import { useBrowserAndSite, viewports, waitForIslands, watchProblems } from '../support/browser';

const context = useBrowserAndSite();

/** Whether React has attached to a DOM node (it stores its fiber under a __reactFiber$ key). */
async function isReactManaged(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$')));
}

describe.each(Object.entries(viewports))('at %s width', (_name, viewport) => {
  describe.each([...pagePaths, '/no-such-page'])('the page %s', (path) => {
    let page: Page;
    let problems: ReturnType<typeof watchProblems>;

    beforeAll(async () => {
      page = await context.browser.newPage();
      await page.setViewport(viewport);
      problems = watchProblems(page);
      await page.goto(context.site.url + path, { waitUntil: 'load' });
      await waitForIslands(page);
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
