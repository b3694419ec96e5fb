import type { CDPSession, Page } from 'puppeteer-core';
import { useBrowserAndSite, viewports, watchProblems, type Viewport } from '../support/browser';

const context = useBrowserAndSite();

async function openPage(path: string, viewport: Viewport): Promise<Page> {
  return (await context.open(path, { viewport, reducedMotion: true })).page;
}

/** The focused element, described, with whether it shows a visible focus indicator. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const label = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
    return { tag: element.tagName, className: element.className, label, indicator: outline, focusVisible: element.matches(':focus-visible') };
  });

describe('keyboard-only use', () => {
  it('offers a skip link first, which moves focus to the main content', async () => {
    const page = await openPage('/', viewports.desktop);
    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip.className).toBe('skip-link');
    expect(await page.$eval('.skip-link', (link) => link.getBoundingClientRect().top >= 0)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.close();
  });

  it.each(Object.entries(viewports))('shows a visible focus indicator on every stop of the home page at %s width', async (_name, viewport) => {
    const page = await openPage('/', viewport);
    const problems = watchProblems(page);
    const stops: Awaited<ReturnType<typeof focused>>[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const stop = await focused(page);
      if (stop.tag === 'BODY') break;
      stops.push(stop);
      // The affiliate links open new tabs only on activation; tabbing past them is harmless.
    }
    expect(stops.length).toBeGreaterThan(15);
    const missing = stops.filter((stop) => !stop.indicator || !stop.focusVisible).map((stop) => `${stop.tag}.${stop.className} "${stop.label}"`);
    expect(missing).toEqual([]);
    // Everything interactive on the page is in the walk.
    const labels = stops.map((stop) => stop.label);
    // Reduced motion is on, so the carousel starts paused and its button offers Play.
    expect(labels).toEqual(expect.arrayContaining(['Play slideshow', 'Previous review', 'Next review', 'Slide 1 of 6']));
    expect(stops.filter((stop) => stop.tag === 'SUMMARY')).toHaveLength(5);
    expect(problems.messages).toEqual([]);
    await page.close();
  });

  it('operates the menu: open with Enter, move into it, close with Escape back on the button', async () => {
    const page = await openPage('/', viewports.phone);
    await page.focus('.top-bar__menu-button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.top-bar__menu:popover-open');
    await page.keyboard.press('Tab');
    expect((await focused(page)).label).toBe('Home');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.top-bar__menu:not(:popover-open)');
    expect((await focused(page)).className).toBe('top-bar__menu-button');
    await page.close();
  });

  it('operates the carousel: Pause/Play, arrows and dots with Enter and Space', async () => {
    const page = await openPage('/', viewports.desktop);
    const index = () => page.$eval('.carousel', (element) => Number(element.getAttribute('data-index')));
    await page.focus('.carousel__play');
    expect((await focused(page)).label).toBe('Play slideshow');
    await page.keyboard.press('Enter');
    expect((await focused(page)).label).toBe('Pause slideshow');
    await page.keyboard.press('Space');
    expect((await focused(page)).label).toBe('Play slideshow');
    await page.keyboard.press('Tab');
    expect((await focused(page)).label).toBe('Previous review');
    await page.keyboard.press('Enter');
    expect(await index()).toBe(5);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused(page)).label).toBe('Slide 3 of 6');
    await page.keyboard.press('Space');
    expect(await index()).toBe(2);
    expect(await page.$eval('.carousel__dot:nth-child(3)', (dot) => dot.getAttribute('aria-current'))).toBe('true');
    await page.close();
  });
});

/** WCAG relative luminance and contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function forceState(client: CDPSession, selector: string, states: string[]) {
  const { root } = await client.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await client.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  await client.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: states });
}

/**
 * Text colour, the first solid background behind it, and the outline colour. Translucent tints
 * (alpha below 0.5, such as the current item's 8% white) are looked through to what lies beneath.
 */
const colours = (page: Page, selector: string) =>
  page.$eval(selector, (element) => {
    const solidBackground = (start: Element | null) => {
      for (let node = start; node; node = node.parentElement) {
        const bg = getComputedStyle(node).backgroundColor;
        const alpha = bg.startsWith('rgba') ? Number(bg.slice(bg.lastIndexOf(',') + 1, -1)) : 1;
        if (alpha >= 0.5) return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    const style = getComputedStyle(element);
    return { text: style.color, background: solidBackground(element), outline: style.outlineColor, parentBackground: solidBackground(element.parentElement) };
  });

describe('colour contrast in every state (WCAG 2.2 AA)', () => {
  const cases = [
    ['the primary button', '#hero a.button--primary'],
    ['a top bar link', '.top-bar__link[href="#faq"]'],
    ['the current top bar item', '.top-bar__link[aria-current]'],
    ['a footer link', '.site-footer a[href="/privacy-policy"]'],
    ['an FAQ question', '#faq summary'],
    ['the hero text button', '.hero .text-button'],
    ['a carousel arrow', '.carousel__arrow--next'],
  ] as const;

  it.each(cases)('keeps %s readable at rest, on hover and on focus', async (_name, selector) => {
    const page = await openPage('/', viewports.desktop);
    const client = await page.createCDPSession();
    await client.send('DOM.enable');
    await client.send('CSS.enable');
    for (const states of [[], ['hover'], ['focus', 'focus-visible']]) {
      await forceState(client, selector, states);
      const { text, background, outline, parentBackground } = await colours(page, selector);
      // Text at least 4.5:1 (our smallest text here is normal weight); a focus ring at least 3:1 against what surrounds it.
      expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
      if (states.includes('focus')) expect(contrast(outline, parentBackground)).toBeGreaterThanOrEqual(3);
    }
    await page.close();
  });
});
