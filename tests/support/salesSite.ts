import { clickCap, conversionRate, rateWindowDays, salesVerdict, type SalesFacts } from '../../server/alerts/rules/salesRule';
import { seededRandom } from '../../server/experiments/seededRandom';
import { watchPeriodMs } from '../../server/alerts/watch';
import { dayMs } from '../../server/lib/utcDay';
import { countAtMost } from './countAtMost';

/**
 * A seeded site whose placements get clicks at steady rates, some of which turn into sales that arrive
 * days later, run through the real sales rule (salesRule.ts: salesVerdict) at the watch's cadence, a look
 * every watchPeriodMs. The facts are computed as readSalesFacts reads them from the tables, from sorted
 * arrays of click and arrival times instead of rows: the last sale, its 30 days' sales and clicks, and the
 * clicks since it, counted up to clickCap.
 */

export interface SalesSiteSettings {
  seed: number;
  days: number;
  /** Clicks a day on each placement. */
  clicksPerDay: readonly number[];
  rate: number;
  /** Mean days from click to the sale's arrival (exponential). */
  delayMeanDays: number;
  /** Looks start after this many days, so the first has a month of history. */
  warmUpDays: number;
  /** From this moment (ms after the start) no sale arrives any more on any placement: postbacks stopped. */
  stopAt?: number;
}

export interface SalesSiteRun {
  /** Each alert opened: the placement's index and when (ms after the start). */
  openings: { placement: number; at: number }[];
  looks: number;
  /** Sales that arrived on each placement during the looks. */
  sales: number[];
}


const start = Date.parse('2026-01-01T00:00:00Z');

export function runSalesSite(settings: SalesSiteSettings): SalesSiteRun {
  const random = seededRandom(settings.seed);
  const end = start + settings.days * dayMs;
  const placements = settings.clicksPerDay.map((perDay) => {
    const clicks: number[] = [];
    const arrivals: number[] = [];
    for (let at = start + (-Math.log(1 - random()) * dayMs) / perDay; at < end; at += (-Math.log(1 - random()) * dayMs) / perDay) {
      clicks.push(at);
      if (random() < settings.rate) {
        const arrival = at + -Math.log(1 - random()) * settings.delayMeanDays * dayMs;
        if (settings.stopAt === undefined || arrival < start + settings.stopAt) arrivals.push(arrival);
      }
    }
    return { clicks: Float64Array.from(clicks), arrivals: Float64Array.from(arrivals.sort((a, b) => a - b)) };
  });
  const open = new Set<number>();
  const openings: { placement: number; at: number }[] = [];
  const sales = placements.map(() => 0);
  let looks = 0;
  const first = start + settings.warmUpDays * dayMs;
  for (let at = first; at < end; at += watchPeriodMs) {
    looks += 1;
    placements.forEach(({ clicks, arrivals }, index) => {
      const verdict = salesVerdict(factsAt(`p${index}`, clicks, arrivals, at));
      if (!verdict) return;
      if (verdict.wrong && !open.has(index)) {
        open.add(index);
        openings.push({ placement: index, at: at - start });
      } else if (!verdict.wrong) open.delete(index);
    });
  }
  placements.forEach(({ arrivals }, index) => (sales[index] = countAtMost(arrivals, end) - countAtMost(arrivals, first)));
  return { openings, looks, sales };
}

/** The facts readSalesFacts would read at `at`. */
function factsAt(placement: string, clicks: Float64Array, arrivals: Float64Array, at: number): SalesFacts {
  const arrived = countAtMost(arrivals, at);
  if (arrived === 0) return { placement, windowSales: 0, windowClicks: 0, clicksSince: 0 };
  const lastSaleAt = arrivals[arrived - 1]!;
  const windowEnd = Math.floor(lastSaleAt / dayMs) * dayMs + dayMs;
  const windowStart = windowEnd - rateWindowDays * dayMs;
  const windowSales = arrived - countAtMost(arrivals, windowStart - 1);
  const windowClicks = countAtMost(clicks, Math.min(windowEnd - 1, at)) - countAtMost(clicks, windowStart - 1);
  const rate = conversionRate({ windowSales, windowClicks });
  if (rate === undefined) return { placement, lastSaleAt, windowSales, windowClicks, clicksSince: 0 };
  const since = countAtMost(clicks, at) - countAtMost(clicks, lastSaleAt);
  return { placement, lastSaleAt, windowSales, windowClicks, clicksSince: Math.min(since, clickCap(rate, windowSales)) };
}
