import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { pageLayouts } from '../../server/leaves/pageLayout';
import { privacyPolicy } from '../../shared/content/privacyPolicy';
import { leaveBeaconLimits, leaveEndpoint, reachAttribute, type LeaveBeaconBody } from '../../shared/leaveBeacon';
import { viewEndpoint } from '../../shared/viewBeacon';
import { browserUserAgent } from '../support/beaconReports';
import { launchBrowser, openPage, viewports, type OpenPageOptions, type PageProblems } from '../support/browser';
import { startTestServer, type RunningServer } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';

/**
 * The leave report in a real browser (a phone's viewport): one per page view, at the first of the page
 * hidden, closed or left in place, with the sections reached and the placements seen for a second.
 * The reports are taken where they arrive, at the test server's door, so these tests hold whatever the
 * route does with them, and a report sent by a closing tab is caught too.
 */
const homeSections = [...pageLayouts['/'].sections];
/** The viewability rule asks for one second; the waits meant to pass it give it half a second more. */
const seenWait = leaveBeaconLimits.seenMs + 500;

let browser: Browser;
let site: RunningServer;
let leaves: LeaveBeaconBody[] = [];
beforeAll(async () => {
  [browser, site] = await Promise.all([launchBrowser(), startTestServer()]);
  // The leave reports are caught before the app: they are what the browser sent, whatever the route answers.
  const [app] = site.server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  site.server.removeAllListeners('request');
  site.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== leaveEndpoint) return app!(req, res);
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      leaves.push(JSON.parse(text) as LeaveBeaconBody);
      res.writeHead(204).end();
    });
  });
});
afterAll(async () => {
  await Promise.all([browser?.close(), site?.close()]);
});

let page: Page;
let problems: PageProblems;
beforeEach(() => {
  leaves = [];
});
afterEach(async () => {
  expect(problems.messages).toEqual([]);
  if (!page.isClosed()) await page.close();
});

type Recorded = Window & { beacons?: Array<[string, string]> };

/** Opens a page as a person on a phone would, every sendBeacon call recorded in order in the page. */
async function land(path: string, options: OpenPageOptions = {}): Promise<void> {
  ({ page, problems } = await openPage(browser, site.url + path, {
    viewport: viewports.phone,
    userAgent: browserUserAgent,
    // Islands hydrate under their own conditions: bringing them all to hydration would scroll the carousel into view.
    islands: 'scheduled',
    ...options,
    beforeGoto: async (tab) => {
      await tab.evaluateOnNewDocument(() => {
        const send = Navigator.prototype.sendBeacon;
        Navigator.prototype.sendBeacon = function (url, data) {
          ((window as Recorded).beacons ??= []).push([new URL(url, location.href).pathname, String(data)]);
          return send.call(this, url, data);
        };
      });
      await options.beforeGoto?.(tab);
    },
  }));
  // In-place navigation is installed after the first paint; its announcer says when.
  await page.waitForSelector('[data-route-announcer]');
}

/** The tab goes to the background, as when the visitor switches to another: the page is hidden. */
async function hide(): Promise<void> {
  const other = await browser.newPage();
  await other.bringToFront();
  await page.waitForFunction(() => document.visibilityState === 'hidden');
  await other.close();
}

const leavesOnceThere = (count: number) => waitUntil(`${count} leave reports`, () => leaves.length >= count && leaves);

/** Scrolls down a screen at a time to the element, as a reader does, letting each screen be painted (and observed). */
async function scrollDownTo(selector: string): Promise<void> {
  await page.evaluate(async (target: string) => {
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const element = document.querySelector(target)!;
    while (element.getBoundingClientRect().top > innerHeight / 2) {
      const before = scrollY;
      scrollBy({ top: innerHeight / 2, behavior: 'instant' });
      await frames();
      if (scrollY === before) break;
    }
    element.scrollIntoView({ block: 'center', behavior: 'instant' });
    await frames();
  }, selector);
}

/** What is in the viewport now: the sections any part of which is, and the placements at least half of which are. */
const inView = () =>
  page.evaluate((reach: string) => {
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0)) / box.height;
    };
    return {
      sections: [...document.querySelectorAll(`[${reach}]`)].filter((element) => shown(element) > 0).map((element) => element.getAttribute(reach)),
      placements: [...document.querySelectorAll('[data-placement]')].filter((element) => shown(element) >= 0.5).map((element) => element.getAttribute('data-placement')),
    };
  }, reachAttribute);

/** The experiments' variants the page shows (the test server runs the site's experiments), as its reports give them. */
const variants = () => page.evaluate(() => document.body.dataset.variants ?? '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('leave reports in a browser', () => {
  it('reports every section down to the bonus and the bonus placement seen, once the page is hidden', async () => {
    await land('/');
    await scrollDownTo('a[data-placement="bonus"]');
    await sleep(seenWait);
    await hide();
    const [report] = await leavesOnceThere(1);
    expect(report).toEqual({ page: '/', variants: await variants(), sections: expect.arrayContaining(homeSections), seen: expect.arrayContaining(['bonus']), clicked: [], engagedSeconds: expect.any(Number) });
    expect(report!.engagedSeconds).toBeGreaterThanOrEqual(1);
    expect(new Set(report!.sections).size).toBe(report!.sections.length);
    // Sent once: visibilitychange sent it, nothing else did.
    expect(await page.evaluate((path) => ((window as Recorded).beacons ?? []).filter(([to]) => to === path).length, leaveEndpoint)).toBe(1);
  });

  // On a desktop screen the hero's button is in the first screen (on a phone it is just below it).
  it('reports only the first screen of a visitor who leaves from the hero', async () => {
    await land('/', { viewport: viewports.desktop });
    await sleep(seenWait);
    const first = await inView();
    expect(first.sections[0]).toBe('hero');
    expect(first.placements).toContain('hero');
    await hide();
    const [report] = await leavesOnceThere(1);
    expect(report!.sections.sort()).toEqual(first.sections.sort());
    expect(report!.seen.sort()).toEqual(first.placements.sort());
  });

  it('reports a followed link as clicked, and as seen however briefly it was in view', async () => {
    await land('/');
    // The link is not followed out of the test: the reports see the click all the same (they listen in the capture phase).
    await page.evaluate(() => addEventListener('click', (event) => event.preventDefault()));
    await page.click('a[data-placement="hero"]');
    await hide();
    const [report] = await leavesOnceThere(1);
    expect(report!.clicked).toEqual(['hero']);
    expect(report!.seen).toContain('hero');
  });

  it('does not count a placement scrolled past in under a second', async () => {
    await land('/', { viewport: viewports.desktop });
    expect((await inView()).placements).not.toContain('explainer');
    const shownFor = await page.evaluate(async () => {
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const start = performance.now();
      document.querySelector('a[data-placement="explainer"]')!.scrollIntoView({ block: 'center', behavior: 'instant' });
      await frames();
      await new Promise((resolve) => setTimeout(resolve, 300));
      scrollTo({ top: 0, behavior: 'instant' });
      await frames();
      return performance.now() - start;
    });
    // In view about 0.3 s plus a few frames: well short of the second the rule asks for.
    expect(shownFor).toBeLessThan(leaveBeaconLimits.seenMs - 200);
    await sleep(seenWait);
    await hide();
    const [report] = await leavesOnceThere(1);
    expect(report!.sections).toContain('what-is');
    expect(report!.seen).not.toContain('explainer');
    expect(report!.seen).toContain('hero');
  });

  it('sends the page’s report on in-place navigation, before the next page’s view, and starts the next page’s own', async () => {
    await land('/');
    const landingVariants = await variants();
    await page.click('.site-footer a[href="/privacy-policy"]');
    await page.waitForFunction((title) => document.title === title, {}, privacyPolicy.title);
    const [left] = await leavesOnceThere(1);
    expect(left).toEqual(expect.objectContaining({ page: '/', variants: landingVariants }));
    expect(left!.sections).toContain('hero');

    const order = await page.evaluate(() => ((window as Recorded).beacons ?? []).map(([path, body]) => `${path} ${(JSON.parse(body) as { page: string }).page}`));
    expect(order.filter((line) => !line.startsWith('/api/clicks'))).toEqual([`${viewEndpoint} /`, `${leaveEndpoint} /`, `${viewEndpoint} /privacy-policy`]);

    await hide();
    const [, next] = await leavesOnceThere(2);
    expect(next).toEqual(expect.objectContaining({ page: '/privacy-policy', seen: [] }));
    const firstSection = privacyPolicy.sections[0]!.id;
    expect(next!.sections).toContain(firstSection);
  });

  it('sends the report when the tab is closed', async () => {
    await land('/about-us');
    const closed = new Promise((resolve) => page.once('close', resolve));
    await page.close({ runBeforeUnload: true });
    await closed;
    const [report] = await leavesOnceThere(1);
    expect(report).toEqual(expect.objectContaining({ page: '/about-us', seen: [] }));
  });

  it('sends none for a visitor sending Global Privacy Control', async () => {
    await land('/', { beforeGoto: (tab) => tab.evaluateOnNewDocument(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })) });
    await page.click('.site-footer a[href="/privacy-policy"]');
    await page.waitForFunction((title) => document.title === title, {}, privacyPolicy.title);
    await hide();
    // The report would have been sent in the visibilitychange that hid the page: nothing was.
    expect(await page.evaluate(() => ((window as Recorded).beacons ?? []).filter(([path]) => path !== '/api/clicks'))).toEqual([]);
    expect(leaves).toEqual([]);
  });
});
