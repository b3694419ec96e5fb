import { normalQuantile, thresholdDistance } from '../experiments/sequentialTest';
/**
 * Whether one source, campaign or ad pays for itself (issue 27): from its visitors, its sales, what they
 * paid and what it cost, in micros of one currency. Pure and deterministic: the same figures give the
 * same answer on every call, with no random draws.
 *
 * The model (issue 41 item 3), a compound one. Each visitor converts or not, independently, with one
 * unknown rate r; each sale pays an amount drawn from the site's payouts, of mean p and squared coefficient
 * of variation s (the spread); every visitor costs c = cost / visitors. The campaign pays for itself when
 * r·p > c. Only sales paid above 0 are sales: a lead paid 0 adds nothing to revenue and nothing here.
 *
 * Revenue is read in units of u = p·(1 + s): k = revenue / u "effective sales" at a rate k/n against the
 * break-even rate r₀ = c / u. Under break-even a visitor's revenue has variance r·E[X²] − c² =
 * c·u·(1 − r₀), exactly u² times the variance r₀(1 − r₀) of a yes-or-no conversion at r₀, so the rate tests
 * below hold as they stand; with fixed payouts (s = 0) and p the mean so far, k is the count of sales and
 * the test is the one the verdict always ran. A spread makes each sale worth fewer effective sales, and
 * the verdict waits for (1 + s) times as much revenue before it calls.
 *
 * p is the larger of the campaign's own mean payout (revenue / sales) and the site's (payoutMicros), so a
 * first sale of 8 against a site's mean of 40 is one small draw of 40's distribution, not a new payout; a
 * campaign whose payouts are larger than the site's is reckoned with its own, the wider spread. s is the
 * caller's (the site's payouts, with its floor while they are few: server/costs/payoutSpread.ts), 1 when
 * not given: an exponential's, on the side of caution.
 *
 * - chanceProfitable informs: P(r > r₀) under the Beta(1 + k, 1 + n − k) posterior (a uniform prior, as
 *   the split tests' chance to be best uses), by the regularized incomplete beta function. A campaign with
 *   3 sales gets a wide posterior and a chance near the middle; it takes many to push it towards 0 or 1.
 * - verdict decides, by an always-valid test, the mixture sequential probability ratio test that
 *   server/experiments/sequentialTest.ts runs for two variants, here for one rate against r₀: the rate
 *   k/n against r₀ with the variance r₀(1 − r₀)/n it has when the campaign breaks even, and a normal
 *   mixture of width τ = lift·r₀ (lift 30%: a return of ±30% on the spend). By Ville's inequality, a
 *   campaign that truly breaks even has Λ ≥ 1/α at any look, ever, with chance at most α, so looking at
 *   today's totals every day, however long, calls it either way in at most α of campaigns (up to the
 *   normal approximation of the revenue, which tests/unit/costVerdict.simulation.test.ts measures at small
 *   counts, fixed payouts and payouts of coefficient of variation 1).
 *
 * Assumptions, stated so that a reader can tell when they fail: payouts are drawn from one distribution
 * whose spread is no wider than s says; visitors are alike and independent across days (a campaign whose
 * audience changes mid-way is two campaigns); cost per visitor is what it has averaged so far.
 */

export interface CostFigures {
  /** Visitors the source, campaign or ad brought, at least 0. */
  readonly visitors: number;
  /**
   * Sales among them paid above 0, net of refunds, at least 0. They set the campaign's own mean payout and
   * the break-even per sale; a count with leads paid 0 in it only lowers that own mean, which the site's
   * payoutMicros then outweighs.
   */
  readonly conversions: number;
  /** What those conversions paid, in micros. */
  readonly revenueMicros: number;
  /** What the visitors cost, in micros of the same currency. */
  readonly costMicros: number;
  /**
   * The site's mean payout of sales paid above 0, in this currency: what a campaign without a sale of its
   * own is planned with, and the least its payouts are reckoned at. Without it, a campaign with no sale has
   * no chance and no test.
   */
  readonly payoutMicros?: number;
  /** The payouts' squared coefficient of variation (variance ÷ mean²), at least 0; default 1 (exponential payouts). */
  readonly payoutSpread?: number;
}

/** The spread the verdict assumes when its caller gives none: payouts as varied as an exponential's. */
export const defaultVerdictSpread = 1;

export interface CostVerdictOptions {
  /** Chance of calling a campaign that truly breaks even either way, over all its looks; default 0.05. */
  alpha?: number;
  /** The return on spend worth telling, either way (0.3: −30% or +30%); sets τ and visitorsToKnow; default 0.3. */
  lift?: number;
  /** Chance of telling a return of ±lift at the visitors visitorsToKnow asks for; default 0.8. */
  power?: number;
}

export type CostVerdictKind = 'losing' | 'paying' | 'too-early';

export interface CostVerdict {
  /**
   * P(the visitors' expected revenue is above their cost) under the posterior; null while there is no
   * payout to reckon with (no conversion and no payoutMicros).
   */
  chanceProfitable: number | null;
  verdict: CostVerdictKind;
  /**
   * With 'too-early': about how many more visitors it takes to know, rounded up to two significant
   * figures; null while there is no payout or no cost to plan with. Absent with 'losing' and 'paying'.
   */
  visitorsToKnow?: number | null;
  /** Return on spend so far, revenue / cost − 1; null without cost. */
  returnOnSpend: number | null;
  /** The always-valid p-value of this look, min(1, 1/Λ); the verdict is called when it is ≤ alpha. */
  pValue: number;
  breakEven: {
    /** Revenue per visitor so far, rounded down: the most a visitor may cost; null without visitors. */
    maxCostPerVisitorMicros: number | null;
    /** Revenue per sale so far, rounded down: the most a sale may cost; null without sales. */
    maxCostPerSaleMicros: number | null;
  };
}

const defaults = { alpha: 0.05, lift: 0.3, power: 0.8 };

export function costVerdict(figures: CostFigures, options: CostVerdictOptions = {}): CostVerdict {
  const { alpha, lift, power } = { ...defaults, ...options };
  const visitors = Math.max(0, Math.floor(figures.visitors));
  const conversions = Math.min(visitors, Math.max(0, Math.floor(figures.conversions)));
  const { revenueMicros, costMicros } = figures;
  const breakEven = {
    maxCostPerVisitorMicros: visitors > 0 ? Math.floor(revenueMicros / visitors) : null,
    maxCostPerSaleMicros: conversions > 0 ? Math.floor(revenueMicros / conversions) : null,
  };
  const returnOnSpend = costMicros > 0 ? revenueMicros / costMicros - 1 : null;
  const undecided = (chanceProfitable: number | null, visitorsToKnow: number | null): CostVerdict => ({
    chanceProfitable,
    verdict: 'too-early',
    visitorsToKnow,
    returnOnSpend,
    pValue: 1,
    breakEven,
  });

  // Nothing spent cannot lose money; every conversion it brings is profit.
  if (costMicros <= 0) return { chanceProfitable: 1, verdict: 'paying', returnOnSpend, pValue: 1, breakEven };
  // Spend with no visitors yet has earned nothing, and there is no rate to judge.
  if (visitors === 0) return undecided(0, null);
  const ownPayout = conversions > 0 && revenueMicros > 0 ? revenueMicros / conversions : 0;
  const sitePayout = figures.payoutMicros !== undefined && Number.isFinite(figures.payoutMicros) ? figures.payoutMicros : 0;
  const payout = Math.max(ownPayout, sitePayout);
  if (!(payout > 0)) return undecided(null, null);
  // A visitor who costs more than a sale pays on average loses money whatever the rate.
  if (costMicros / visitors >= payout) return { chanceProfitable: 0, verdict: 'losing', returnOnSpend, pValue: 0, breakEven };

  const spread = figures.payoutSpread !== undefined && Number.isFinite(figures.payoutSpread) && figures.payoutSpread >= 0 ? figures.payoutSpread : defaultVerdictSpread;
  const unit = payout * (1 + spread);
  const breakEvenRate = costMicros / visitors / unit;
  const sales = Math.min(visitors, Math.max(0, revenueMicros) / unit);
  const rate = sales / visitors;

  const chanceProfitable = 1 - regularizedBeta(breakEvenRate, 1 + sales, 1 + visitors - sales);
  const logRatio = logMixtureRatio(rate - breakEvenRate, breakEvenRate, visitors, lift);
  const pValue = Math.min(1, Math.exp(-logRatio));
  if (pValue <= alpha) {
    return { chanceProfitable, verdict: rate > breakEvenRate ? 'paying' : 'losing', returnOnSpend, pValue, breakEven };
  }
  const needed = visitorsNeeded(breakEvenRate, plannedLift(visitors, breakEvenRate, rate, { alpha, lift, power }), { alpha, power });
  // A return past ±lift that is not called yet is noise of a few days: a tenth more visitors, at least.
  return { ...undecided(chanceProfitable, roundUp(Math.max(needed - visitors, Math.ceil(visitors / 10)))), pValue };
}

/**
 * log Λ for the rate against r₀ at n visitors: Λ = sqrt(V/(V+τ²)) · exp(τ²Δ̂² / (2V(V+τ²))), with
 * V = r₀(1 − r₀)/n, the variance of the observed rate when the campaign breaks even, and τ = lift·r₀.
 */
export function logMixtureRatio(difference: number, breakEvenRate: number, visitors: number, lift: number): number {
  const v = (breakEvenRate * (1 - breakEvenRate)) / visitors;
  const tau2 = (lift * breakEvenRate) ** 2;
  if (!(v > 0 && tau2 > 0)) return 0;
  return 0.5 * Math.log(v / (v + tau2)) + (tau2 * difference ** 2) / (2 * v * (v + tau2));
}

/**
 * The return to plan with: the design's lift while the campaign has fewer visitors than that needs. Past
 * them, its return is probably within ±lift of break-even, and the figure is for the return seen so far
 * (at least a third of lift, so that a campaign at break-even is not asked for millions), and at least a
 * tenth more visitors than it has.
 */
function plannedLift(visitors: number, breakEvenRate: number, rate: number, design: Required<CostVerdictOptions>): number {
  if (visitors < visitorsNeeded(breakEvenRate, design.lift, design)) return design.lift;
  return Math.min(design.lift, Math.max(design.lift / 3, Math.abs(rate / breakEvenRate - 1)));
}

/**
 * Visitors at which a campaign whose return is ±lift is called with chance `power` at one look: the
 * smallest n at which Λ reaches 1/α when r̂ sits at its (1 − power) quantile, as visitorsToTell in
 * server/experiments/sequentialTest.ts. The test also looks on every earlier day and a call made then
 * counts, so the real chance by n is somewhat higher: the figure is conservative.
 */
export function visitorsNeeded(breakEvenRate: number, lift: number, design: { alpha: number; power: number }): number {
  // With τ = Δ = lift·r₀ and u = Δ/sqrt(V), log Λ at the quantile depends on u alone; n follows from V.
  const u = distanceFor(design);
  return Math.ceil(((1 - breakEvenRate) * u * u) / (lift * lift * breakEvenRate));
}

/**
 * thresholdDistance for a design, solved once per design: it depends on the design alone, and solving it
 * was most of what a report's few hundred verdicts cost (a year of 200 campaigns and their ads).
 */
const distances = new Map<string, number>();
function distanceFor({ alpha, power }: { alpha: number; power: number }): number {
  const key = `${alpha} ${power}`;
  let u = distances.get(key);
  if (u === undefined) {
    u = thresholdDistance(normalQuantile(power), Math.log(1 / alpha));
    // Designs are the code's constants and the tests' few: bounded all the same.
    if (distances.size >= 64) distances.clear();
    distances.set(key, u);
  }
  return u;
}

/** Up to two significant figures: 4,137 → 4,200. */
function roundUp(count: number): number {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(count)) - 1);
  return Math.ceil(count / scale) * scale;
}


/**
 * I_x(a, b), the Beta(a, b) distribution function at x, by the continued fraction of Numerical Recipes
 * (§6.4, modified Lentz), taken on whichever side of the mean converges fast. The fraction needs about
 * sqrt(max(a, b)) terms; past 20,000 terms (counts in the hundreds of millions) the Beta is as normal as
 * makes no difference to a figure read as a percentage, and its normal approximation is used instead.
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const lower = x < (a + 1) / (a + b + 2);
  const fraction = lower ? continuedFraction(x, a, b) : continuedFraction(1 - x, b, a);
  if (fraction === null) {
    const mean = a / (a + b);
    const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));
    return normalDistribution((x - mean) / sd);
  }
  const value = lower ? (Math.exp(logFront) * fraction) / a : 1 - (Math.exp(logFront) * fraction) / b;
  return Math.min(1, Math.max(0, value));
}

function continuedFraction(x: number, a: number, b: number): number | null {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 20_000; m++) {
    const m2 = 2 * m;
    for (const coefficient of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + coefficient * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + coefficient / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
      if (Math.abs(d * c - 1) < 1e-15) return h;
    }
  }
  return null;
}

/** ln Γ(z), z > 0, by Lanczos's approximation (g = 7, nine terms; relative error about 1e-15). */
function logGamma(z: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const shifted = z - 1;
  let sum = coefficients[0]!;
  for (let k = 1; k < 9; k++) sum += coefficients[k]! / (shifted + k);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Φ(z), the standard normal distribution function, from erfc (Numerical Recipes' erfcc, relative error under 1.2e-7). */
function normalDistribution(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}
