import { pagePaths } from '../../shared/routes';
import { launchBrowser, viewports } from '../../tests/support/browser';

/** Part 2b: the script bytes each route fetches before anyone interacts with it. */

/** Script bytes each route fetches while nobody touches it, by the browser's own resource timing. */
export async function benchScripts(base: string) {
  const browser = await launchBrowser();
  console.log('\nScripts fetched before any interaction (resource timing, fresh browser context, network quiet for 0.5 s and 1 s more)');
  console.log(`${'route'.padEnd(18)} ${'phone'.padEnd(25)} desktop`);
  try {
    for (const route of pagePaths) {
      const cells: string[] = [];
      for (const viewport of [viewports.phone, viewports.desktop]) {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.setViewport(viewport);
        await page.goto(`${base}${route}`, { waitUntil: 'networkidle0' });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const scripts = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
            .map((entry) => (entry as PerformanceResourceTiming).transferSize),
        );
        cells.push(`${(scripts.reduce((sum, bytes) => sum + bytes, 0) / 1024).toFixed(1).padStart(5)} KiB in ${scripts.length} files`);
        await context.close();
      }
      console.log(`${route.padEnd(18)} ${cells.map((cell) => cell.padEnd(25)).join(' ')}`);
    }
  } finally {
    await browser.close();
  }
}
