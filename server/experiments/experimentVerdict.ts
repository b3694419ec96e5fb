import { chanceBest } from './chanceBest';
import { sequentialTests, visitorsToTell, type Totals } from './sequentialTest';
import { countText } from '../lib/numberFormat';

/** One variant's counts per UTC day since the experiment began, oldest first, each day on its own (not cumulative). */
export interface VariantDays {
  id: string;
  days: Array<{ visitors: number; successes: number }>;
}

export interface ExperimentOptions {
  /** Chance of declaring any winner when no variant differs, over the experiment's whole life; default 0.05. */
  alpha?: number;
  /** The relative difference (of the pooled rate) worth finding; sets τ and the visitors needed; default 0.2. */
  lift?: number;
  /** Chance of telling that difference at the visitors the verdict asks for; default 0.8. */
  power?: number;
}

/** The settings a decision was made with: alphaPair is alpha split by Bonferroni over the pairs. */
export interface ExperimentDesign {
  alpha: number;
  alphaPair: number;
  lift: number;
  power: number;
}

export interface PairResult {
  first: string;
  second: string;
  /** Always-valid p-value of this pair alone, before any correction; the pair is decided when it is ≤ alphaPair. */
  pValue: number;
  /** The variant found better, or null while the pair is undecided. */
  better: string | null;
  /** Index of the day (oldest 0) whose look decided the pair, or null. */
  decidedOnDay: number | null;
}

export type Verdict =
  /** lift: relative, the winner's rate over the best other variant's (versus), on the final totals. */
  | { kind: 'winner'; winner: string; versus: string; lift: number; pValue: number }
  | { kind: 'no-difference' }
  /** moreVisitorsPerVariant: rounded up to two significant figures; null when no success yet gives a rate to plan with. */
  | { kind: 'keep-running'; moreVisitorsPerVariant: number | null };

/** Everything decided from the always-valid test; the chance to be best only informs. */
export interface SequentialDecision {
  /** The variants' ids, in input order. */
  variantIds: string[];
  /**
   * The smallest always-valid p-value among the pairs, Bonferroni-adjusted (times the number of pairs,
   * at most 1), so that it reads against alpha whatever the number of variants. In a 'winner' verdict,
   * pValue is instead the largest adjusted p-value of the winner's pairs: every one of them had to pass.
   */
  pValue: number;
  pairs: PairResult[];
  /** Visitors per variant the test needs to tell design.lift with design.power; null before any success. */
  visitorsNeededPerVariant: number | null;
  design: ExperimentDesign;
  verdict: Verdict;
}

export interface ExperimentDecision extends SequentialDecision {
  /** Chance each variant has the highest rate, in input order; sums to 1. It never decides the verdict. */
  chanceBest: number[];
}

/**
 * Whether a split test has found a better variant, found none that a `lift` difference would have
 * shown, or must keep running, and for how long. Pure: the counts in, the same decision out.
 * Throws a RangeError for input no store can produce (fewer than 2 or more than 4 variants, repeated
 * ids, counts that are not whole numbers ≥ 0) or options outside their ranges.
 */
export function decideExperiment(variants: VariantDays[], options: ExperimentOptions = {}): ExperimentDecision {
  const decision = sequentialDecision(variants, options);
  return { ...decision, chanceBest: chanceBest(finalTotals(variants)) };
}

/**
 * decideExperiment without the chance to be best, whose 20,000 Beta draws per variant cost some
 * milliseconds: for simulations, which decide thousands of experiments. The verdict is the same.
 */
export function sequentialDecision(variants: VariantDays[], options: ExperimentOptions = {}): SequentialDecision {
  const design = designOf(variants, options);
  const cumulative = variants.map((variant) => cumulativeTotals(variant, dayCount(variants)));
  const finals = cumulative.map(lastOf);
  const tests = sequentialTests(cumulative, design.alphaPair, design.lift);
  const pairCount = tests.length;
  const adjusted = (p: number) => Math.min(1, p * pairCount);
  const variantIds = variants.map(({ id }) => id);
  const idOf = (index: number | null) => (index === null ? null : variantIds[index]!);
  const pairs: PairResult[] = tests.map((test) => ({
    first: variantIds[test.first]!,
    second: variantIds[test.second]!,
    pValue: test.pValue,
    better: idOf(test.better),
    decidedOnDay: test.rejectedAtLook,
  }));
  const pooled = finals.reduce((sum, totals) => ({ visitors: sum.visitors + totals.visitors, successes: sum.successes + totals.successes }));
  const visitorsNeededPerVariant = visitorsToTell(rateOf(pooled), design);
  const fewestVisitors = Math.min(...finals.map(({ visitors }) => visitors));

  let verdict: Verdict;
  const winner = variantIds.findIndex((_, v) => tests.every((test) => (test.first !== v && test.second !== v) || test.better === v));
  if (winner >= 0) {
    const others = finals.map((totals, v) => ({ v, rate: rateOf(totals) })).filter(({ v }) => v !== winner);
    const runnerUp = others.reduce((best, other) => (other.rate > best.rate ? other : best));
    verdict = {
      kind: 'winner',
      winner: variantIds[winner]!,
      versus: variantIds[runnerUp.v]!,
      lift: rateOf(finals[winner]!) / runnerUp.rate - 1,
      pValue: adjusted(Math.max(...tests.filter((test) => test.better === winner).map((test) => test.pValue))),
    };
  } else if (visitorsNeededPerVariant !== null && fewestVisitors >= visitorsNeededPerVariant) {
    verdict = { kind: 'no-difference' };
  } else {
    const more = visitorsNeededPerVariant === null ? null : ceilToTwoFigures(visitorsNeededPerVariant - fewestVisitors);
    verdict = { kind: 'keep-running', moreVisitorsPerVariant: more };
  }

  return {
    variantIds,
    pValue: verdict.kind === 'winner' ? verdict.pValue : adjusted(Math.min(...tests.map((test) => test.pValue))),
    pairs,
    visitorsNeededPerVariant,
    design,
    verdict,
  };
}

const lastOf = (looks: readonly Totals[]) => looks.at(-1) ?? { visitors: 0, successes: 0 };
const finalTotals = (variants: readonly VariantDays[]) => variants.map((variant) => lastOf(cumulativeTotals(variant, dayCount(variants))));

/** A rate of 0 over 0 visitors counts as 0, so a variant nobody saw is never the one to beat. */
const rateOf = ({ visitors, successes }: Totals) => (visitors === 0 ? 0 : successes / visitors);

const dayCount = (variants: readonly VariantDays[]) => Math.max(...variants.map(({ days }) => days.length));

/**
 * Running totals, one per day. A variant with fewer days than the others counts the missing ones as
 * empty. A success is counted once per visitor, so a total above the visitors (a visitor who converted
 * twice, or a conversion reported a day after the visit) is capped at the visitors.
 */
function cumulativeTotals({ days }: VariantDays, length: number): Totals[] {
  const totals: Totals[] = [];
  let visitors = 0;
  let successes = 0;
  for (let d = 0; d < length; d++) {
    visitors += days[d]?.visitors ?? 0;
    successes += days[d]?.successes ?? 0;
    totals.push({ visitors, successes: Math.min(successes, visitors) });
  }
  return totals;
}

function designOf(variants: readonly VariantDays[], options: ExperimentOptions): ExperimentDesign {
  const { alpha = 0.05, lift = 0.2, power = 0.8 } = options;
  if (variants.length < 2 || variants.length > 4) throw new RangeError(`an experiment has 2 to 4 variants, not ${variants.length}`);
  const ids = new Set(variants.map(({ id }) => id));
  if (ids.size !== variants.length) throw new RangeError(`variant ids must differ: ${variants.map(({ id }) => id).join(', ')}`);
  for (const { id, days } of variants) {
    for (const [d, { visitors, successes }] of days.entries()) {
      if (!isCount(visitors) || !isCount(successes)) throw new RangeError(`variant ${id}, day ${d}: counts must be whole numbers ≥ 0, not ${visitors} visitors and ${successes} successes`);
    }
  }
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, not ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be between 0 and 1, not ${power}`);
  if (!(lift > 0 && lift <= 10)) throw new RangeError(`lift must be above 0 and at most 10, not ${lift}`);
  const pairCount = (variants.length * (variants.length - 1)) / 2;
  return { alpha, alphaPair: alpha / pairCount, lift, power };
}

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;

/** Rounded up, never down, so the operator is not told to stop early: 11,234 → 12,000; 987 → 990; 7 → 7. */
export function ceilToTwoFigures(value: number): number {
  const whole = Math.ceil(value);
  if (whole < 100) return Math.max(whole, 1);
  const unit = 10 ** (String(whole).length - 2);
  return Math.ceil(whole / unit) * unit;
}

/**
 * One sentence for the operator. `names` shows each variant, in input order, by another name than its
 * id (a headline's first words, say); by default the ids themselves.
 */
export function verdictText(decision: ExperimentDecision, names: readonly string[] = decision.variantIds): string {
  const nameOf = (id: string) => names[decision.variantIds.indexOf(id)] ?? id;
  const difference = `${percent(decision.design.lift)} difference`;
  const { verdict } = decision;
  switch (verdict.kind) {
    case 'winner': {
      const versus = Number.isFinite(verdict.lift) ? `${signed(verdict.lift)} vs ${nameOf(verdict.versus)}` : `${nameOf(verdict.versus)} had no successes`;
      return `${nameOf(verdict.winner)} is better (${versus}; always-valid p ${pText(verdict.pValue)})`;
    }
    case 'no-difference':
      return `no difference found (a ${difference} would most likely have shown by now)`;
    case 'keep-running': {
      const more = verdict.moreVisitorsPerVariant;
      if (more === null) return `keep running: no successes yet to estimate the visitors it needs`;
      return `keep running: about ${countText(more)} more ${more === 1 ? 'visitor' : 'visitors'} per variant to tell a ${difference}`;
    }
  }
}

/** 0.2 → "20%", 0.125 → "12.5%". */
const percent = (fraction: number) => `${Number((fraction * 100).toPrecision(3))}%`;

/** +23%, −4.5%: whole percents from 10% up, one decimal below, where small lifts of large samples are. */
function signed(lift: number): string {
  const value = lift * 100;
  const shown = Math.abs(value) >= 10 ? Math.round(value).toString() : value.toFixed(1);
  return `${value >= 0 ? '+' : '−'}${shown.replace('-', '')}%`;
}

/** "= 0.012" with two significant figures, or "< 0.001". */
const pText = (p: number) => (p < 0.001 ? '< 0.001' : `= ${Number(p.toPrecision(2))}`);
