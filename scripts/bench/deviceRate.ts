import type { Browser, CDPSession } from 'puppeteer-core';

/**
 * The CPU slowdown that makes this machine, at this moment, as fast as a given phone, by Lighthouse's own
 * BenchmarkIndex (its page function, run in the page as Lighthouse runs it), found as Chrome DevTools'
 * "calibrate" finds its low-tier and mid-tier presets: bisect the rate until the index measured at that
 * rate is within 10 points of the phone's. A fixed factor is no device: on this shared machine 4× gave
 * an index of 271 one day and 445 to 487 another.
 */

/** DevTools' calibration targets: a low-tier phone (a Moto G4 Power 2022) and a mid-tier one (a Pixel 5). */
export const devices = [
  { name: 'low-end', index: 264 },
  { name: 'mid-tier', index: 1000 },
] as const;

export interface DeviceRate {
  name: string;
  /** The phone's BenchmarkIndex, aimed at. */
  target: number;
  /** The CPU throttling rate found (DevTools keeps two decimals); null when the machine is slower than the phone already. */
  rate: number | null;
  /** The index measured at that rate (at no slowdown when it is null). */
  index: number;
}

/** Close enough, as DevTools has it. */
const tolerance = 10;
const maxSteps = 8;
const truncate = (rate: number) => Number(rate.toFixed(2));

/** The machine's BenchmarkIndex at a CPU throttling rate, in a blank page of its own (about 1 s of the page's time). */
async function indexAt(cdp: CDPSession, source: string, rate: number): Promise<number> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const { result } = await cdp.send('Runtime.evaluate', { expression: `(${source})()`, returnByValue: true });
  const index = Number(result.value);
  if (!Number.isFinite(index)) throw new Error(`BenchmarkIndex gave ${String(result.value)}`);
  return index;
}

/** Bisects the rate between lower and upper until the index is within the tolerance of the target; the closest rate tried otherwise. */
async function bisect(measure: (rate: number) => Promise<number>, target: number, lowerRate: number, upperRate: number): Promise<{ rate: number; index: number }> {
  let lower = lowerRate;
  let upper = upperRate;
  let best: { rate: number; index: number } | undefined;
  for (let step = 0; step < maxSteps; step++) {
    const rate = truncate((lower + upper) / 2);
    const index = await measure(rate);
    if (!best || Math.abs(index - target) < Math.abs(best.index - target)) best = { rate, index };
    if (Math.abs(index - target) < tolerance) break;
    if (index < target) upper = rate;
    else lower = rate;
  }
  return best!;
}

/** Runs `use` with a blank page that measures the index at a rate (Lighthouse's page function), after one warm-up run. */
async function withBenchmarkPage<T>(browser: Browser, use: (measure: (rate: number) => Promise<number>) => Promise<T>): Promise<T> {
  // Lighthouse is an ES module; this script runs as CommonJS.
  const { pageFunctions } = await import('lighthouse/core/lib/page-functions.js');
  const source = pageFunctions.computeBenchmarkIndex.toString();
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    // The first run warms V8 up.
    await indexAt(cdp, source, 1);
    return await use((rate) => indexAt(cdp, source, rate));
  } finally {
    await page.close();
  }
}

/** The machine's own index (no slowdown) and the rate of each device asked for, of `devices`. */
export function calibrate(browser: Browser, wanted: readonly string[] = devices.map((device) => device.name)): Promise<{ machineIndex: number; rates: DeviceRate[] }> {
  return withBenchmarkPage(browser, async (indexAtRate) => {
    const cache = new Map<number, number>();
    const measure = async (rate: number) => {
      const known = cache.get(rate);
      if (known !== undefined) return known;
      const index = await indexAtRate(rate);
      cache.set(rate, index);
      return index;
    };
    const machineIndex = await measure(1);
    const rates: DeviceRate[] = [];
    for (const device of devices.filter((each) => wanted.includes(each.name))) {
      // A machine (or a moment of a shared one) already slower than the phone cannot be slowed to it.
      if (machineIndex < device.index) {
        rates.push({ name: device.name, target: device.index, rate: null, index: machineIndex });
        continue;
      }
      // Where the index is proportional to speed, rate = machine / target; the bisect's bounds allow for it not being quite so.
      const guess = machineIndex / device.index;
      const found = await bisect(measure, device.index, Math.max(1, truncate(guess * 0.6)), truncate(guess * 1.5));
      rates.push({ name: device.name, target: device.index, ...found });
    }
    return { machineIndex, rates };
  });
}

/** The index at a rate once more, to show how far the machine moved during the bench (after a warm-up run, as calibrate's). */
export function indexNow(browser: Browser, rate: number | null): Promise<number> {
  return withBenchmarkPage(browser, (indexAtRate) => indexAtRate(rate ?? 1));
}
