import fc from 'fast-check';
import { chanceBest } from '../../server/experiments/chanceBest';
import { ceilToTwoFigures, decideExperiment, verdictText, type ExperimentDecision, type VariantDays } from '../../server/experiments/experimentVerdict';
import { logMixtureRatio, visitorsToTell } from '../../server/experiments/sequentialTest';

/** A variant from its days as [visitors, successes] pairs. */
const variant = (id: string, ...days: Array<[number, number]>): VariantDays => ({
  id,
  days: days.map(([visitors, successes]) => ({ visitors, successes })),
});

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('decideExperiment', () => {
  it('keeps running with nothing to estimate from when no visitor came', () => {
    const decision = decideExperiment([variant('a', [0, 0], [0, 0]), variant('b', [0, 0], [0, 0])]);
    expect(decision.verdict).toEqual({ kind: 'keep-running', moreVisitorsPerVariant: null });
    expect(decision.pValue).toBe(1);
    expect(decision.chanceBest[0]).toBeCloseTo(0.5, 1);
    expect(sum(decision.chanceBest)).toBeCloseTo(1, 9);
  });

  it('treats variants with no days yet as no visitors', () => {
    expect(decideExperiment([variant('a'), variant('b')]).verdict).toEqual({ kind: 'keep-running', moreVisitorsPerVariant: null });
  });

  it('keeps running with nothing to estimate from while every variant has visitors but no success', () => {
    const decision = decideExperiment([variant('a', [5000, 0]), variant('b', [5000, 0])]);
    expect(decision.verdict).toEqual({ kind: 'keep-running', moreVisitorsPerVariant: null });
    expect(decision.visitorsNeededPerVariant).toBeNull();
  });

  it('decides nothing about a variant nobody has seen, and asks for the visitors it needs from zero', () => {
    const decision = decideExperiment([variant('a', [20_000, 440]), variant('b', [0, 0])]);
    expect(decision.pairs).toEqual([{ first: 'a', second: 'b', pValue: 1, better: null, decidedOnDay: null }]);
    expect(decision.verdict).toEqual({ kind: 'keep-running', moreVisitorsPerVariant: ceilToTwoFigures(decision.visitorsNeededPerVariant!) });
  });

  it('asks for the visitors still missing from the variant with the fewest, rounded up to two figures', () => {
    const decision = decideExperiment([variant('a', [10_000, 220]), variant('b', [12_000, 264])]);
    expect(decision.visitorsNeededPerVariant).toBe(visitorsToTell(0.022, { lift: 0.2, power: 0.8, alphaPair: 0.05 }));
    expect(decision.verdict).toEqual({ kind: 'keep-running', moreVisitorsPerVariant: 24_000 });
  });

  it('finds no difference once every variant has the visitors needed and none won', () => {
    const decision = decideExperiment([variant('a', [20_000, 440], [20_000, 440]), variant('b', [20_000, 430], [20_000, 450])]);
    expect(decision.visitorsNeededPerVariant).toBeLessThan(40_000);
    expect(decision.verdict).toEqual({ kind: 'no-difference' });
  });

  it('declares a clear winner, with its lift over the other on the final totals', () => {
    const decision = decideExperiment([variant('a', [10_000, 200], [10_000, 200]), variant('b', [10_000, 300], [10_000, 300])]);
    expect(decision.verdict).toEqual({ kind: 'winner', winner: 'b', versus: 'a', lift: expect.closeTo(0.5, 12), pValue: decision.pValue });
    expect(decision.pValue).toBeLessThan(0.001);
    expect(decision.pairs[0]).toMatchObject({ better: 'b', decidedOnDay: 0 });
    expect(decision.chanceBest[1]).toBeGreaterThan(0.999);
  });

  it('keeps a winner once declared, though a later look shows a smaller difference', () => {
    const decision = decideExperiment([variant('a', [5000, 100], [50_000, 1150]), variant('b', [5000, 200], [50_000, 1060])]);
    // The final totals alone (55,000 each, 1,250 against 1,260) are far from a rejection.
    expect(logMixtureRatio({ visitors: 55_000, successes: 1260 }, { visitors: 55_000, successes: 1250 }, 0.2).logRatio).toBeLessThan(0);
    expect(decision.verdict).toMatchObject({ kind: 'winner', winner: 'b', lift: expect.closeTo(1260 / 1250 - 1, 12) });
    expect(decision.pairs[0]).toMatchObject({ better: 'b', decidedOnDay: 0 });
  });

  it('declares the winner among four variants only when it beat all three, with its lift over the runner-up', () => {
    const decision = decideExperiment([variant('a', [20_000, 400]), variant('b', [20_000, 420]), variant('c', [20_000, 440]), variant('d', [20_000, 800])]);
    expect(decision.design.alphaPair).toBeCloseTo(0.05 / 6, 15);
    expect(decision.pairs.map(({ first, second }) => first + second)).toEqual(['ab', 'ac', 'ad', 'bc', 'bd', 'cd']);
    expect(decision.verdict).toMatchObject({ kind: 'winner', winner: 'd', versus: 'c', lift: expect.closeTo(800 / 440 - 1, 12) });
    expect(decision.chanceBest).toHaveLength(4);
    expect(decision.chanceBest[3]).toBeGreaterThan(0.999);
  });

  it('declares no winner among four variants when the best beat only some of the others', () => {
    const decision = decideExperiment([variant('a', [20_000, 300]), variant('b', [20_000, 470]), variant('c', [20_000, 480]), variant('d', [20_000, 500])]);
    expect(decision.pairs.find(({ first, second }) => first === 'a' && second === 'd')?.better).toBe('d');
    expect(decision.pairs.find(({ first, second }) => first === 'c' && second === 'd')?.better).toBeNull();
    expect(decision.verdict.kind).not.toBe('winner');
  });

  it('counts missing days as empty and caps successes at the visitors', () => {
    const decision = decideExperiment([variant('a', [100, 3], [100, 2]), variant('b', [100, 2], [0, 5])]);
    expect(decision.verdict.kind).toBe('keep-running');
    expect(decideExperiment([variant('a', [100, 3], [0, 0]), variant('b', [100, 3])]).pairs).toEqual(decideExperiment([variant('a', [100, 3]), variant('b', [100, 3])]).pairs);
    expect(decision.chanceBest).toEqual(decideExperiment([variant('a', [200, 5]), variant('b', [100, 7])]).chanceBest);
  });

  it.each([
    [[variant('a', [1, 0])], /2 to 4 variants, not 1/],
    [['a', 'b', 'c', 'd', 'e'].map((id) => variant(id, [1, 0])), /2 to 4 variants, not 5/],
    [[variant('a', [1, 0]), variant('a', [1, 0])], /ids must differ: a, a/],
    [[variant('a', [-1, 0]), variant('b', [1, 0])], /variant a, day 0: counts must be whole numbers/],
    [[variant('a', [1, 0]), variant('b', [1, 0], [2.5, 1])], /variant b, day 1/],
  ])('throws a RangeError for impossible input %#', (variants, message) => {
    expect(() => decideExperiment(variants)).toThrow(RangeError);
    expect(() => decideExperiment(variants)).toThrow(message);
  });

  it.each([[{ alpha: 0 }, /alpha/], [{ alpha: 1 }, /alpha/], [{ power: 1 }, /power/], [{ lift: 0 }, /lift/], [{ lift: Number.NaN }, /lift/]])('throws a RangeError for options %j', (options, message) => {
    expect(() => decideExperiment([variant('a', [1, 0]), variant('b', [1, 0])], options)).toThrow(message);
  });
});

describe('chanceBest', () => {
  const totals = [
    { visitors: 40_000, successes: 800 },
    { visitors: 40_000, successes: 860 },
    { visitors: 40_000, successes: 850 },
    { visitors: 40_000, successes: 700 },
  ];

  it('gives the same figures for the same counts, each in [0, 1], summing to 1', () => {
    const figures = chanceBest(totals);
    expect(chanceBest(totals)).toEqual(figures);
    for (const figure of figures) expect(figure >= 0 && figure <= 1).toBe(true);
    expect(sum(figures)).toBeCloseTo(1, 9);
    expect(figures[1]).toBeGreaterThan(figures[2]!);
    expect(figures[3]).toBeLessThan(0.001);
  });

  it('gives equal variants about equal chances', () => {
    const [first, second, third] = chanceBest([totals[0]!, totals[0]!, totals[0]!]);
    for (const figure of [first, second, third]) expect(figure).toBeCloseTo(1 / 3, 1);
  });

  it('splits draws that tie evenly', () => {
    // One draw: variants with identical shapes still draw different rates, so ties need identical draws; none here.
    expect(sum(chanceBest([totals[0]!, totals[0]!], 1))).toBe(1);
  });

  it('answers counts asked before from memory, with figures a caller cannot change for the next', () => {
    const first = chanceBest(totals);
    first[0] = 7;
    expect(chanceBest(totals)).not.toContain(7);
    // Other counts, other figures: the memory is keyed by every count and the number of draws.
    expect(chanceBest([totals[0]!, { visitors: 40_000, successes: 861 }])).not.toEqual(chanceBest([totals[0]!, totals[1]!]));
    expect(chanceBest(totals, 1_000)).not.toEqual(chanceBest(totals));
  });
});

describe('visitorsToTell', () => {
  it('asks about 34,000 per variant at 2.2% for a 20% difference with 80% power at α = 0.05', () => {
    expect(visitorsToTell(0.022, { lift: 0.2, power: 0.8, alphaPair: 0.05 })).toBeGreaterThan(33_000);
    expect(visitorsToTell(0.022, { lift: 0.2, power: 0.8, alphaPair: 0.05 })).toBeLessThan(35_000);
  });

  it('asks more for a rarer success, a smaller lift, more power or a smaller α', () => {
    const base = visitorsToTell(0.02, { lift: 0.2, power: 0.8, alphaPair: 0.05 })!;
    expect(visitorsToTell(0.002, { lift: 0.2, power: 0.8, alphaPair: 0.05 })!).toBeGreaterThan(9 * base);
    expect(visitorsToTell(0.02, { lift: 0.1, power: 0.8, alphaPair: 0.05 })!).toBeGreaterThan(3.5 * base);
    expect(visitorsToTell(0.02, { lift: 0.2, power: 0.9, alphaPair: 0.05 })!).toBeGreaterThan(base);
    expect(visitorsToTell(0.02, { lift: 0.2, power: 0.8, alphaPair: 0.05 / 6 })!).toBeGreaterThan(base);
  });

  it('has nothing to say before any success', () => {
    expect(visitorsToTell(0, { lift: 0.2, power: 0.8, alphaPair: 0.05 })).toBeNull();
  });
});

describe('ceilToTwoFigures', () => {
  it.each([
    [11_234, 12_000],
    [12_000, 12_000],
    [987, 990],
    [100, 100],
    [101, 110],
    [7, 7],
    [0.2, 1],
  ])('rounds %d up to %d', (value, rounded) => {
    expect(ceilToTwoFigures(value)).toBe(rounded);
  });
});

describe('verdictText', () => {
  const design = { alpha: 0.05, alphaPair: 0.05, lift: 0.2, power: 0.8 };
  const decision = (verdict: ExperimentDecision['verdict']): ExperimentDecision => ({
    variantIds: ['a', 'b'],
    chanceBest: [0.5, 0.5],
    pValue: 0.012,
    pairs: [],
    visitorsNeededPerVariant: 34_000,
    design,
    verdict,
  });

  it.each([
    [{ kind: 'keep-running', moreVisitorsPerVariant: 12_000 }, 'keep running: about 12,000 more visitors per variant to tell a 20% difference'],
    [{ kind: 'keep-running', moreVisitorsPerVariant: 1 }, 'keep running: about 1 more visitor per variant to tell a 20% difference'],
    [{ kind: 'keep-running', moreVisitorsPerVariant: null }, 'keep running: no successes yet to estimate the visitors it needs'],
    [{ kind: 'winner', winner: 'b', versus: 'a', lift: 0.2304, pValue: 0.0123 }, 'b is better (+23% vs a; always-valid p = 0.012)'],
    [{ kind: 'winner', winner: 'a', versus: 'b', lift: 0.045, pValue: 0.0004 }, 'a is better (+4.5% vs b; always-valid p < 0.001)'],
    [{ kind: 'winner', winner: 'b', versus: 'a', lift: Infinity, pValue: 0.03 }, 'b is better (a had no successes; always-valid p = 0.03)'],
    [{ kind: 'no-difference' }, 'no difference found (a 20% difference would most likely have shown by now)'],
  ] as const)('says %j as "%s"', (verdict, text) => {
    expect(verdictText(decision(verdict))).toBe(text);
  });

  it('names the variants by the names given, in input order', () => {
    const winner = decision({ kind: 'winner', winner: 'b', versus: 'a', lift: 0.2304, pValue: 0.0123 });
    expect(verdictText(winner, ['the old headline', 'the short headline'])).toBe('the short headline is better (+23% vs the old headline; always-valid p = 0.012)');
  });

  it('says the lift the decision was made for', () => {
    expect(verdictText({ ...decision({ kind: 'no-difference' }), design: { ...design, lift: 0.125 } })).toBe(
      'no difference found (a 12.5% difference would most likely have shown by now)',
    );
  });
});

/**
 * Any counts a store can hold, within bounds: fast-check draws them, leaning to the edges (no visitors,
 * no successes, every visitor a success), and prints the seed and path of the smallest failing case.
 */
describe('decideExperiment on any counts', () => {
  const day = fc.integer({ min: 0, max: 5000 }).chain((visitors) => fc.record({ visitors: fc.constant(visitors), successes: fc.integer({ min: 0, max: visitors }) }));
  const experiment = fc.integer({ min: 2, max: 4 }).chain((count) =>
    fc.tuple(...Array.from({ length: count }, (_, v) => fc.array(day, { maxLength: 8 }).map((days) => ({ id: 'abcd'[v]!, days })))),
  );

  it('never throws, gives chances in [0, 1] summing to 1, and asks for null or a positive whole number of visitors', () => {
    fc.assert(
      fc.property(experiment, (variants) => {
        const decision = decideExperiment(variants);
        expect(decision.chanceBest).toHaveLength(variants.length);
        for (const figure of decision.chanceBest) expect(figure >= 0 && figure <= 1).toBe(true);
        expect(Math.abs(sum(decision.chanceBest) - 1)).toBeLessThanOrEqual(1e-9);
        expect(decision.pValue >= 0 && decision.pValue <= 1).toBe(true);
        if (decision.verdict.kind === 'keep-running') {
          const more = decision.verdict.moreVisitorsPerVariant;
          expect(more === null || (Number.isSafeInteger(more) && more > 0)).toBe(true);
        }
        expect(typeof verdictText(decision)).toBe('string');
      }),
      { numRuns: 150 },
    );
  });
});
