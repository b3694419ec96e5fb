import type { Browser, Page } from 'puppeteer-core';
import { main as stats } from '../../scripts/stats';
import { placementCodes, readClickId } from '../../shared/affiliate';
import { experiments } from '../../shared/content/experiments';
import { hero } from '../../shared/content/home';
import { site } from '../../shared/content/site';
import { variantSubId, type ShownVariant } from '../../shared/experiments/experiment';
import { launchBrowser, viewports, waitForIslands, watchProblems, type PageProblems } from '../support/browser';
import { adminToken, deploy, personUserAgent, useCleanup, type Deployment } from '../support/deployment';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { parseHtml } from '../support/html';
import { queryDatabase } from '../support/queryDatabase';
import { visitorAddresses } from '../support/visitorAddresses';
import { waitUntil } from '../support/waitUntil';

/**
 * The split test of the hero button (shared/content/experiments.ts) as visitors live it on two instances
 * sharing PostgreSQL: each instance picks the variant from the daily visitor hash, whose salt is in the
 * database, so a visitor keeps their words wherever the load balancer sends them; opting out shows the
 * words as they are; a click and the sale it brings are credited to the words the visitor saw.
 * The instances are asked directly (TRUST_PROXY=1 trusts loopback), so X-Forwarded-For names the visitor.
 */

const experiment = experiments[0]!;
const labels = { a: hero.primaryCtaLabel, b: experiment.variants[1]!.words!['home.hero.primaryCtaLabel']! };
const conversionsKey = 'experiments-conversions-key-0123456789';
const visitorCount = 200;

/** What a home page shows of the experiment: its body's data-variants (null when none) and the hero button's words. */
interface Shown {
  variants: string | null;
  label: string;
  /** The hero link's sub-ID as served (before any click). */
  subId: string | null;
}

/** The link's words without the screen reader's "opens in a new tab" note. */
const wordsOf = (text: string) => text.replace(site.newTabNote, '').replace(/\s+/g, ' ').trim();
const shownIn = (variant: 'a' | 'b'): ShownVariant[] => [{ experiment: experiment.id, variant }];

async function fetchHome(url: string, headers: Record<string, string>): Promise<Shown & { cacheControl: string | null }> {
  const response = await fetch(`${url}/`, { headers, signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  const page = parseHtml(await response.text());
  const link = page.one('a[data-placement="hero"]');
  return {
    variants: page.one('body').attr('data-variants') ?? null,
    label: wordsOf(link.text()),
    subId: new URL(link.attr('href')!).searchParams.get('subid'),
    cacheControl: response.headers.get('cache-control'),
  };
}

const shownInBrowser = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const link = document.querySelector<HTMLAnchorElement>('a[data-placement="hero"]');
    return { variants: document.body.dataset.variants ?? null, label: link?.textContent ?? '', subId: link ? new URL(link.href).searchParams.get('subid') : null };
  }).then((shown) => ({ ...shown, label: wordsOf(shown.label) }));

describe('the hero-button split test on two instances sharing PostgreSQL', () => {
  const onCleanup = useCleanup();
  let deployment: Deployment;
  let browser: Browser;
  /** The 200 plain-HTTP visitors: address, the instance asked, and what it showed. */
  const visitors: { address: string; instance: number; shown: Shown & { cacheControl: string | null } }[] = [];
  /** The browser visitor: one of the 200 who was shown b (b's words differ from the page's own, a's do not). */
  let person: { address: string; instance: number };
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    deployment = await deploy(onCleanup, { AFFILIATE_SUBID_PARAM: 'subid', CONVERSIONS_KEY: conversionsKey });
    browser = await launchBrowser();
    onCleanup(() => browser.close());
    const nextAddress = visitorAddresses();
    // 20 at a time, alternating between the instances: each instance hashes half of the visitors.
    for (let start = 0; start < visitorCount; start += 20) {
      const batch = Array.from({ length: 20 }, (_unused, offset) => ({ address: nextAddress(), instance: (start + offset) % 2 }));
      const shown = await Promise.all(
        batch.map(({ address, instance }) => fetchHome(deployment.instances[instance]!.url, { 'user-agent': personUserAgent, 'x-forwarded-for': address })),
      );
      batch.forEach((visitor, index) => visitors.push({ ...visitor, shown: shown[index]! }));
    }
    // Undefined only if nobody was shown b, which the first test reports.
    person = visitors.find((visitor) => visitor.shown.variants === 'hero-button:b')!;
  }, 60_000);

  it('shows 200 visitors both variants, in proportion to their equal weights, each with its words and sub-ID', () => {
    const expected = (variant: 'a' | 'b') => ({
      variants: `${experiment.id}:${variant}`,
      label: labels[variant],
      // Without JavaScript the sub-ID names the variant: he9<experiment code><variant>.
      subId: variantSubId(placementCodes.hero, shownIn(variant)),
      // Each visitor's own page: no shared cache may keep it for another.
      cacheControl: 'private, max-age=60',
    });
    for (const { shown } of visitors) expect(shown).toEqual(expected(shown.variants === 'hero-button:b' ? 'b' : 'a'));
    const inB = visitors.filter(({ shown }) => shown.variants === 'hero-button:b');
    // Binomial(200, ½): 100 ± 4.5 standard deviations (√50 ≈ 7.1), a false alarm about once in 150,000 runs.
    expect(inB.length).toBeGreaterThanOrEqual(68);
    expect(inB.length).toBeLessThanOrEqual(132);
    // Both instances split their own visitors too (one showing a single variant would fail at 2⁻¹⁰⁰).
    for (const instance of [0, 1]) {
      expect(new Set(visitors.filter((visitor) => visitor.instance === instance).map(({ shown }) => shown.variants))).toEqual(new Set(['hero-button:a', 'hero-button:b']));
    }
  });

  it('keeps one visitor in their variant on reload, through in-place navigation and on the other instance', async () => {
    const [own, other] = [deployment.instances[person.instance]!, deployment.instances[1 - person.instance]!];
    page = await browser.newPage();
    onCleanup(() => page.close());
    // Desktop: the top bar's links are in view, not in the menu.
    await page.setViewport(viewports.desktop);
    await page.setUserAgent(personUserAgent);
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': person.address });
    problems = watchProblems(page);
    const seen: [string, Shown][] = [];
    const look = async (where: string) => seen.push([where, await shownInBrowser(page)]);

    await page.goto(`${own.url}/`, { waitUntil: 'load' });
    await waitForIslands(page);
    await look('first load');
    await page.reload({ waitUntil: 'load' });
    await waitForIslands(page);
    await look('reload');
    // In place: a marker on window survives only if the document is never reloaded.
    await page.evaluate(() => ((window as Window & { marker?: number }).marker = 42));
    await page.click('.top-bar__link[href="/about-us"]');
    await page.waitForFunction(() => location.pathname === '/about-us' && document.body.dataset.path === '/about-us');
    // The about page shows none of the experiment's words, so it says no variants (its clicks are nobody's).
    expect(await page.evaluate(() => document.body.dataset.variants ?? null)).toBeNull();
    await page.click('.prose-page > .back-link');
    await page.waitForFunction(() => location.pathname === '/' && document.body.dataset.path === '/');
    await waitForIslands(page);
    expect(await page.evaluate(() => (window as Window & { marker?: number }).marker)).toBe(42);
    await look('back home in place');
    await page.goto(`${other.url}/`, { waitUntil: 'load' });
    await waitForIslands(page);
    await look('the other instance');

    const b: Shown = { variants: 'hero-button:b', label: labels.b, subId: variantSubId(placementCodes.hero, shownIn('b')) };
    expect(seen).toEqual([
      ['first load', b],
      ['reload', b],
      ['back home in place', b],
      ['the other instance', b],
    ]);
    // Each page shown reported its view with what it showed: four home pages in b, the about page in none.
    const views = await waitUntil('the five page views', async () => {
      const rows = await queryDatabase<{ page: string; variants: string }>(deployment.database.url, 'SELECT page, variants FROM views ORDER BY page, variants');
      return rows.length >= 5 && rows;
    });
    expect(views).toEqual([...Array(4).fill({ page: '/', variants: 'hero-button:b' }), { page: '/about-us', variants: '' }]);
  });

  it('shows a visitor who opts out, and a headless browser, the words as they are and no variants', async () => {
    // The same address and user agent that were shown b, now sending Global Privacy Control; a context of
    // its own, so the browser's cache cannot answer with the page it kept for the in-experiment visitor.
    const context = await browser.createBrowserContext();
    onCleanup(() => context.close());
    const optedOut = await context.newPage();
    await optedOut.setUserAgent(personUserAgent);
    await optedOut.setExtraHTTPHeaders({ 'X-Forwarded-For': person.address, 'Sec-GPC': '1' });
    const optedOutProblems = watchProblems(optedOut);
    await optedOut.goto(`${deployment.instances[person.instance]!.url}/`, { waitUntil: 'load' });
    // No experiment means the placement alone in the sub-ID, as before experiments.
    const outside: Shown = { variants: null, label: labels.a, subId: 'hero' };
    expect(await shownInBrowser(optedOut)).toEqual(outside);
    expect(optedOutProblems.messages).toEqual([]);
    // Do Not Track, and headless Chromium's own user agent (a bot), the same way over plain HTTP.
    const headless = personUserAgent.replace('Chrome/', 'HeadlessChrome/');
    const others: Record<string, string>[] = [{ 'user-agent': personUserAgent, dnt: '1' }, { 'user-agent': headless }];
    for (const headers of others) {
      const { cacheControl: _cacheControl, ...shown } = await fetchHome(deployment.instances[0]!.url, { ...headers, 'x-forwarded-for': person.address });
      expect(shown).toEqual(outside);
    }
  });

  it('credits the visitor’s click and the sale it brought to their variant, in the database, on /admin and in npm run stats', async () => {
    const opened = new Promise<string>((resolve, reject) => {
      setTimeout(() => reject(new Error('no tab opened within 10 s of the click')), 10_000).unref();
      // The partner's address is unreachable here: note where its tab was sent, and close it.
      browser.once('targetcreated', (target) => {
        const url = target.url();
        void target.page().then((tab) => tab?.close()).finally(() => resolve(url));
      });
    });
    await page.click('a[data-placement="hero"]');
    // The click reporter put a fresh click ID in the sub-ID of the address the browser opened.
    const followed = new URL(await opened).searchParams.get('subid');
    expect(readClickId(followed ?? '')).toEqual({ clickId: followed, placement: 'hero' });
    const [click] = await waitUntil('the click row', () =>
      queryDatabase<{ click_id: string | null; placement: string; variants: string }>(deployment.database.url, 'SELECT click_id, placement, variants FROM clicks').then(
        (rows) => rows.length > 0 && rows,
      ),
    );
    expect(click).toEqual({ click_id: followed, placement: 'hero', variants: 'hero-button:b' });

    // The network's postback names the click; it may reach either instance.
    const query = new URLSearchParams({ key: conversionsKey, txid: 'experiment-sale-1', subid: followed!, payout: '42.50' });
    const postback = await fetch(`${deployment.instances[0]!.url}/api/conversions?${query}`, { signal: AbortSignal.timeout(10_000) });
    expect([postback.status, await postback.text()]).toEqual([200, 'recorded\n']);
    expect(await queryDatabase(deployment.database.url, 'SELECT variants FROM conversions')).toEqual([{ variants: 'hero-button:b' }]);

    // Visitors, Clicked, Clicks, Conversions: the browser visitor's single visitor-day, all in b.
    for (const instance of deployment.instances) {
      const response = await fetch(`${instance.url}/admin`, { headers: { authorization: `Bearer ${adminToken}` }, signal: AbortSignal.timeout(15_000) });
      expect(response.status).toBe(200);
      const table = tableCaptioned(parseHtml(await response.text()), `Experiment ${experiment.id} by variant`);
      expect({ a: cells(rowHeaded(table, 'a')).slice(0, 4), b: cells(rowHeaded(table, 'b')).slice(0, 4) }).toEqual({ a: ['0', '0', '0', '0'], b: ['1', '1', '1', '1'] });
    }

    let out = '';
    let err = '';
    const code = await stats(['--json'], { DATABASE_URL: deployment.database.url }, (text) => (out += text), (text) => (err += text));
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const report = JSON.parse(out) as { experiments: { id: string; variants: { id: string; visitors: number; clickers: number; clicks: number; conversions: number; revenue: number }[] }[] };
    expect(report.experiments[0]!.id).toBe(experiment.id);
    expect(report.experiments[0]!.variants.map(({ id, visitors, clickers, clicks, conversions, revenue }) => ({ id, visitors, clickers, clicks, conversions, revenue }))).toEqual([
      { id: 'a', visitors: 0, clickers: 0, clicks: 0, conversions: 0, revenue: 0 },
      { id: 'b', visitors: 1, clickers: 1, clicks: 1, conversions: 1, revenue: 42.5 },
    ]);
  });

  it('loaded every page without a console error or a failed request of its own', () => {
    expect(problems.messages.filter((message) => !message.includes('partner.example.net'))).toEqual([]);
  });
});
