/**
 * The mixture sequential probability ratio test (mSPRT) for a difference of two proportions, in the
 * normal-mixture form of Johari, Koomen, Pekelis and Walsh, "Peeking at A/B tests: why it matters, and
 * what to do about it" (KDD 2017), the form behind Optimizely's Stats Engine. Its p-value is always
 * valid: when two variants do not differ, the chance that it ever falls to α, however often anyone
 * looks, is at most α. The test itself looks once per UTC day, at the totals up to that day, so its
 * answer depends on the data alone, never on when or how often the operator opens the report.
 */

export interface Totals {
  readonly visitors: number;
  readonly successes: number;
}

/** One pair of variants, tested at every daily look. Indexes are positions in the input. */
export interface PairTest {
  readonly first: number;
  readonly second: number;
  /** Always-valid p-value, not corrected for the number of pairs: the smallest min(1, 1/Λ) over looks. */
  readonly pValue: number;
  /** The look (day index, oldest 0) at which pValue first fell to alphaPair; null while it has not. */
  readonly rejectedAtLook: number | null;
  /** The variant ahead at rejectedAtLook; a rejection is final, so later looks never change it. */
  readonly better: number | null;
}

/**
 * The mixing variance τ²: the square of the effect size of interest, `lift` (20%) of the pooled rate
 * at that look. Johari et al. tune τ to the effects one expects to find: the mixture then puts its
 * weight on differences of that size, and power falls only slowly when τ is off by a factor of two
 * either way. Scaling by the pooled rate lets one τ rule fit a 2% click rate and a 0.2% conversion
 * rate alike. The pooled rate moves from look to look, so τ² is not fixed in advance as the theory
 * assumes; the pooled rate carries next to no information about the difference, and the A/A
 * simulations in tests/unit/experimentVerdict.simulation.test.ts measure the error rate that results.
 */
export function mixingVariance(pooledRate: number, lift: number): number {
  return (lift * pooledRate) ** 2;
}

/**
 * One arm's share of V, with one success and one failure added (Agresti and Caffo, 2000), so that a
 * variant at 0% or 100% on a handful of visitors is not taken as certain: without it, 1 success
 * from 1 visitor has zero variance and "beats" 20 from 1,000. Where a rejection is possible at all
 * (hundreds of successes), the added pair moves V by well under 1%.
 */
function armVariance({ visitors, successes }: Totals): number {
  const rate = (successes + 1) / (visitors + 2);
  return (rate * (1 - rate)) / visitors;
}

/**
 * log Λ for one look at cumulative totals, and the observed difference of rates (first minus second).
 * Λ = sqrt(V/(V+τ²)) · exp(τ²Δ̂² / (2V(V+τ²))), taken as a logarithm so that large samples cannot
 * overflow it. Λ = 1 (no evidence) while either variant has no visitors or the pooled rate is 0 or 1.
 */
export function logMixtureRatio(first: Totals, second: Totals, lift: number): { logRatio: number; difference: number } {
  if (first.visitors <= 0 || second.visitors <= 0) return { logRatio: 0, difference: 0 };
  const difference = first.successes / first.visitors - second.successes / second.visitors;
  const pooled = (first.successes + second.successes) / (first.visitors + second.visitors);
  if (!(pooled > 0 && pooled < 1)) return { logRatio: 0, difference };
  const v = armVariance(first) + armVariance(second);
  const tau2 = mixingVariance(pooled, lift);
  const logRatio = 0.5 * Math.log(v / (v + tau2)) + (tau2 * difference ** 2) / (2 * v * (v + tau2));
  return { logRatio, difference };
}

/**
 * Tests every pair (0,1), (0,2), … (k−2,k−1) at every look. cumulative[v][d] holds variant v's totals
 * up to and including day d; all variants have the same number of days.
 */
export function sequentialTests(cumulative: ReadonlyArray<ReadonlyArray<Totals>>, alphaPair: number, lift: number): PairTest[] {
  const pairs: PairTest[] = [];
  for (let first = 0; first < cumulative.length; first++) {
    for (let second = first + 1; second < cumulative.length; second++) {
      pairs.push(pairTest(cumulative, first, second, alphaPair, lift));
    }
  }
  return pairs;
}

function pairTest(cumulative: ReadonlyArray<ReadonlyArray<Totals>>, first: number, second: number, alphaPair: number, lift: number): PairTest {
  const looksOfFirst = cumulative[first] ?? [];
  const looksOfSecond = cumulative[second] ?? [];
  const looks = Math.min(looksOfFirst.length, looksOfSecond.length);
  let pValue = 1;
  let rejectedAtLook: number | null = null;
  let better: number | null = null;
  for (let look = 0; look < looks; look++) {
    const { logRatio, difference } = logMixtureRatio(looksOfFirst[look]!, looksOfSecond[look]!, lift);
    pValue = Math.min(pValue, Math.exp(-logRatio));
    if (rejectedAtLook === null && pValue <= alphaPair) {
      rejectedAtLook = look;
      better = difference > 0 ? first : second;
    }
  }
  return { first, second, pValue, rejectedAtLook, better };
}

/**
 * Visitors per variant this test needs to tell `lift` (relative to the pooled rate) with the given
 * power at alphaPair; null when the pooled rate gives nothing to scale the difference by.
 *
 * It supposes two variants at pooled ± half the difference and finds, numerically, the smallest n at
 * which Λ reaches 1/alphaPair when Δ̂ sits at its (1 − power) quantile, Δ − z_power·sqrt(V). That is
 * the power of a single look at n; the test also looks on every earlier day, and a difference that
 * crossed earlier stays found, so the real power at n is higher and the figure is conservative, by a
 * few points: for 2.2% pooled and a 20% lift it gives 33,799 per variant, and 1,000 simulated runs of
 * 1.98% against 2.42% found the difference by then in 88% of runs looked at over 60 days, 85% over 10.
 */
export function visitorsToTell(pooledRate: number, options: { lift: number; power: number; alphaPair: number }): number | null {
  const { lift, power, alphaPair } = options;
  if (!(pooledRate > 0 && pooledRate <= 1)) return null;
  const difference = lift * pooledRate;
  // Above 50% the pair leans on 100%, the most either rate can be.
  const higher = Math.min(1, pooledRate + difference / 2);
  const lower = Math.max(0, higher - difference);
  const spread = higher * (1 - higher) + lower * (1 - lower);
  if (!(spread > 0)) return 1;
  // With τ = Δ and u = Δ/sqrt(V), log Λ at the quantile depends on u alone; n then follows from V = spread/n.
  const u = thresholdDistance(normalQuantile(power), Math.log(1 / alphaPair));
  return Math.max(1, Math.ceil((spread * u * u) / difference ** 2));
}

/** Smallest u > z with −½·ln(1+u²) + u²(u−z)² / (2(1+u²)) ≥ target: the log Λ above, with Δ̂/sqrt(V) = u − z. */
export function thresholdDistance(z: number, target: number): number {
  const logRatio = (u: number) => -0.5 * Math.log1p(u * u) + (u * u * (u - z) ** 2) / (2 * (1 + u * u));
  // log Λ dips just past z and then grows like (u − z)²/2, so stepping finds the first crossing; 100 is
  // reached only when target is above 4,000, an α below e^-4000 that no caller will ask for.
  const step = 0.05;
  let low = Math.max(z, 0);
  while (logRatio(low + step) < target && low < z + 100) low += step;
  let high = low + step;
  for (let halving = 0; halving < 50; halving++) {
    const middle = (low + high) / 2;
    if (logRatio(middle) < target) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * The standard normal quantile, by Abramowitz and Stegun 26.2.23 (absolute error under 4.5e-4, which
 * moves visitorsToTell by well under 1%).
 */
export function normalQuantile(probability: number): number {
  if (probability < 0.5) return -normalQuantile(1 - probability);
  const t = Math.sqrt(-2 * Math.log(1 - probability));
  return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
}
