import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../../tests/support/browser';
import { startBarePage } from './barePage';
import { calibrate } from './deviceRate';
import { controls, firstTap, pageOf, whereToTap } from './interactions';
import { describeTapTrace, tapTrace } from './traceTasks';

/**
 * Part 2d: where a low-end phone's first tap goes. Each control's first tap (interactions.ts), the bare page's
 * too, once at the low-end rate (deviceRate.ts) under a performance trace: the
 * tap's three phases by Event Timing, then the renderer main thread's tasks from the page's request to the
 * tap's click, each with what it did. The traces are kept, to open in Chrome DevTools' Performance panel.
 */
export async function benchTapTrace(base: string) {
  const bare = await startBarePage();
  const browser = await launchBrowser();
  try {
    const [lowEnd] = (await calibrate(browser, ['low-end'])).rates;
    if (lowEnd?.rate == null) throw new Error(`This machine is slower than a low-end phone now (BenchmarkIndex ${lowEnd?.index}): nothing to slow down`);
    const folder = mkdtempSync(path.join(tmpdir(), 'tap-trace-'));
    console.log(`\nA first tap at first paint under a performance trace, CPU slowed ${lowEnd.rate}x (BenchmarkIndex ${lowEnd.index.toFixed(0)}, a low-end phone)`);
    for (const control of controls) {
      const { name } = control;
      const url = pageOf(control, base, bare.url);
      const tracePath = path.join(folder, `${name.replace(/\W+/g, '-')}.json`);
      const tap = await firstTap(browser, url, control, lowEnd.rate, await whereToTap(browser, url, control), tracePath);
      console.log(
        tap
          ? `\n${name}: ${tap.duration.toFixed(0)} ms (input delay ${tap.inputDelay.toFixed(0)}, processing ${tap.processing.toFixed(0)}, presentation ${tap.presentation.toFixed(0)}); main-thread tasks of 4 ms or more, from the page's request:`
          : `\n${name}: the tap missed; main-thread tasks of 4 ms or more, from the page's request:`,
      );
      for (const line of describeTapTrace(tapTrace(readFileSync(tracePath, 'utf8'), url))) console.log(line);
    }
    console.log(`\nThe traces: ${folder} (Chrome DevTools, Performance, Load profile)`);
  } finally {
    await browser.close();
    await bare.close();
  }
}
