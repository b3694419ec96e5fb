import { costVerdict, type CostVerdict } from '../../server/costs/costVerdict';
import { seededRandom } from '../../server/experiments/seededRandom';

/**
 * Simulated campaigns with a true conversion rate, a fixed payout and a fixed cost per visitor, looked at
 * once a day on their running totals, as an operator opening the report every morning would. Seeded, so
 * every run draws the same campaigns and gets the same figures.
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
  payoutMicros: number;
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
function simulatedLooks({ trueReturn, rate, payoutMicros, visitorsPerDay, days, campaigns, seed }: Campaigns): Look[][] {
  const random = seededRandom(seed);
  const costPerVisitorMicros = Math.round((rate * payoutMicros) / (1 + trueReturn));
  return Array.from({ length: campaigns }, () => {
    let conversions = 0;
    return Array.from({ length: days }, (_, day) => {
      const visitors = visitorsPerDay * (day + 1);
      conversions += binomial(random, visitorsPerDay, rate);
      const verdict = costVerdict({ visitors, conversions, revenueMicros: conversions * payoutMicros, costMicros: visitors * costPerVisitorMicros });
      return { visitors, verdict };
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
});
