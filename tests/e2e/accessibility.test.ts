import { readFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { pagePaths } from '../../shared/routes';
import { useBrowserAndSite, viewports } from '../support/browser';

/** axe-core's source, evaluated in the page through DevTools (which the page's CSP does not govern). */
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const adminToken = 'accessibility-test-admin-token';
const conversionsKey = 'accessibility-test-conversions-key-0123';
const context = useBrowserAndSite({ ADMIN_TOKEN: adminToken, CONVERSIONS_KEY: conversionsKey });

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    // Every rule axe has, best practices included: the goal is no violations at all.
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return found.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe.each(Object.entries(viewports))('axe-core at %s width', (_name, viewport) => {
  it.each([...pagePaths, '/no-such-page'])('finds no violations on %s', async (path) => {
    const { page } = await context.open(path, { viewport, reducedMotion: true });
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe('axe-core with the menu and an FAQ answer open', () => {
  it('finds no violations in the open states', async () => {
    const { page } = await context.open('/', { viewport: viewports.phone });
    await page.click('#faq summary');
    await page.click('.top-bar__menu-button');
    await page.waitForSelector('.top-bar__menu:popover-open');
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe('the accessibility check itself', () => {
  it('reports a violation when there is one (an image without alt text)', async () => {
    const { page } = await context.open('/about-us');
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('img'), { src: '/favicon.svg' })));
    expect((await violations(page)).some((line) => line.startsWith('image-alt'))).toBe(true);
    await page.close();
  });
});

describe('axe-core on the admin page', () => {
  it.each(Object.entries(viewports))('finds no violations at %s width, with views, clicks and a sale recorded, and nothing wider than the screen', async (_name, viewport) => {
    const report = (endpoint: string, body: object) =>
      fetch(`${context.site.url}${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148' },
        body: JSON.stringify(body),
      });
    // Every table of the funnel has rows: placements, sources, days, and each day's sources.
    expect((await report('/api/views', { page: '/', referrer: 'www.google.com', source: 'www.google.com', medium: '', campaign: '' })).status).toBe(204);
    for (const placement of ['hero', 'bonus']) {
      expect((await report('/api/clicks', { placement, page: '/', referrer: 'www.google.com', source: 'www.google.com' })).status).toBe(204);
    }
    const sale = await fetch(`${context.site.url}/api/conversions?key=${conversionsKey}&txid=A11Y-${viewport.width}&subid=hero&payout=12.50`);
    expect(await sale.text()).toBe('recorded\n');
    const page = await context.browser.newPage();
    await page.setViewport(viewport);
    await page.authenticate({ username: 'operator', password: adminToken });
    const response = await page.goto(`${context.site.url}/admin`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await violations(page)).toEqual([]);
    // Wide tables scroll inside their own box; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.close();
  });
});
