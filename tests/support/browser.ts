import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { islandAttributes } from '../../shared/islands/attributes';
import { startTestServer, type RunningServer } from './testApp';

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const viewports = {
  phone: { width: 375, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { width: 1280, height: 800, deviceScaleFactor: 1 },
} as const;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: run "npm test" (it installs Debian's chromium) or set CHROME_PATH`);
  }
  return puppeteer.launch({
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
    ],
  });
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

/** Waits until every island on the page says it is hydrated. */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(
    (name: string, hydrated: string) => [...document.querySelectorAll(`[${name}]`)].every((element) => element.getAttribute(hydrated) === 'true'),
    {},
    islandAttributes.name,
    islandAttributes.hydrated,
  );
}

/**
 * One browser and one app on an ephemeral port for a test file, started before its tests and
 * closed after them. Read them from the returned object inside tests and hooks.
 */
export function useBrowserAndSite(env: Record<string, string> = {}): { browser: Browser; site: RunningServer } {
  const context = {} as { browser: Browser; site: RunningServer };
  beforeAll(async () => {
    [context.browser, context.site] = await Promise.all([launchBrowser(), startTestServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([context.browser?.close(), context.site?.close()]);
  });
  return context;
}
