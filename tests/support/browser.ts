import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { cleanUpWhenThisProcessEnds, endProcess } from './serviceProcess';
import { startTestServer, type RunningServer } from './testApp';

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const viewports = {
  phone: { width: 375, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { width: 1280, height: 800, deviceScaleFactor: 1 },
} as const;

export type Viewport = (typeof viewports)[keyof typeof viewports];

export interface LaunchOptions {
  /**
   * Reports a mouse, as a desktop browser does. Headless Chromium has no pointing device and says
   * `(hover: none)` and `(pointer: none)`, which a page may rightly take for a touch screen.
   */
  mouse?: boolean;
}

/** Blink's testing settings for the pointing devices: hover type 2 is "hover", pointer type 4 is "fine". */
const mouseArgument = '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4';

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: run "npm test" (it installs Debian's chromium) or set CHROME_PATH`);
  }
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    // As root in a container Chromium needs --no-sandbox; the rest keep it off the (closed) network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.mouse ? [mouseArgument] : []),
    ],
  });
  // puppeteer starts Chromium in a process group of its own, which a test process killed before its
  // afterAll (a stopped test:repeat) would leave running: the services' watchdog ends that group then.
  const pid = browser.process()?.pid;
  if (pid !== undefined) {
    const watchdog = cleanUpWhenThisProcessEnds([['kill', '-9', `-${pid}`]]);
    browser.once('disconnected', () => endProcess(watchdog));
  }
  return browser;
}

/** Console errors and warnings, uncaught exceptions and failed requests seen by a page. */
export interface PageProblems {
  messages: string[];
}

export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { messages: [] };
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warn') return;
    // Chrome reports a document's own error status (the 404 page) as a failed load; tests assert statuses themselves.
    const aboutDocument = message.text().startsWith('Failed to load resource') && message.location().url === page.url();
    if (!aboutDocument) problems.messages.push(`console.${message.type()}: ${message.text()} (${message.location().url ?? ''})`);
  });
  page.on('pageerror', (error) => problems.messages.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
  page.on('requestfailed', (request) => {
    // A navigation away aborts what the old page was still loading; that is not a failure of the site.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.messages.push(`requestfailed: ${request.url()} ${request.failure()?.errorText}`);
  });
  return problems;
}

/**
 * How far waitForIslands takes the page's islands:
 * - 'hydrated': every island is brought to hydration the way a visitor would bring it there (an island
 *   waiting for interaction gets a focusin, one waiting to be visible is scrolled into view and the scroll
 *   put back), then all are hydrated: for tests of what the islands do;
 * - 'scheduled': the runtime has seen every island and each hydrates only under its own conditions: for
 *   tests of the conditions themselves.
 */
export type IslandsWanted = 'hydrated' | 'scheduled';

/** Waits for the page's islands: see IslandsWanted. */
export async function waitForIslands(page: Page, wanted: IslandsWanted = 'hydrated'): Promise<void> {
  const { island, islandLoad, hydrated } = clientAttributes;
  await page.waitForFunction((name: string, state: string) => [...document.querySelectorAll(`[${name}]`)].every((element) => element.hasAttribute(state)), {}, island, hydrated);
  if (wanted === 'scheduled') return;
  const waiting = await page.$$(`[${island}][${hydrated}="false"]`);
  for (const element of waiting) {
    await element.evaluate(
      async (wrapper, load: string, state: string) => {
        if (wrapper.getAttribute(state) === 'true') return;
        const conditions = (wrapper.getAttribute(load) ?? '').split(' ');
        const box = wrapper.firstElementChild;
        if (conditions.includes('interaction')) box?.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
        if (conditions.includes('visible') && box) {
          const scrollY = window.scrollY;
          // Scrolled to as a visitor scrolls, not with scrollIntoView: after that, in Debian's Chromium 150,
          // the page's first Tab went to the element scrolled to (the carousel's Play button) instead of
          // the skip link, as if a visitor had clicked there.
          const { top, height } = box.getBoundingClientRect();
          window.scrollTo({ top: scrollY + top + height / 2 - window.innerHeight / 2, behavior: 'instant' });
          for (let waited = 0; wrapper.getAttribute(state) !== 'true' && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
          window.scrollTo({ top: scrollY, behavior: 'instant' });
        }
      },
      islandLoad,
      hydrated,
    );
  }
  await page.waitForFunction((name: string, state: string) => [...document.querySelectorAll(`[${name}]`)].every((element) => element.getAttribute(state) === 'true'), {}, island, hydrated);
}

export interface OpenPageOptions {
  /** Default: desktop. */
  viewport?: Viewport;
  reducedMotion?: boolean;
  /** Default: true; without it the page is only loaded, there being no islands to wait for. */
  javaScript?: boolean;
  userAgent?: string;
  /** Default: 'load'. */
  waitUntil?: 'load' | 'networkidle0';
  /** Default: 'hydrated'. */
  islands?: IslandsWanted;
  /**
   * Default 'laid out': on the home page, waits until every section is laid out for good (client/sectionsInTurn.ts:
   * one per idle period after load), so that a click far down the page, which puppeteer aims after jumping
   * there, is not moved by a section above taking its real height (at the page's bottom edge scroll anchoring
   * cannot hold it). 'as they come' for the tests of that waiting itself.
   */
  sections?: 'laid out' | 'as they come';
  /** Runs on the new tab before it loads the URL (to add init scripts, credentials, …). */
  beforeGoto?: (page: Page) => Promise<unknown>;
  /** The page the visitor comes from: document.referrer, as the referrer policy lets it through. */
  referer?: string;
}

export interface OpenedPage {
  page: Page;
  problems: PageProblems;
}

/** Opens a URL in a new tab at a viewport, watching for problems from the start, and waits for its islands. */
export async function openPage(browser: Pick<Browser, 'newPage'> | Pick<BrowserContext, 'newPage'>, url: string, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const page = await browser.newPage();
  await page.setViewport(options.viewport ?? viewports.desktop);
  if (options.reducedMotion) await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  if (options.javaScript === false) await page.setJavaScriptEnabled(false);
  if (options.userAgent) await page.setUserAgent(options.userAgent);
  await options.beforeGoto?.(page);
  const problems = watchProblems(page);
  await page.goto(url, { waitUntil: options.waitUntil ?? 'load', ...(options.referer && { referer: options.referer }) });
  if (options.javaScript !== false) await waitForIslands(page, options.islands);
  if (options.javaScript !== false && options.sections !== 'as they come') {
    await page.waitForFunction((name: string) => document.querySelector(`[${name}]`) === null, { timeout: 15_000 }, clientAttributes.layoutWaits);
  }
  return { page, problems };
}

export interface BrowserAndSite {
  browser: Browser;
  site: RunningServer;
  /** openPage for a path of this site. */
  open(path: string, options?: OpenPageOptions): Promise<OpenedPage>;
}

/**
 * One browser and one app on an ephemeral port for a test file, started before its tests and
 * closed after them. Read them from the returned object inside tests and hooks.
 */
export function useBrowserAndSite(env: Record<string, string> = {}, launch: LaunchOptions = {}): BrowserAndSite {
  const context = {
    open: (path: string, options?: OpenPageOptions) => openPage(context.browser, context.site.url + path, options),
  } as BrowserAndSite;
  beforeAll(async () => {
    [context.browser, context.site] = await Promise.all([launchBrowser(launch), startTestServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([context.browser?.close(), context.site?.close()]);
  });
  return context;
}
