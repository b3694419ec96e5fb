import type { Page } from 'puppeteer-core';
import { about } from '../../shared/content/about';
import { homeMeta } from '../../shared/content/home';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { terms } from '../../shared/content/terms';
import { useBrowserAndSite, waitForIslands, type PageProblems } from '../support/browser';

const context = useBrowserAndSite();
let page: Page;
let problems: PageProblems;

afterEach(async () => {
  expect(problems.messages).toEqual([]);
  await page.close();
});

type Marked = Window & { documentMarker?: number };

async function open(path: string) {
  ({ page, problems } = await context.open(path));
  await page.evaluate(() => ((window as Marked).documentMarker = 42));
}

/** True while no full load has happened since open(): the marker lives on window. */
const sameDocument = () => page.evaluate(() => (window as Marked).documentMarker === 42);

async function arrivedAt(path: string, title: string) {
  await page.waitForFunction((expected) => document.title === expected, {}, title);
  expect(new URL(page.url()).pathname).toBe(path);
  await waitForIslands(page);
}

const head = () =>
  page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
    canonical: document.querySelectorAll('link[rel="canonical"]').length === 1 ? document.querySelector('link[rel="canonical"]')?.getAttribute('href') : 'duplicated',
    ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
  }));

describe('in-place navigation', () => {
  it.each([
    ['the top bar link', '/', '.top-bar__link[href="/about-us"]', '/about-us', about.title],
    ['Back to Home', '/about-us', '.prose-page > .back-link', '/', homeMeta.title],
    ['the footer privacy link', '/', '.site-footer a[href="/privacy-policy"]', '/privacy-policy', privacyPolicy.title],
    ['the footer terms link', '/about-us', '.site-footer a[href="/terms-conditions"]', '/terms-conditions', terms.title],
    ['the brand link', '/privacy-policy', '.top-bar__brand', '/', homeMeta.title],
    ['the 404 page’s home link', '/no-such-page', '.error-page a[href="/"]', '/', homeMeta.title],
  ])('follows %s without reloading the document', async (_name, from, selector, to, title) => {
    await open(from);
    await page.click(selector);
    await arrivedAt(to, title);
    expect(await sameDocument()).toBe(true);
  });

  it('replaces the title, description, canonical and Open Graph tags', async () => {
    await open('/');
    await page.click('.site-footer a[href="/terms-conditions"]');
    await arrivedAt('/terms-conditions', terms.title);
    expect(await head()).toEqual({
      title: terms.title,
      description: terms.description,
      canonical: `${context.site.url}/terms-conditions`,
      ogUrl: `${context.site.url}/terms-conditions`,
      ogTitle: terms.title,
    });
  });

  it('hydrates the islands of the new page and leaves none of the old behind', async () => {
    await open('/');
    await page.click('.top-bar__link[href="/about-us"]');
    await arrivedAt('/about-us', about.title);
    expect(await page.$$eval('[data-island]', (islands) => islands.map((island) => [island.getAttribute('data-island'), island.getAttribute('data-hydrated')]))).toEqual([['TopBar', 'true']]);
    await page.click('.top-bar__link[href="/#faq"]');
    await arrivedAt('/', homeMeta.title);
    expect(await page.$$eval('[data-island]', (islands) => islands.map((island) => island.getAttribute('data-island')))).toEqual(['TopBar', 'ReviewCarousel']);
    await page.waitForFunction(() => document.querySelector('.carousel')?.getAttribute('data-rotating') === 'true');
  });

  it('moves focus to the new page’s heading and announces the new page', async () => {
    await open('/');
    await page.click('.site-footer a[href="/privacy-policy"]');
    await arrivedAt('/privacy-policy', privacyPolicy.title);
    expect(await page.evaluate(() => document.activeElement === document.querySelector('main h1'))).toBe(true);
    expect(await page.$eval('[data-route-announcer]', (element) => [element.textContent, element.getAttribute('aria-live')])).toEqual([privacyPolicy.title, 'assertive']);
  });

  it('lands a home section link from another page on the section, just below the bar', async () => {
    await open('/about-us');
    await page.click('.top-bar__link[href="/#faq"]');
    await arrivedAt('/', homeMeta.title);
    expect(page.url()).toBe(`${context.site.url}/#faq`);
    const offset = await page.evaluate(() => document.querySelector('#faq h2')!.getBoundingClientRect().top - document.querySelector('.top-bar')!.getBoundingClientRect().bottom);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(120);
    expect(await sameDocument()).toBe(true);
  });

  it('goes Back and Forward to the right page and scroll position', async () => {
    await open('/privacy-policy');
    await page.evaluate(() => window.scrollTo({ top: 900, behavior: 'instant' }));
    await page.waitForFunction(() => window.scrollY === 900);
    // The top bar is fixed, so clicking it scrolls nothing before the navigation.
    await page.click('.top-bar__link[href="/about-us"]');
    await arrivedAt('/about-us', about.title);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.evaluate(() => history.back());
    await arrivedAt('/privacy-policy', privacyPolicy.title);
    await page.waitForFunction(() => window.scrollY === 900);

    await page.evaluate(() => history.forward());
    await arrivedAt('/about-us', about.title);
    await page.waitForFunction(() => window.scrollY === 0);

    await page.evaluate(() => history.back());
    await arrivedAt('/privacy-policy', privacyPolicy.title);
    await page.waitForFunction(() => window.scrollY === 900);
    expect(await sameDocument()).toBe(true);
  });

  it('leaves Ctrl+click to the browser (a new tab), and the page stays as it was', async () => {
    await open('/');
    const newTarget = new Promise((resolve) => context.browser.once('targetcreated', resolve));
    await page.keyboard.down('Control');
    await page.click('.top-bar__link[href="/about-us"]');
    await page.keyboard.up('Control');
    await newTarget;
    expect(new URL(page.url()).pathname).toBe('/');
    for (const other of await context.browser.pages()) if (other !== page) await other.close();
  });

  it('falls back to a full page load when fetching the page fails', async () => {
    await open('/');
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      if (request.resourceType() === 'fetch') void request.abort('failed');
      else void request.continue();
    });
    const navigation = page.waitForNavigation({ waitUntil: 'load' });
    await page.click('.site-footer a[href="/terms-conditions"]');
    await navigation;
    await arrivedAt('/terms-conditions', terms.title);
    expect(await sameDocument()).toBe(false);
    // The aborted fetch shows up as a failed request; that is the point of this test.
    problems.messages = problems.messages.filter((message) => !message.includes('/terms-conditions'));
  });
});
