import { lossTest, lossLift } from '../../server/costs/lossTest';
import { arrivedShare, defaultDelayMeanDays, delayPriorSales, saleHistory } from '../../server/costs/saleHistory';

const base = { costMicros: 6_400_000_000, revenueMicros: 3_200_000_000, arrived: 1, refundShare: 0, payoutMicros: 40_000_000, payoutSpread: 0 };

describe('lossTest', () => {
  it('calls nothing at or above break-even, completed for the sales still to come', () => {
    expect(lossTest({ ...base, revenueMicros: 6_400_000_000 })).toEqual({ pValue: 1, completedReturn: 0 });
    // Half the sales in and half the revenue: break-even once the rest arrives.
    expect(lossTest({ ...base, arrived: 0.5 })).toEqual({ pValue: 1, completedReturn: 0 });
  });

  it('is surer of a loss with fixed payouts than with payouts that vary (the compound model)', () => {
    const fixed = lossTest(base)!;
    const varied = lossTest({ ...base, payoutSpread: 1 })!;
    expect(fixed.completedReturn).toBeCloseTo(-0.5, 12);
    expect(fixed.pValue).toBeLessThan(varied.pValue);
    expect(varied.pValue).toBeLessThan(0.01);
    expect(lossLift).toBe(0.3);
  });

  it('takes the refunds still to come off the revenue', () => {
    expect(lossTest({ ...base, revenueMicros: 6_400_000_000, refundShare: 0.1 })!.completedReturn).toBeCloseTo(-0.1, 12);
  });

  it('answers undefined rather than a number it cannot stand by', () => {
    for (const bad of [{ costMicros: 0 }, { arrived: 0 }, { payoutMicros: 0 }, { revenueMicros: Number.NaN }, { payoutSpread: Number.POSITIVE_INFINITY }, { refundShare: 1 }]) {
      expect(lossTest({ ...base, ...bad })).toBeUndefined();
    }
  });
});

describe('saleHistory', () => {
  it('counts only payouts above 0, and leans on the cautious defaults while the history is short', () => {
    const history = saleHistory({ payoutsMicros: [0, 40_000_000, 40_000_000, -5, Number.NaN], delaysDays: [3, -1, 1, Number.NaN], sales: 10, refunded: 1 });
    expect(history.payoutMicros).toBe(40_000_000);
    // Two equal payouts (spread 0) against a prior of 20 sales at 1.
    expect(history.payoutSpread).toBeCloseTo(20 / 22, 12);
    expect(history.delaysDays).toEqual([1, 3]);
    expect(history.refundShare).toBeCloseTo((1 + 2.5) / 60, 12);
    expect(saleHistory({ payoutsMicros: [], delaysDays: [], sales: 0, refunded: 0 }).payoutMicros).toBeUndefined();
  });

  it('gives the share of a day’s sales arrived by an age: 0 at once, rising, blended with a slow default', () => {
    const history = saleHistory({ payoutsMicros: [], delaysDays: Array.from({ length: 50 }, (_, index) => index / 10), sales: 0, refunded: 0 });
    expect(arrivedShare(history, 0)).toBe(0);
    expect(arrivedShare(history, Number.NaN)).toBe(0);
    expect(delayPriorSales).toBe(50);
    expect(arrivedShare(history, 10)).toBeCloseTo((50 + 50 * (1 - Math.exp(-10 / defaultDelayMeanDays))) / 100, 12);
    expect(arrivedShare(history, 2)).toBeLessThan(arrivedShare(history, 3));
  });
});
