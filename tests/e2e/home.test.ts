import type { Page } from 'puppeteer-core';
import { useBrowserAndSite, viewports, type PageProblems, type Viewport } from '../support/browser';
import { testAffiliateUrl } from '../support/testApp';

const context = useBrowserAndSite();

interface Opened {
  page: Page;
  problems: PageProblems;
}

function openHome(viewport: Viewport, options: { reducedMotion?: boolean; javaScript?: boolean } = {}): Promise<Opened> {
  return context.open('/', { viewport, ...options });
}

/** Where a section's heading sits relative to the bottom of the fixed bar, in CSS pixels. */
function headingOffset(page: Page, id: string): Promise<number> {
  return page.evaluate((sectionId) => {
    const section = document.getElementById(sectionId)!;
    const heading = section.querySelector('h1, h2, h3')!;
    const bar = document.querySelector('.top-bar')!.getBoundingClientRect();
    return heading.getBoundingClientRect().top - bar.bottom;
  }, id);
}

/** Waits until a heading has come to rest just below the bar (smooth scrolling takes a moment). */
async function waitForLanding(page: Page, id: string) {
  await page.waitForFunction(
    (sectionId) => {
      const heading = document.getElementById(sectionId)!.querySelector('h1, h2, h3')!;
      const bar = document.querySelector('.top-bar')!.getBoundingClientRect();
      const offset = heading.getBoundingClientRect().top - bar.bottom;
      return offset >= 0 && offset <= 120;
    },
    { timeout: 5000 },
    id,
  );
}

const navTargets = [
  ['Home', 'hero'],
  ['How It Works', 'how-it-works'],
  ['Benefits', 'benefits'],
  ['Reviews', 'reviews'],
  ['FAQ', 'faq'],
  ['Check Auctions', 'check-auctions'],
] as const;

describe.each(Object.entries(viewports))('the home page at %s width', (name, viewport) => {
  let opened: Opened;
  beforeAll(async () => {
    opened = await openHome(viewport);
  });
  afterAll(async () => {
    expect(opened.problems.messages).toEqual([]);
    await opened.page.close();
  });

  it.each(navTargets)('scrolls to the section of the "%s" item with its heading just below the bar', async (label, id) => {
    const { page } = opened;
    if (name === 'phone') {
      await page.click('.top-bar__menu-button');
      await page.waitForSelector('.top-bar__menu:popover-open');
    }
    const [link] = await page.$$(`xpath/.//a[contains(@class,"top-bar__link") and normalize-space()="${label}"]`);
    await link!.click();
    await waitForLanding(page, id);
    expect(await headingOffset(page, id)).toBeGreaterThanOrEqual(0);
    expect(page.url()).toBe(`${context.site.url}/#${id}`);
    if (name === 'phone') expect(await page.$eval('.top-bar__menu', (menu) => menu.matches(':popover-open'))).toBe(false);
    await page.waitForFunction(
      (target) => document.querySelector('.top-bar__link[aria-current]')?.getAttribute('href') === `#${target}`,
      { timeout: 3000 },
      id,
    );
  });

  it('has a fixed top bar that stays at the top while scrolling', async () => {
    const { page } = opened;
    await page.evaluate(() => window.scrollTo(0, 3000));
    expect(await page.$eval('.top-bar', (element) => [getComputedStyle(element).position, element.getBoundingClientRect().top])).toEqual(['fixed', 0]);
  });

  it('scrolls to the bonus section from the hero’s text button', async () => {
    const { page } = opened;
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('.hero .text-button');
    await waitForLanding(page, 'bonus');
  });
});

describe('the sections that wait to be laid out (client/sectionsInTurn.ts)', () => {
  const waiting = (page: Page) => page.$$eval('[data-layout-waits]', (sections) => sections.map((section) => section.id));
  const contentVisibility = (page: Page) => page.$$eval('.section', (sections) => sections.map((section) => getComputedStyle(section).contentVisibility));
  /**
   * Keeps the sections' content-visibility at a moment of the page's loading: as parsed, before the entry (a
   * deferred module) runs, or at DOMContentLoaded, after it ran and before the browser scrolls to a fragment.
   */
  const recordFirstStyles = (moment: 'parsed' | 'DOMContentLoaded') => (tab: Page) =>
    tab.evaluateOnNewDocument((when: string) => {
      const record = () => ((window as unknown as { firstStyles: string[] }).firstStyles = [...document.querySelectorAll('.section')].map((section) => getComputedStyle(section).contentVisibility));
      if (when === 'parsed') document.addEventListener('readystatechange', () => document.readyState === 'interactive' && record());
      else document.addEventListener('DOMContentLoaded', record);
    }, moment);
  const firstStyles = (page: Page) => page.evaluate(() => (window as unknown as { firstStyles: string[] }).firstStyles);

  it('lands exactly on a section chosen from the menu before any section is laid out', async () => {
    // No idle period ever comes, so only the link's own click can lay the sections out.
    const { page, problems } = await context.open('/', {
      viewport: viewports.phone,
      islands: 'scheduled',
      sections: 'as they come',
      beforeGoto: async (tab) => {
        await tab.evaluateOnNewDocument(() => Object.defineProperty(window, 'requestIdleCallback', { value: () => 0 }));
        await recordFirstStyles('parsed')(tab);
      },
    });
    // From the first layout on: the server marked them.
    expect(await firstStyles(page)).toEqual(Array(6).fill('auto'));
    expect(await waiting(page)).toEqual(['what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus']);
    await page.tap('.top-bar__menu-button');
    await page.waitForSelector('.top-bar__menu:popover-open');
    await page.click('.top-bar__link[href="#faq"]');
    expect(await waiting(page)).toEqual([]);
    await waitForLanding(page, 'faq');
    // Come to rest: the heading stays where it landed, just below the bar.
    await page.waitForFunction(() => new Promise((resolve) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => resolve(scrollY === y))); }), { polling: 100 });
    const offset = await headingOffset(page, 'faq');
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(120);
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it.each(Object.entries(viewports))('lays every section out for good once the page is idle, at %s width', async (_name, viewport) => {
    const { page, problems } = await context.open('/', { viewport, islands: 'scheduled', sections: 'as they come' });
    await page.waitForFunction(() => document.querySelectorAll('[data-layout-waits]').length === 0, { timeout: 10_000 });
    expect(await contentVisibility(page)).toEqual(Array(6).fill('visible'));
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it('waits for nothing on a page opened at a section, which the browser scrolls to as it loads', async () => {
    const { page, problems } = await context.open('/#faq', {
      viewport: viewports.phone,
      islands: 'scheduled',
      sections: 'as they come',
      beforeGoto: recordFirstStyles('DOMContentLoaded'),
    });
    // The entry took the marks away before the browser scrolls to the fragment.
    expect(await firstStyles(page)).toEqual(Array(6).fill('visible'));
    expect(await waiting(page)).toEqual([]);
    await waitForLanding(page, 'faq');
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it('waits for nothing without JavaScript, where nothing would lay the sections out for good', async () => {
    const { page, problems } = await context.open('/', { viewport: viewports.phone, javaScript: false });
    expect(await waiting(page)).toHaveLength(6);
    expect(await contentVisibility(page)).toEqual(Array(6).fill('visible'));
    expect(problems.messages).toEqual([]);
    await page.close();
  });
});

describe('scrolling under prefers-reduced-motion', () => {
  it('jumps at once instead of smooth-scrolling', async () => {
    const { page, problems } = await openHome(viewports.desktop, { reducedMotion: true });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    await page.click('.top-bar__link[href="#faq"]');
    const offset = await headingOffset(page, 'faq');
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(120);
    expect(problems.messages).toEqual([]);
    await page.close();
  });
});

describe.each(Object.entries(viewports))('the FAQ accordion at %s width', (_name, viewport) => {
  let opened: Opened;
  beforeAll(async () => {
    opened = await openHome(viewport);
  });
  afterAll(() => opened.page.close());

  const openStates = () => opened.page.$$eval('#faq details', (items) => items.map((item) => (item as HTMLDetailsElement).open));

  it('starts with every item closed', async () => {
    expect(await openStates()).toEqual([false, false, false, false, false]);
  });

  it('opens a closed item and closes the other, and closes the open item when clicked', async () => {
    const summaries = await opened.page.$$('#faq summary');
    await summaries[0]!.click();
    expect(await openStates()).toEqual([true, false, false, false, false]);
    await summaries[2]!.click();
    expect(await openStates()).toEqual([false, false, true, false, false]);
    await summaries[2]!.click();
    expect(await openStates()).toEqual([false, false, false, false, false]);
  });

  it('works from the keyboard', async () => {
    await opened.page.focus('#faq summary');
    await opened.page.keyboard.press('Enter');
    expect(await openStates()).toEqual([true, false, false, false, false]);
    await opened.page.keyboard.press('Space');
    expect(await openStates()).toEqual([false, false, false, false, false]);
  });
});

describe('the affiliate links in a browser', () => {
  it('open the configured address in a new tab, leaving this page where it was', async () => {
    const { page } = await openHome(viewports.desktop);
    // The partner address is not reachable here, so the new tab shows an error page; its target URL is what matters.
    const popup = new Promise<Page | null>((resolve) => page.once('popup', resolve));
    await page.click('a[data-placement="hero"]');
    const opened = (await popup)!;
    await context.browser.waitForTarget((target) => target === opened.target() && target.url() === testAffiliateUrl, { timeout: 5000 });
    expect(page.url()).toBe(`${context.site.url}/`);
    await opened.close();
    await page.close();
  });
});

describe('the home page without JavaScript', () => {
  it('shows the first review image, every FAQ answer on demand, and real links', async () => {
    const { page } = await openHome(viewports.phone, { javaScript: false });
    const visible = await page.$$eval('.carousel__slide', (slides) => slides.map((slide) => getComputedStyle(slide).visibility));
    expect(visible).toEqual(['visible', 'hidden', 'hidden', 'hidden', 'hidden', 'hidden']);
    await page.click('#faq summary');
    expect(await page.$eval('#faq details', (item) => (item as HTMLDetailsElement).open)).toBe(true);
    const hrefs = await page.$$eval('a[data-placement]', (links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toHaveLength(6);
    await page.close();
  });
});

describe('layout stability', () => {
  it.each(Object.entries(viewports))('shifts no layout while the page loads and hydrates at %s width', async (_name, viewport) => {
    const { page } = await context.open('/', {
      viewport,
      waitUntil: 'networkidle0',
      beforeGoto: (tab) =>
        tab.evaluateOnNewDocument(() => {
          (window as unknown as { shifts: number }).shifts = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) (window as unknown as { shifts: number }).shifts += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
        }),
    });
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    await page.close();
  });
});
