import fc from 'fast-check';
import { costVerdict, logMixtureRatio, regularizedBeta, visitorsNeeded } from '../../server/costs/costVerdict';

const design = { alpha: 0.05, power: 0.8 };
/** Fixed payouts (no spread): the hand-worked cases of the rate test, as it ran before payouts varied. */
const fixed = { payoutSpread: 0 };

describe('regularizedBeta', () => {
  it('gives the closed forms of small shapes', () => {
    // I_0.5(2, 3) = P(Binomial(4, 0.5) ≥ 2) = 11/16.
    expect(regularizedBeta(0.5, 2, 3)).toBeCloseTo(11 / 16, 14);
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedBeta(0.1, 1, 50)).toBeCloseTo(1 - 0.9 ** 50, 14);
    expect(regularizedBeta(0.9, 7, 1)).toBeCloseTo(0.9 ** 7, 14);
  });

  it('is 0 at 0 and 1 at 1', () => {
    expect(regularizedBeta(0, 3, 4)).toBe(0);
    expect(regularizedBeta(1, 3, 4)).toBe(1);
  });

  it('stays near the middle at the mean of a Beta of a billion', () => {
    const value = regularizedBeta(0.02, 2e7, 1e9 - 2e7);
    expect(value).toBeGreaterThan(0.49);
    expect(value).toBeLessThan(0.51);
  });
});

describe('costVerdict', () => {
  describe('chanceProfitable', () => {
    it('is P(rate > 1/2) under Beta(2, 1), 3/4, for 1 sale of 40.00 from 1 visitor who cost 20.00', () => {
      expect(costVerdict({ ...fixed, visitors: 1, conversions: 1, revenueMicros: 40_000_000, costMicros: 20_000_000 }).chanceProfitable).toBeCloseTo(0.75, 12);
    });

    it('is P(Binomial(4, 1/3) ≤ 1) = 16/27 for 1 sale of 30.00 from 3 visitors who cost 30.00', () => {
      expect(costVerdict({ ...fixed, visitors: 3, conversions: 1, revenueMicros: 30_000_000, costMicros: 30_000_000 }).chanceProfitable).toBeCloseTo(16 / 27, 12);
    });

    it('is 0.98^101 for no sale from 100 visitors at 0.80 each, planned with a 40.00 payout', () => {
      const result = costVerdict({ ...fixed, visitors: 100, conversions: 0, revenueMicros: 0, costMicros: 80_000_000, payoutMicros: 40_000_000 });
      expect(result.chanceProfitable).toBeCloseTo(0.98 ** 101, 12);
      expect(result.verdict).toBe('too-early');
    });

    it('gives the same figures, to the last bit, on every call', () => {
      const figures = { visitors: 12_345, conversions: 247, revenueMicros: 247 * 39_500_000, costMicros: 9_800_000_000 };
      const first = costVerdict(figures);
      for (let call = 0; call < 5; call++) expect(costVerdict(figures)).toStrictEqual(first);
      expect(Object.is(costVerdict(figures).chanceProfitable, first.chanceProfitable)).toBe(true);
    });

    it('falls as the cost rises and rises with the sales', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 50_000 }), fc.double({ min: 0, max: 0.2, noNaN: true }), fc.integer({ min: 1, max: 10_000_000 }), (visitors, rate, costPerVisitor) => {
          const conversions = Math.max(1, Math.floor(visitors * rate));
          const chance = (sales: number, cost: number) => costVerdict({ ...fixed, visitors, conversions: sales, revenueMicros: sales * 40_000_000, costMicros: cost }).chanceProfitable!;
          const cost = visitors * costPerVisitor;
          expect(chance(conversions, cost + visitors)).toBeLessThanOrEqual(chance(conversions, cost));
          if (conversions < visitors) expect(chance(conversions + 1, cost)).toBeGreaterThanOrEqual(chance(conversions, cost));
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('verdict', () => {
    it('calls 140 sales of 40.00 from 10,000 visitors who cost 8,000.00 (a return of −30%) losing, with the p-value of Λ', () => {
      const result = costVerdict({ ...fixed, visitors: 10_000, conversions: 140, revenueMicros: 140 * 40_000_000, costMicros: 8_000_000_000 });
      // r₀ = 0.80 / 40.00 = 0.02; V = 0.02 · 0.98 / 10,000; τ = 0.3 · 0.02; Δ̂ = 0.014 − 0.02.
      const v = (0.02 * 0.98) / 10_000;
      const tau2 = 0.006 ** 2;
      const logRatio = 0.5 * Math.log(v / (v + tau2)) + (tau2 * 0.006 ** 2) / (2 * v * (v + tau2));
      expect(result.verdict).toBe('losing');
      expect(result.pValue).toBeCloseTo(Math.exp(-logRatio), 12);
      expect(result.pValue).toBeCloseTo(0.000726, 5);
      expect(result.returnOnSpend).toBeCloseTo(-0.3, 12);
      expect(result.visitorsToKnow).toBeUndefined();
    });

    it('calls 260 sales of 40.00 from 10,000 visitors who cost 8,000.00 (a return of +30%) paying', () => {
      expect(costVerdict({ ...fixed, visitors: 10_000, conversions: 260, revenueMicros: 260 * 40_000_000, costMicros: 8_000_000_000 }).verdict).toBe('paying');
    });

    it('is too early at break-even on 1,000 visitors, and asks for the rest of the 8,281 a ±30% return needs, to two figures', () => {
      const result = costVerdict({ ...fixed, visitors: 1_000, conversions: 20, revenueMicros: 800_000_000, costMicros: 800_000_000 });
      expect(visitorsNeeded(0.02, 0.3, design)).toBe(8_281);
      expect(result).toMatchObject({ verdict: 'too-early', visitorsToKnow: 7_300, returnOnSpend: 0, pValue: 1 });
      expect(result.chanceProfitable).toBeCloseTo(1 - regularizedBeta(0.02, 21, 981), 14);
    });

    it('asks, past those visitors, for what the return seen so far needs (at least a tenth more visitors)', () => {
      const result = costVerdict({ ...fixed, visitors: 20_000, conversions: 420, revenueMicros: 420 * 40_000_000, costMicros: 16_000_000_000 });
      // A return of +5%, below a third of 30%: planned at 10%, 74,526 visitors in all.
      expect(visitorsNeeded(0.02, 0.1, design)).toBe(74_526);
      expect(result).toMatchObject({ verdict: 'too-early', visitorsToKnow: 55_000 });
    });

    it('reads Λ from its formula', () => {
      expect(logMixtureRatio(0, 0.5, 1, 1)).toBeCloseTo(0.5 * Math.log(0.5), 14);
      expect(logMixtureRatio(0.5, 0.5, 1, 1)).toBeCloseTo(0.5 * Math.log(0.5) + 0.25, 14);
      expect(logMixtureRatio(-0.5, 0.5, 1, 1)).toBeCloseTo(0.5 * Math.log(0.5) + 0.25, 14);
    });
  });

  describe('breakEven', () => {
    it('is revenue per visitor and per sale, rounded down to a micro', () => {
      expect(costVerdict({ ...fixed, visitors: 3, conversions: 2, revenueMicros: 1_000_000_001, costMicros: 1 }).breakEven).toEqual({
        maxCostPerVisitorMicros: 333_333_333,
        maxCostPerSaleMicros: 500_000_000,
      });
    });
  });

  describe('edge cases', () => {
    it('with no visitors and a cost: nothing earned, chance 0, too early, no figure to plan with', () => {
      expect(costVerdict({ ...fixed, visitors: 0, conversions: 0, revenueMicros: 0, costMicros: 5_000_000 })).toEqual({
        chanceProfitable: 0,
        verdict: 'too-early',
        visitorsToKnow: null,
        returnOnSpend: -1,
        pValue: 1,
        breakEven: { maxCostPerVisitorMicros: null, maxCostPerSaleMicros: null },
      });
    });

    it('with no cost: paying, chance 1, whatever the sales', () => {
      expect(costVerdict({ ...fixed, visitors: 0, conversions: 0, revenueMicros: 0, costMicros: 0 })).toMatchObject({ chanceProfitable: 1, verdict: 'paying', returnOnSpend: null });
      expect(costVerdict({ ...fixed, visitors: 500, conversions: 0, revenueMicros: 0, costMicros: 0 })).toMatchObject({ chanceProfitable: 1, verdict: 'paying' });
    });

    it('with no sale and no payout to plan with: no chance, too early, no figure', () => {
      expect(costVerdict({ ...fixed, visitors: 5_000, conversions: 0, revenueMicros: 0, costMicros: 4_000_000_000 })).toMatchObject({
        chanceProfitable: null,
        verdict: 'too-early',
        visitorsToKnow: null,
      });
    });

    it('with no sale in 5,000 visitors at 0.80 each, planned with a 40.00 payout: losing', () => {
      expect(costVerdict({ ...fixed, visitors: 5_000, conversions: 0, revenueMicros: 0, costMicros: 4_000_000_000, payoutMicros: 40_000_000 }).verdict).toBe('losing');
    });

    it('with refunds above sales (revenue ≤ 0): the planned payout, and no sale, or none', () => {
      expect(costVerdict({ ...fixed, visitors: 100, conversions: 2, revenueMicros: -10_000_000, costMicros: 80_000_000 }).chanceProfitable).toBeNull();
      expect(costVerdict({ ...fixed, visitors: 100, conversions: 2, revenueMicros: 0, costMicros: 80_000_000, payoutMicros: 40_000_000 }).chanceProfitable).toBeCloseTo(
        1 - regularizedBeta(0.02, 1, 101),
        14,
      );
    });

    it('with a visitor costing more than a sale pays: losing, chance 0', () => {
      expect(costVerdict({ ...fixed, visitors: 10, conversions: 1, revenueMicros: 40_000_000, costMicros: 500_000_000 })).toMatchObject({ chanceProfitable: 0, verdict: 'losing', pValue: 0 });
    });

    it('caps sales above visitors at the visitors', () => {
      expect(costVerdict({ ...fixed, visitors: 2, conversions: 5, revenueMicros: 100_000_000, costMicros: 10_000_000 }).breakEven.maxCostPerSaleMicros).toBe(50_000_000);
    });

    it('with a billion visitors: a finite chance, and a 1% loss told', () => {
      const even = costVerdict({ ...fixed, visitors: 1e9, conversions: 2e7, revenueMicros: 2e7 * 40_000_000, costMicros: 1e9 * 800_000 });
      expect(even.chanceProfitable).toBeGreaterThan(0.4);
      expect(even.chanceProfitable).toBeLessThan(0.6);
      expect(even.verdict).toBe('too-early');
      const losing = costVerdict({ ...fixed, visitors: 1e9, conversions: 19_800_000, revenueMicros: 19_800_000 * 40_000_000, costMicros: 1e9 * 800_000 });
      expect(losing).toMatchObject({ verdict: 'losing' });
      expect(losing.chanceProfitable).toBeLessThan(1e-6);
    });
  });

  describe('payouts that vary (issue 41)', () => {
    const site = { payoutMicros: 40_000_000 };

    it('counts a lead paid 0 as no sale: 1,000 leads beside 90 sales of 40.00 leave the verdict where the 90 alone put it, too early', () => {
      const figures = { visitors: 5_000, revenueMicros: 90 * 40_000_000, costMicros: 4_000_000_000, ...site };
      const withLeads = costVerdict({ ...figures, conversions: 1_090 });
      const salesOnly = costVerdict({ ...figures, conversions: 90 });
      expect(withLeads).toMatchObject({ verdict: 'too-early', chanceProfitable: salesOnly.chanceProfitable, pValue: 1, visitorsToKnow: salesOnly.visitorsToKnow });
      expect(withLeads.chanceProfitable).toBeGreaterThan(0.2);
      // The leads counted as sales, and their mean so far taken as the payout, made the same figures "losing".
      expect(costVerdict({ ...fixed, visitors: 5_000, conversions: 1_090, revenueMicros: 90 * 40_000_000, costMicros: 4_000_000_000 }).verdict).toBe('losing');
    });

    it('does not call one first sale of 8.00 against a site mean of 40.00 losing: too early, a chance far from 0', () => {
      const result = costVerdict({ visitors: 250, conversions: 1, revenueMicros: 8_000_000, costMicros: 200_000_000, ...site });
      expect(result.verdict).toBe('too-early');
      expect(result.pValue).toBeGreaterThan(0.5);
      expect(result.chanceProfitable).toBeGreaterThan(0.05);
      // Taken as the payout, the 8.00 made it a confident loss.
      expect(costVerdict({ ...fixed, visitors: 250, conversions: 1, revenueMicros: 8_000_000, costMicros: 200_000_000 }).verdict).toBe('losing');
    });

    it('reckons revenue in units of p·(1 + s): 140 sales of 40.00 on 10,000 visitors who cost 8,000.00, with a spread of 1, are 70 units of 80.00 against 100', () => {
      const result = costVerdict({ visitors: 10_000, conversions: 140, revenueMicros: 140 * 40_000_000, costMicros: 8_000_000_000, ...site, payoutSpread: 1 });
      // r₀ = 0.80 / 80.00 = 0.01; rate 70 / 10,000 = 0.007; V = 0.01 · 0.99 / 10,000; τ = 0.3 · 0.01.
      const logRatio = logMixtureRatio(0.007 - 0.01, 0.01, 10_000, 0.3);
      expect(result.pValue).toBeCloseTo(Math.exp(-logRatio), 12);
      expect(result.chanceProfitable).toBeCloseTo(1 - regularizedBeta(0.01, 71, 9_931), 12);
      // The same figures with fixed payouts are a loss at p = 0.0007; a spread of 1 doubles the variance and leaves it too early.
      expect(result).toMatchObject({ verdict: 'too-early' });
    });

    it('assumes a spread of 1 when given none, and reads a spread that is not a number as none', () => {
      const figures = { visitors: 10_000, conversions: 140, revenueMicros: 140 * 40_000_000, costMicros: 8_000_000_000, ...site };
      const one = costVerdict({ ...figures, payoutSpread: 1 });
      expect(costVerdict(figures)).toStrictEqual(one);
      expect(costVerdict({ ...figures, payoutSpread: Number.NaN })).toStrictEqual(one);
      expect(costVerdict({ ...figures, payoutSpread: -2 })).toStrictEqual(one);
    });

    it("reckons with a campaign's own mean payout when it is above the site's", () => {
      const own = costVerdict({ ...fixed, visitors: 10_000, conversions: 140, revenueMicros: 140 * 100_000_000, costMicros: 20_000_000_000 });
      expect(costVerdict({ ...fixed, visitors: 10_000, conversions: 140, revenueMicros: 140 * 100_000_000, costMicros: 20_000_000_000, ...site })).toStrictEqual(own);
    });
  });
});
