import type { Page } from 'puppeteer-core';
import { useBrowserAndSite, viewports, type PageProblems } from '../support/browser';

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

const expanded = () => page.$eval(button, (element) => element.getAttribute('aria-expanded'));
const menuVisible = () => page.$eval(menu, (element) => getComputedStyle(element).display !== 'none' && element.getBoundingClientRect().height > 0);

describe('the small-screen menu', () => {
  it('starts closed, with a labelled button that controls the menu', async () => {
    expect(await expanded()).toBe('false');
    expect(await menuVisible()).toBe(false);
    const { label, controls, menuId } = await page.evaluate(
      (b, m) => ({
        label: document.querySelector(b)!.getAttribute('aria-label'),
        controls: document.querySelector(b)!.getAttribute('aria-controls'),
        menuId: document.querySelector(m)!.id,
      }),
      button,
      menu,
    );
    expect(label).toBeTruthy();
    expect(controls).toBe(menuId);
  });

  it('opens and closes with the button', async () => {
    await page.click(button);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'true', {}, button);
    expect(await menuVisible()).toBe(true);
    await page.click(button);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'false', {}, button);
    expect(await menuVisible()).toBe(false);
  });

  it('closes on Escape and returns focus to the button', async () => {
    await page.focus(button);
    await page.keyboard.press('Enter');
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'true', {}, button);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'false', {}, button);
    expect(await menuVisible()).toBe(false);
    expect(await page.evaluate((b) => document.activeElement === document.querySelector(b), button)).toBe(true);
  });

  it('closes on a click outside it', async () => {
    await page.click(button);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'true', {}, button);
    await page.mouse.click(180, 700);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'false', {}, button);
    expect(await menuVisible()).toBe(false);
  });

  it('holds the same items as the desktop bar, and choosing one closes it', async () => {
    await page.click(button);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'true', {}, button);
    const labels = await page.$$eval(`${menu} a`, (links) => links.map((link) => link.textContent));
    expect(labels).toEqual(['Home', 'How It Works', 'Benefits', 'Reviews', 'FAQ', 'Check Auctions', 'About Us']);
    await page.click(`${menu} a[href="/about-us"]`);
    await page.waitForFunction((b) => document.querySelector(b)!.getAttribute('aria-expanded') === 'false', {}, button);
  });
});

describe('the desktop bar', () => {
  it('shows the items inline and no menu button', async () => {
    await page.setViewport(viewports.desktop);
    expect(await page.$eval(button, (element) => getComputedStyle(element).display)).toBe('none');
    expect(await menuVisible()).toBe(true);
  });
});
