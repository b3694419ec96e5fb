/**
 * Full-page screenshots of every route at phone and desktop width, for looking at what we build:
 *   npx tsx scripts/screenshots.ts [base URL, default http://localhost:3000] [out dir, default .screenshots]
 * With ADMIN_TOKEN set (the server's), /admin is shot too.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pagePaths } from '../shared/routes';
import { clientAttributes } from '../shared/islands/clientAttributes';
import { launchBrowser, viewports, waitForIslands } from '../tests/support/browser';

async function main() {
  const base = process.argv[2] ?? 'http://localhost:3000';
  const outDir = process.argv[3] ?? '.screenshots';
  mkdirSync(outDir, { recursive: true });
  const browser = await launchBrowser();
  try {
    for (const [name, viewport] of Object.entries(viewports)) {
      const adminToken = process.env.ADMIN_TOKEN;
      for (const route of [...pagePaths, '/no-such-page', ...(adminToken ? ['/admin'] : [])]) {
        const page = await browser.newPage();
        if (route === '/admin') await page.setExtraHTTPHeaders({ Authorization: `Bearer ${adminToken}` });
        await page.setViewport(viewport);
        await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
        await page.goto(base + route, { waitUntil: 'networkidle0' });
        await waitForIslands(page);
        // The home page's sections are laid out for good one per idle period: shoot the page once they all are.
        await page.waitForFunction((name: string) => document.querySelector(`[${name}]`) === null, { timeout: 15_000 }, clientAttributes.layoutWaits);
        // Lazy images load only near the viewport: bring each into view so the full-page shot shows them.
        await page.evaluate(async () => {
          for (const image of document.querySelectorAll('img[loading="lazy"]')) {
            image.scrollIntoView();
            await new Promise((resolve) => (image as HTMLImageElement).complete ? resolve(null) : image.addEventListener('load', resolve, { once: true }));
          }
          window.scrollTo(0, 0);
        });
        const file = path.join(outDir, `${name}${route === '/' ? '-home' : route.replace(/\//g, '-')}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
}

void main();
