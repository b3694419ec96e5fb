import { pagePaths } from '../../shared/routes';
import { experiments } from '../../shared/content/experiments';
import { homeVariants } from '../../server/experiments/homeVariants';
import { chromiumPath } from '../../tests/support/browser';
import { startBarePage } from './barePage';
import { median } from './percentiles';

/** Part 2: Lighthouse's scores and timings of every route. */

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  scriptBytes: number;
}

/** The bytes of script Lighthouse saw transferred (it never interacts, so all of it came before any interaction). */
function scriptBytesOf(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** A person's browser (Lighthouse names itself in its user agent, and the site treats it as a bot: no experiment). */
const personUserAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * For each home page of the running experiments' variants, an address (sent as X-Forwarded-For: the bench's
 * server trusts it) whose visitor the server shows that page, found by asking: the day's salt decides.
 */
async function variantVisitors(base: string): Promise<Map<string, string>> {
  const wanted = new Set(homeVariants(experiments).map((variant) => variant.key));
  const found = new Map<string, string>();
  for (let index = 1; found.size < wanted.size && index < 2000; index++) {
    const address = `10.77.${index >> 8}.${index & 255}`;
    const html = await (await fetch(`${base}/`, { headers: { 'User-Agent': personUserAgent, 'X-Forwarded-For': address } })).text();
    const key = /<body[^>]*data-variants="([^"]*)"/.exec(html)?.[1];
    if (key && !found.has(key)) found.set(key, address);
  }
  return found;
}

export async function benchLighthouse(base: string) {
  // Both are ES modules; this script runs as CommonJS.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  // The floor, measured in the same run: a noisy machine raises it and every route alike.
  const bare = await startBarePage();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  console.log('\nLighthouse 13, mobile preset, simulated throttling; median of 3 runs per route');
  console.log('route               perf  a11y  best   seo    FCP     LCP     TBT    CLS    bytes   script');
  try {
    // Every route as a bot sees it (the home page outside every experiment), then the home page of each variant.
    const visits: { route: string; name: string; visitor?: string; url?: string }[] = [{ route: '', name: 'bare page (floor)', url: bare.url }];
    visits.push(...pagePaths.map((route) => ({ route, name: route })));
    for (const [key, address] of await variantVisitors(base)) visits.push({ route: '/', name: `/ ${key}`, visitor: address });
    for (const { route, name, visitor, url } of visits) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < 3; i++) {
        const person = visitor ? { emulatedUserAgent: personUserAgent, extraHeaders: { 'X-Forwarded-For': visitor } } : {};
        const result = await lighthouse(url ?? `${base}${route}`, { port: chrome.port, output: 'json', logLevel: 'error', ...person });
        const lhr = result!.lhr;
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
        runs.push({
          performance: (lhr.categories.performance?.score ?? 0) * 100,
          accessibility: (lhr.categories.accessibility?.score ?? 0) * 100,
          bestPractices: (lhr.categories['best-practices']?.score ?? 0) * 100,
          seo: (lhr.categories.seo?.score ?? 0) * 100,
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          bytes: audit('total-byte-weight'),
          scriptBytes: scriptBytesOf(lhr),
        });
      }
      const pick = (key: keyof LighthouseFigures) => median(runs.map((run) => run[key]));
      console.log(
        `${name.padEnd(18)} ${pick('performance').toFixed(0).padStart(5)} ${pick('accessibility').toFixed(0).padStart(5)} ${pick('bestPractices').toFixed(0).padStart(5)} ${pick('seo').toFixed(0).padStart(5)}` +
          ` ${(pick('fcp') / 1000).toFixed(2).padStart(6)}s ${(pick('lcp') / 1000).toFixed(2).padStart(6)}s ${pick('tbt').toFixed(0).padStart(5)}ms ${pick('cls').toFixed(3).padStart(6)} ${(pick('bytes') / 1024).toFixed(1).padStart(6)} KiB ${(pick('scriptBytes') / 1024).toFixed(1).padStart(5)} KiB`,
      );
    }
  } finally {
    await chrome.kill();
    await bare.close();
  }
}
