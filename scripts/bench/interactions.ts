import type { Browser } from 'puppeteer-core';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { launchBrowser, viewports } from '../../tests/support/browser';
import { startBarePage } from './barePage';
import { calibrate, indexNow } from './deviceRate';
import { median } from './percentiles';

/**
 * Part 2c: the first tap at first paint, on a phone. The run first finds the CPU slowdowns that make this
 * machine, now, as fast as a low-end phone and a mid-tier one by Lighthouse's BenchmarkIndex (deviceRate.ts).
 * Each tap then opens a page in a fresh browser context at 375 px at one of those rates, and taps the control
 * the moment the browser reports the first contentful paint (its own lifecycle event, which needs nothing
 * from the busy page), as a visitor who taps as soon as something shows. The figure is the interaction's
 * duration by the page's Event Timing (what INP is made of): from the touch to the next frame painted.
 * An FAQ question and the carousel's arrows are not on the first screen: the page is opened at their
 * section, and the tap comes as soon as the control has come to rest in view (and the carousel has hydrated).
 * The same taps on the bare page (its popover button, its <details>) are the floor, measured in the same run.
 */

interface Control {
  name: string;
  /** Path and fragment on the site; null for the bare page. */
  path: string | null;
  selector: string;
  /**
   * Tap as soon as the control has come to rest in view (the page scrolls smoothly to its fragment) and,
   * inside an island, hydrated: not at first paint, when it is not there yet.
   */
  whenInView?: boolean;
  /** True once the tap has done what it is for: a tap that missed must not pass for a fast one. */
  answered: string;
}

const controls: Control[] = [
  { name: 'menu button', path: '/', selector: '.top-bar__menu-button', answered: ".top-bar__menu:popover-open" },
  { name: 'FAQ question', path: '/#faq', selector: '#faq summary', whenInView: true, answered: '#faq details[open]' },
  { name: 'carousel next', path: '/#reviews', selector: '.carousel__arrow--next', whenInView: true, answered: '.carousel:not([data-index="0"])' },
  { name: 'bare: popover button', path: null, selector: '#menu-button', answered: '#menu:popover-open' },
  { name: 'bare: <details>', path: null, selector: '#question summary', answered: '#question[open]' },
];

const runs = 9;
const personUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** One first tap: the interaction's duration in ms (0 when it took under Event Timing's 16 ms floor); NaN when the tap missed. */
async function firstTap(browser: Browser, url: string, control: Control, slowdown: number): Promise<number> {
  const context = await browser.createBrowserContext();
  try {
    let point: { x: number; y: number } | undefined;
    if (!control.whenInView) {
      // Where the control is, from a settled page: the tap goes there the moment the new page first paints.
      const scout = await context.newPage();
      await scout.setViewport(viewports.phone);
      await scout.goto(url, { waitUntil: 'load' });
      const box = (await (await scout.$(control.selector))!.boundingBox())!;
      point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await scout.close();
    }
    const page = await context.newPage();
    await page.setUserAgent(personUserAgent);
    await page.setViewport(viewports.phone);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await page.evaluateOnNewDocument((selector: string) => {
      const seen: number[] = ((window as unknown as { benchTaps: number[] }).benchTaps = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number; target?: Element | null })[]) {
          if (entry.interactionId && entry.target?.closest(selector)) seen.push(entry.duration);
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    }, control.selector);
    await cdp.send('Page.enable');
    await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
    const painted = new Promise<void>((resolve) => cdp.on('Page.lifecycleEvent', (event: { name: string }) => event.name === 'firstContentfulPaint' && resolve()));
    const loaded = page.goto(url, { waitUntil: 'load' });
    if (point) await painted;
    else {
      await loaded;
      // In view, hydrated if inside an island, and not moved for 3 frames (the fragment's smooth scroll is over).
      await page.evaluate(
        async (selector: string, hydrated: string) => {
          let last = '';
          for (let still = 0; still < 3; ) {
            await new Promise((resolve) => requestAnimationFrame(resolve));
            const box = document.querySelector(selector)?.getBoundingClientRect();
            const island = document.querySelector(selector)?.closest(`[${hydrated}]`);
            const place = box ? `${box.top},${box.left}` : '';
            const ready = box !== undefined && box.top >= 0 && box.bottom <= innerHeight && (!island || island.getAttribute(hydrated) === 'true');
            still = ready && place === last ? still + 1 : 0;
            last = place;
          }
        },
        control.selector,
        clientAttributes.hydrated,
      );
      const box = (await (await page.$(control.selector))!.boundingBox())!;
      point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await loaded;
    // The entry arrives once the frame after the tap has painted; one more frame and a task make sure.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const durations = await page.evaluate(() => (window as unknown as { benchTaps: number[] }).benchTaps);
    if (!(await page.$(control.answered))) return NaN;
    return Math.max(0, ...durations);
  } finally {
    await context.close();
  }
}

export async function benchInteractions(base: string) {
  const bare = await startBarePage();
  const browser = await launchBrowser();
  try {
    const { machineIndex, rates } = await calibrate(browser);
    const shownRate = (rate: { name: string; rate: number; index: number }) => `${rate.name}: ${rate.rate}x, index ${rate.index.toFixed(0)}`;
    console.log(`\nFirst tap at first paint at 375 px (Event Timing duration, median of ${runs} with the range; the bare page is the floor)`);
    console.log(`This machine's BenchmarkIndex: ${machineIndex.toFixed(0)}; CPU slowed to a phone's: ${rates.map(shownRate).join('; ')}`);
    console.log(`${'control'.padEnd(24)} ${rates.map((rate) => rate.name.padEnd(24)).join(' ')}`);
    for (const control of controls) {
      const url = control.path === null ? bare.url : `${base}${control.path}`;
      const cells: string[] = [];
      for (const { rate } of rates) {
        const figures: number[] = [];
        let missed = 0;
        for (let run = 0; run < runs; run++) {
          const figure = await firstTap(browser, url, control, rate);
          if (Number.isNaN(figure)) missed++;
          else figures.push(figure);
        }
        const shown = (ms: number) => (ms < 16 ? '<16' : ms.toFixed(0));
        cells.push(figures.length === 0 ? 'every tap missed' : `${shown(median(figures)).padStart(4)} ms (${shown(Math.min(...figures))}–${shown(Math.max(...figures))})${missed ? `, ${missed} missed` : ''}`);
      }
      console.log(`${control.name.padEnd(24)} ${cells.map((cell) => cell.padEnd(24)).join(' ')}`);
    }
    // The machine is shared: how far it moved while the taps ran.
    const after = [];
    for (const rate of rates) after.push(`${rate.name} ${(await indexNow(browser, rate.rate)).toFixed(0)}`);
    console.log(`BenchmarkIndex at the same rates after the taps: ${after.join(', ')}`);
  } finally {
    await browser.close();
    await bare.close();
  }
}
