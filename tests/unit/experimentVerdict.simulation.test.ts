import { decideExperiment, sequentialDecision, type SequentialDecision, type VariantDays } from '../../server/experiments/experimentVerdict';
import { seededRandom } from '../../server/experiments/seededRandom';

/**
 * Simulated experiments, each decided once on all its days: the test looks at every day's running
 * totals and a decided pair stays decided, so "was a winner ever declared while the operator looked
 * daily" is the verdict on the last day. Seeded, so every run draws the same experiments and gets the
 * same figures. They call sequentialDecision, which is decideExperiment without the chance-to-be-best
 * draws (most of its cost); the last test checks that both give the same verdicts.
 */

/** Binomial(n, p) by inversion, walking the probabilities up from 0: about n·p steps, few for the means simulated here. */
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

interface Simulation {
  rates: number[];
  experiments: number;
  visitorsPerDay: number;
  days: number;
  seed: number;
}

function simulatedExperiments({ rates, experiments, visitorsPerDay, days, seed }: Simulation): VariantDays[][] {
  const random = seededRandom(seed);
  return Array.from({ length: experiments }, () =>
    rates.map((rate, v) => ({
      id: 'abcd'[v]!,
      days: Array.from({ length: days }, () => ({ visitors: visitorsPerDay, successes: binomial(random, visitorsPerDay, rate) })),
    })),
  );
}

const shareOf = (decisions: SequentialDecision[], counts: (decision: SequentialDecision) => boolean) => decisions.filter(counts).length / decisions.length;
const winnerOf = ({ verdict }: SequentialDecision) => (verdict.kind === 'winner' ? verdict.winner : null);

/** 667 a day for 60 days: 40,020 visitors per variant by the last look. */
const daily = { experiments: 1000, visitorsPerDay: 667, days: 60 };

describe('decideExperiment over simulated experiments, looked at daily for 60 days', () => {
  it('declares a winner in at most 5% of 1,000 A/A experiments with two variants at 2%', () => {
    const decisions = simulatedExperiments({ rates: [0.02, 0.02], seed: 1, ...daily }).map((variants) => sequentialDecision(variants));
    expect(shareOf(decisions, (decision) => winnerOf(decision) !== null)).toBeLessThanOrEqual(0.05);
  });

  it('declares a winner in at most 5% of 1,000 A/A experiments with three variants at 2%', () => {
    const decisions = simulatedExperiments({ rates: [0.02, 0.02, 0.02], seed: 2, ...daily }).map((variants) => sequentialDecision(variants));
    expect(shareOf(decisions, (decision) => winnerOf(decision) !== null)).toBeLessThanOrEqual(0.05);
  });

  it('declares b the winner in at least 80% of 1,000 experiments with a at 2.0% and b at 2.4%, by 40,000 visitors per variant', () => {
    const decisions = simulatedExperiments({ rates: [0.02, 0.024], seed: 3, ...daily }).map((variants) => sequentialDecision(variants));
    expect(shareOf(decisions, (decision) => winnerOf(decision) === 'b')).toBeGreaterThanOrEqual(0.8);
    expect(shareOf(decisions, (decision) => winnerOf(decision) === 'a')).toBe(0);
  });

  it('gives the same verdicts through decideExperiment as through sequentialDecision', () => {
    for (const variants of simulatedExperiments({ rates: [0.02, 0.024], seed: 4, experiments: 40, visitorsPerDay: 667, days: 60 })) {
      expect(decideExperiment(variants).verdict).toEqual(sequentialDecision(variants).verdict);
    }
  });
});
