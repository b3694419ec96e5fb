import { costVerdict, type CostVerdict } from '../../server/costs/costVerdict';
import { payoutModel } from '../../server/costs/payoutSpread';
import { seededRandom } from '../../server/experiments/seededRandom';

/**
 * Simulated campaigns with a true conversion rate, a payout (fixed, or drawn with a coefficient of
 * variation of 1) and a fixed cost per visitor, looked at once a day on their running totals, as an
 * operator opening the report every morning would. Seeded, so every run draws the same campaigns and gets
 * the same figures.
 */

/** Binomial(n, p) by inversion, walking the probabilities up from 0: about n·p steps. */
function binomial(random: () => number, n: number, p: number): number {
  const odds = p / (1 - p);
  let probability = (1 - p) ** n;
  let cumulative = probability;
  const u = random();
  let k = 0;
  while (u > cumulative && k < n) {
    probability *= ((n - k) / (k + 1)) * odds;
    k++;
    cumulative += probability;
  }
  return k;
}

interface Campaigns {
  /** Revenue over cost, minus 1: −0.3 loses 30 cents of each dollar spent. */
  trueReturn: number;
  rate: number;
  /** The payouts' mean. */
  payoutMicros: number;
  /**
   * How payouts vary and what the verdict is told of them. 'fixed': every sale pays payoutMicros, and the
   * verdict is told so (a spread of 0, its own mean). 'varied, site known': payouts exponential (coefficient
   * of variation 1), the verdict given the site's mean and spread as a site of many such sales reads them
   * (payoutMicros, 1). 'varied, site alone': the same payouts, the campaign the site's only one, so the
   * verdict's mean and spread are its own sales' (payoutSpread.ts, with its floor).
   */
  payouts?: 'fixed' | 'varied, site known' | 'varied, site alone';
  visitorsPerDay: number;
  days: number;
  campaigns: number;
  seed: number;
}

interface Look {
  visitors: number;
  verdict: CostVerdict;
}

/** Each campaign's daily looks, oldest first. */
function simulatedLooks({ trueReturn, rate, payoutMicros, payouts = 'fixed', visitorsPerDay, days, campaigns, seed }: Campaigns): Look[][] {
  const random = seededRandom(seed);
  const costPerVisitorMicros = Math.round((rate * payoutMicros) / (1 + trueReturn));
  // An exponential draw of mean payoutMicros, in whole micros.
  const drawn = () => (payouts === 'fixed' ? payoutMicros : Math.max(1, Math.round(-Math.log(1 - random()) * payoutMicros)));
  return Array.from({ length: campaigns }, () => {
    let conversions = 0;
    let revenueMicros = 0;
    let squares = 0;
    return Array.from({ length: days }, (_, day) => {
      const visitors = visitorsPerDay * (day + 1);
      const sales = binomial(random, visitorsPerDay, rate);
      for (let sale = 0; sale < sales; sale++) {
        const payout = drawn();
        revenueMicros += payout;
        squares += (payout / 1_000_000) ** 2;
      }
      conversions += sales;
      const figures = { visitors, conversions, revenueMicros, costMicros: visitors * costPerVisitorMicros };
      const site = payoutModel({ sales: conversions, micros: revenueMicros, squares });
      const told =
        payouts === 'fixed'
          ? { payoutSpread: 0 }
          : payouts === 'varied, site known'
            ? { payoutMicros, payoutSpread: 1 }
            : { ...(site.reckonedMicros === undefined ? {} : { payoutMicros: site.reckonedMicros }), payoutSpread: site.spread };
      return { visitors, verdict: costVerdict({ ...figures, ...told }) };
    });
  });
}

const shareOf = (runs: Look[][], counts: (looks: Look[]) => boolean) => runs.filter(counts).length / runs.length;
const everCalled = (looks: Look[]) => looks.some(({ verdict }) => verdict.verdict !== 'too-early');

/**
 * The visitors the verdict asked for: at the first look with a figure, the visitors it had plus
 * visitorsToKnow; the look that first has that many is where the campaign is judged.
 */
function lookAtVisitorsAskedFor(looks: Look[]): Look | undefined {
  const asking = looks.find(({ verdict }) => verdict.verdict === 'too-early' && typeof verdict.visitorsToKnow === 'number');
  if (!asking) return undefined;
  const target = asking.visitors + asking.verdict.visitorsToKnow!;
  return looks.find(({ visitors }) => visitors >= target);
}

/** A 2% conversion rate and a 40.00 payout: a visitor is worth 0.80. */
const campaign = { rate: 0.02, payoutMicros: 40_000_000, days: 60 };

/*
 * Measured with these seeds: break-even campaigns were called either way in 1.6% of runs at 200 visitors
 * a day, 0.6% at 25 and 3.3% at 2,000, 2.6% at a 0.5% rate and 2.1% at a 10% rate (4,000 runs each with other seeds: 1.9% at 200 a day, 2.4% at
 * 0.5%, 2.1% at 10%: the bound of 5% holds with room, as a mixture test looked at only daily does); the −30% campaign was called losing at the look with the visitors
 * it was asked for in 83.6% of runs, losing at some look within 60 days in 100%, paying in none.
 */

describe('costVerdict over simulated campaigns, looked at daily for 60 days', () => {
  it('calls a campaign that truly breaks even either way in at most 5% of 1,000 runs (200 visitors a day)', () => {
    const runs = simulatedLooks({ ...campaign, trueReturn: 0, visitorsPerDay: 200, campaigns: 1000, seed: 11 });
    expect(shareOf(runs, everCalled)).toBeLessThanOrEqual(0.05);
  });

  it('calls a small campaign that truly breaks even either way in at most 5% of 1,000 runs (25 visitors a day)', () => {
    const runs = simulatedLooks({ ...campaign, trueReturn: 0, visitorsPerDay: 25, campaigns: 1000, seed: 12 });
    expect(shareOf(runs, everCalled)).toBeLessThanOrEqual(0.05);
  });

  it('calls a large campaign that truly breaks even either way in at most 5% of 300 runs (2,000 visitors a day)', () => {
    const runs = simulatedLooks({ ...campaign, trueReturn: 0, visitorsPerDay: 2000, campaigns: 300, seed: 13 });
    expect(shareOf(runs, everCalled)).toBeLessThanOrEqual(0.05);
  });

  it('calls campaigns that truly break even at 0.5% and at 10% either way in at most 5% of 1,000 runs', () => {
    const rare = simulatedLooks({ rate: 0.005, payoutMicros: 160_000_000, days: 60, trueReturn: 0, visitorsPerDay: 1000, campaigns: 1000, seed: 15 });
    const common = simulatedLooks({ rate: 0.1, payoutMicros: 8_000_000, days: 60, trueReturn: 0, visitorsPerDay: 50, campaigns: 1000, seed: 16 });
    expect(shareOf(rare, everCalled)).toBeLessThanOrEqual(0.05);
    expect(shareOf(common, everCalled)).toBeLessThanOrEqual(0.05);
  });

  it('calls a campaign that truly returns −30% losing in at least 80% of 1,000 runs once it has the visitors the verdict asked for', () => {
    const runs = simulatedLooks({ ...campaign, trueReturn: -0.3, visitorsPerDay: 200, campaigns: 1000, seed: 14 });
    const judged = runs.map(lookAtVisitorsAskedFor);
    expect(judged.filter((look) => look === undefined)).toEqual([]);
    expect(judged.filter((look) => look?.verdict.verdict === 'losing').length / runs.length).toBeGreaterThanOrEqual(0.8);
    expect(shareOf(runs, (looks) => looks.some(({ verdict }) => verdict.verdict === 'paying'))).toBe(0);
  });

  describe('with payouts that vary (exponential, coefficient of variation 1)', () => {
    /*
     * Measured with these seeds: break-even campaigns were called either way in 0.6% of runs (losing in 0.2%)
     * with the site's payouts known, and, with the campaign the site's only one (its own few sales the
     * payouts' mean and spread, payoutSpread.ts's floor and margin), in 1.6% at 200 visitors a day (losing
     * 1.1%) and 3.0% at 25 (all losing). The −30% campaign was called losing within 60 days in 88.3% of runs,
     * paying in none. Without the floor and margin the site-alone figures were 5.5% and 8.4%.
     */
    const calledLosing = (looks: Look[]) => looks.some(({ verdict }) => verdict.verdict === 'losing');

    it("calls a campaign that truly breaks even either way in at most 5% of 1,000 runs, the site's payouts known (200 visitors a day)", () => {
      const runs = simulatedLooks({ ...campaign, payouts: 'varied, site known', trueReturn: 0, visitorsPerDay: 200, campaigns: 1000, seed: 21 });
      expect(shareOf(runs, everCalled)).toBeLessThanOrEqual(0.05);
    });

    it("calls one that breaks even either way in at most 5% of 1,000 runs when its own few sales are the site's payouts (200 and 25 visitors a day)", () => {
      const busy = simulatedLooks({ ...campaign, payouts: 'varied, site alone', trueReturn: 0, visitorsPerDay: 200, campaigns: 1000, seed: 23 });
      const small = simulatedLooks({ ...campaign, payouts: 'varied, site alone', trueReturn: 0, visitorsPerDay: 25, campaigns: 1000, seed: 24 });
      expect(shareOf(busy, everCalled)).toBeLessThanOrEqual(0.05);
      expect(shareOf(small, everCalled)).toBeLessThanOrEqual(0.05);
    });

    it('calls a campaign that truly returns −30% losing within 60 days in at least 80% of 300 runs, and paying in none', () => {
      const runs = simulatedLooks({ ...campaign, payouts: 'varied, site known', trueReturn: -0.3, visitorsPerDay: 200, campaigns: 300, seed: 121 });
      expect(shareOf(runs, calledLosing)).toBeGreaterThanOrEqual(0.8);
      expect(shareOf(runs, (looks) => looks.some(({ verdict }) => verdict.verdict === 'paying'))).toBe(0);
    });
  });
});
