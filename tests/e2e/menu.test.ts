import type { Page } from 'puppeteer-core';
import { useBrowserAndSite, viewports, type PageProblems } from '../support/browser';
import { waitUntil } from '../support/waitUntil';

const context = useBrowserAndSite();
let page: Page;
let problems: PageProblems;
const button = '.top-bar__menu-button';
const menu = '.top-bar__menu';

beforeEach(async () => {
  ({ page, problems } = await context.open('/about-us', { viewport: viewports.phone }));
});

afterEach(async () => {
  expect(problems.messages).toEqual([]);
  await page.close();
});

/**
 * The button's expanded state as assistive technology reads it, from Chromium's accessibility tree: with
 * popover support it comes from the popover the button targets, not from an aria-expanded attribute.
 */
async function expanded(): Promise<boolean> {
  const node = await page.accessibility.snapshot({ root: (await page.$(button))!, interestingOnly: false });
  return node?.expanded === true;
}
/** Waits until the button reads as expanded (or collapsed) to assistive technology. */
const untilExpanded = (wanted: boolean) => waitUntil(`the menu button to read as ${wanted ? 'expanded' : 'collapsed'}`, async () => (await expanded()) === wanted);
/** Whether the button's icon shows the cross of an open menu (its middle bar gone) rather than three bars. */
const iconIsCross = () => page.$eval(`${button} .top-bar__menu-icon`, (icon) => getComputedStyle(icon).backgroundColor === 'rgba(0, 0, 0, 0)');
const menuVisible = () => page.$eval(menu, (element) => getComputedStyle(element).display !== 'none' && element.getBoundingClientRect().height > 0);

describe('the small-screen menu', () => {
  it('starts closed, with a labelled button that controls the menu', async () => {
    expect(await expanded()).toBe(false);
    expect(await menuVisible()).toBe(false);
    const { label, controls, target, ariaExpanded, menuId } = await page.evaluate(
      (b, m) => ({
        label: document.querySelector(b)!.getAttribute('aria-label'),
        controls: document.querySelector(b)!.getAttribute('aria-controls'),
        target: document.querySelector(b)!.getAttribute('popovertarget'),
        ariaExpanded: document.querySelector(b)!.getAttribute('aria-expanded'),
        menuId: document.querySelector(m)!.id,
      }),
      button,
      menu,
    );
    expect(label).toBeTruthy();
    expect(controls).toBe(menuId);
    expect(target).toBe(menuId);
    // ARIA in HTML: no aria-expanded beside popovertarget, where the popover gives the state.
    expect(ariaExpanded).toBeNull();
  });

  it('opens and closes with the button, its icon a cross while open', async () => {
    expect(await iconIsCross()).toBe(false);
    await page.click(button);
    await untilExpanded(true);
    expect(await menuVisible()).toBe(true);
    expect(await iconIsCross()).toBe(true);
    await page.click(button);
    await untilExpanded(false);
    expect(await menuVisible()).toBe(false);
    expect(await iconIsCross()).toBe(false);
  });

  it('closes on Escape and returns focus to the button', async () => {
    await page.focus(button);
    await page.keyboard.press('Enter');
    await untilExpanded(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await untilExpanded(false);
    expect(await menuVisible()).toBe(false);
    expect(await page.evaluate((b) => document.activeElement === document.querySelector(b), button)).toBe(true);
  });

  it('closes on a click outside it', async () => {
    await page.click(button);
    await untilExpanded(true);
    await page.mouse.click(180, 700);
    await untilExpanded(false);
    expect(await menuVisible()).toBe(false);
  });

  it('holds the same items as the desktop bar, and choosing one closes it', async () => {
    await page.click(button);
    await untilExpanded(true);
    const labels = await page.$$eval(`${menu} a`, (links) => links.map((link) => link.textContent));
    expect(labels).toEqual(['Home', 'How It Works', 'Benefits', 'Reviews', 'FAQ', 'Check Auctions', 'About Us']);
    await page.click(`${menu} a[href="/about-us"]`);
    await untilExpanded(false);
  });
});

describe('the small-screen menu without popover support (before Chrome 114, Safari 17, Firefox 125)', () => {
  it('says aria-expanded itself once hydrated, in step with the menu it toggles', async () => {
    await page.close();
    ({ page, problems } = await context.open('/about-us', {
      viewport: viewports.phone,
      beforeGoto: (tab) => tab.evaluateOnNewDocument(() => void delete (HTMLElement.prototype as { popover?: unknown }).popover),
    }));
    // Chromium still knows popovertarget and reads the state from the popover, so only the attribute is checked here.
    const ariaExpanded = () => page.$eval(button, (element) => element.getAttribute('aria-expanded'));
    await waitUntil('the hydrated fallback to say aria-expanded="false"', async () => (await ariaExpanded()) === 'false');
    await page.click(button);
    await waitUntil('aria-expanded="true"', async () => (await ariaExpanded()) === 'true');
    expect(await menuVisible()).toBe(true);
    expect(await iconIsCross()).toBe(true);
    await page.keyboard.press('Escape');
    await waitUntil('aria-expanded="false"', async () => (await ariaExpanded()) === 'false');
    expect(await menuVisible()).toBe(false);
  });
});

describe('the desktop bar', () => {
  it('shows the items inline and no menu button', async () => {
    await page.setViewport(viewports.desktop);
    expect(await page.$eval(button, (element) => getComputedStyle(element).display)).toBe('none');
    expect(await menuVisible()).toBe(true);
  });
});
