import type { Browser } from 'puppeteer-core';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { launchBrowser, viewports } from '../../tests/support/browser';
import { startBarePage } from './barePage';
import { calibrate, indexNow, type DeviceRate } from './deviceRate';
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
 * The same taps on the bare page (its popover button, its <details>) are the floor, measured in the same run:
 * at each rate the controls take turns run by run, so a shared machine's drift falls on each alike.
 */

export interface Control {
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

/** A control's page: on the site, or the bare page for a control with no path. */
export const pageOf = (control: Control, base: string, bareUrl: string) => (control.path === null ? bareUrl : `${base}${control.path}`);

export const controls: Control[] = [
  { name: 'menu button', path: '/', selector: '.top-bar__menu-button', answered: ".top-bar__menu:popover-open" },
  { name: 'FAQ question', path: '/#faq', selector: '#faq summary', whenInView: true, answered: '#faq details[open]' },
  { name: 'carousel next', path: '/#reviews', selector: '.carousel__arrow--next', whenInView: true, answered: '.carousel:not([data-index="0"])' },
  { name: 'bare: popover button', path: null, selector: '#menu-button', answered: '#menu:popover-open' },
  { name: 'bare: <details>', path: null, selector: '#question summary', answered: '#question[open]' },
];

const runs = 9;
/** What a trace of a first tap records: the main thread's tasks and what they did, the page's loading and the input's way. */
const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'v8.execute', 'blink.user_timing', 'latencyInfo'];
const personUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** A first tap by Event Timing, in ms: its duration (0 when under Event Timing's 16 ms floor) and its three phases. */
export interface Tap {
  duration: number;
  /** From the touch to its first event's handlers: the tasks it waited behind. */
  inputDelay: number;
  processing: number;
  /** From the handlers' end to the frame painted. */
  presentation: number;
}

export interface Point {
  x: number;
  y: number;
}

/**
 * Where a control is at first paint, from a settled page in a browser context of its own (so nothing of it
 * is left in the tapped page's renderer): the tap goes there the moment the new page first paints. None for
 * a control tapped once in view, which is found then.
 */
export async function whereToTap(browser: Browser, url: string, control: Control): Promise<Point | undefined> {
  if (control.whenInView) return undefined;
  const context = await browser.createBrowserContext();
  try {
    const scout = await context.newPage();
    await scout.setUserAgent(personUserAgent);
    await scout.setViewport(viewports.phone);
    await scout.goto(url, { waitUntil: 'load' });
    const box = (await (await scout.$(control.selector))!.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  } finally {
    await context.close();
  }
}

/**
 * One first tap, at `firstPaintPoint` the moment the page first paints (whereToTap), or where the control
 * is once in view; null when the tap missed. With `tracePath`, a performance trace of the page from before
 * its request to after the tap's frame is written there (tapTrace.ts reads it).
 */
export async function firstTap(browser: Browser, url: string, control: Control, slowdown: number, firstPaintPoint?: Point, tracePath?: string): Promise<Tap | null> {
  const context = await browser.createBrowserContext();
  try {
    let point = firstPaintPoint;
    const page = await context.newPage();
    await page.setUserAgent(personUserAgent);
    await page.setViewport(viewports.phone);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await page.evaluateOnNewDocument((selector: string) => {
      const seen: number[][] = ((window as unknown as { benchTaps: number[][] }).benchTaps = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[]) {
          if (entry.interactionId && entry.target instanceof Element && entry.target.closest(selector)) seen.push([entry.duration, entry.startTime, entry.processingStart, entry.processingEnd]);
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    }, control.selector);
    await cdp.send('Page.enable');
    await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
    const painted = new Promise<void>((resolve) => cdp.on('Page.lifecycleEvent', (event: { name: string }) => event.name === 'firstContentfulPaint' && resolve()));
    if (tracePath) await page.tracing.start({ path: tracePath, categories: traceCategories });
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
    if (tracePath) await page.tracing.stop();
    const entries = await page.evaluate(() => (window as unknown as { benchTaps: number[][] }).benchTaps);
    if (!(await page.$(control.answered))) return null;
    // The interaction's longest event is its duration (each of its events ends at the same frame).
    const longest = entries.reduce<number[] | undefined>((most, entry) => (!most || entry[0]! > most[0]! ? entry : most), undefined);
    if (!longest) return { duration: 0, inputDelay: 0, processing: 0, presentation: 0 };
    const [duration, start, processingStart, processingEnd] = longest as [number, number, number, number];
    return { duration, inputDelay: processingStart - start, processing: processingEnd - processingStart, presentation: start + duration - processingEnd };
  } finally {
    await context.close();
  }
}

export async function benchInteractions(base: string) {
  const bare = await startBarePage();
  const browser = await launchBrowser();
  try {
    const { machineIndex, rates } = await calibrate(browser);
    const shownRate = (rate: DeviceRate) => (rate.rate === null ? `${rate.name}: out of reach, the machine is slower` : `${rate.name}: ${rate.rate}x, index ${rate.index.toFixed(0)}`);
    console.log(`\nFirst tap at first paint at 375 px (Event Timing duration, median of ${runs} with the range; the bare page is the floor)`);
    console.log(`This machine's BenchmarkIndex: ${machineIndex.toFixed(0)}; CPU slowed to a phone's: ${rates.map(shownRate).join('; ')}`);
    const targets = [];
    for (const control of controls) {
      const url = pageOf(control, base, bare.url);
      targets.push({ control, url, point: await whereToTap(browser, url, control) });
    }
    // Per device, the controls take turns run by run, so that a shared machine's drift falls on each alike, the floor too.
    const cells = new Map<string, string[]>(controls.map((control) => [control.name, []]));
    const after: string[] = [];
    for (const { name, rate } of rates) {
      if (rate === null) {
        for (const control of controls) cells.get(control.name)!.push('-');
        continue;
      }
      const figures = new Map<string, { taps: number[]; missed: number }>(controls.map((control) => [control.name, { taps: [], missed: 0 }]));
      for (let run = 0; run < runs; run++) {
        for (const { control, url, point } of targets) {
          const tap = await firstTap(browser, url, control, rate, point);
          const figure = figures.get(control.name)!;
          if (tap) figure.taps.push(tap.duration);
          else figure.missed++;
        }
      }
      const shown = (ms: number) => (ms < 16 ? '<16' : ms.toFixed(0));
      for (const [control, { taps, missed }] of figures) {
        cells.get(control)!.push(taps.length === 0 ? 'every tap missed' : `${shown(median(taps)).padStart(4)} ms (${shown(Math.min(...taps))}–${shown(Math.max(...taps))})${missed ? `, ${missed} missed` : ''}`);
      }
      // The machine is shared: how far it moved while the taps ran.
      after.push(`${name} ${(await indexNow(browser, rate)).toFixed(0)}`);
    }
    console.log(`${'control'.padEnd(24)} ${rates.map((rate) => rate.name.padEnd(24)).join(' ')}`);
    for (const [control, row] of cells) console.log(`${control.padEnd(24)} ${row.map((cell) => cell.padEnd(24)).join(' ')}`);
    if (after.length > 0) console.log(`BenchmarkIndex at the same rates after their taps: ${after.join(', ')}`);
  } finally {
    await browser.close();
    await bare.close();
  }
}
