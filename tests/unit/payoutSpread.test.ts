import { meanMargin, payoutModel, spreadFloor, spreadFloorSales } from '../../server/costs/payoutSpread';

/** The sums of a list of payouts in units (40 is 40.00). */
const sumsOf = (payouts: readonly number[]) => ({
  sales: payouts.length,
  micros: payouts.reduce((sum, payout) => sum + payout * 1_000_000, 0),
  squares: payouts.reduce((sum, payout) => sum + payout * payout, 0),
});

describe('payoutModel', () => {
  it('gives the mean payout in micros and the sample spread (variance ÷ mean²) past the floor', () => {
    const payouts = Array.from({ length: spreadFloorSales }, (_, index) => (index % 2 === 0 ? 20 : 60));
    const model = payoutModel(sumsOf(payouts));
    expect(model.meanMicros).toBe(40_000_000);
    // Variance 400 · 50 / 49 around a mean of 40.
    expect(model.spread).toBeCloseTo((400 * 50) / 49 / 1600, 12);
  });

  it('takes a fixed commission for what it is once the sales are enough: no spread', () => {
    expect(payoutModel(sumsOf(Array.from({ length: spreadFloorSales }, () => 40)))).toEqual({ meanMicros: 40_000_000, reckonedMicros: 40_000_000, spread: 0 });
  });

  it(`holds the spread at least ${spreadFloor} (an exponential's) while the paid sales are fewer than ${spreadFloorSales}`, () => {
    expect(payoutModel(sumsOf([8]))).toEqual({ meanMicros: 8_000_000, reckonedMicros: 24_000_000, spread: spreadFloor });
    expect(payoutModel(sumsOf(Array.from({ length: spreadFloorSales - 1 }, () => 40))).spread).toBe(spreadFloor);
    // A spread wider than the floor is kept.
    expect(payoutModel(sumsOf([1, 1, 1, 1, 100])).spread).toBeGreaterThan(spreadFloor);
  });

  it('has no mean without a paid sale, or with sums that make no sense, and the floor for spread', () => {
    const none = { meanMicros: undefined, reckonedMicros: undefined, spread: spreadFloor };
    expect(payoutModel({ sales: 0, micros: 0, squares: 0 })).toEqual(none);
    expect(payoutModel({ sales: 3, micros: -5, squares: 1 })).toEqual(none);
    expect(payoutModel({ sales: Number.NaN, micros: 1, squares: 1 })).toEqual(none);
    expect(payoutModel({ sales: 2, micros: Number.POSITIVE_INFINITY, squares: 1 })).toEqual(none);
  });

  it(`reckons with the mean raised by ${meanMargin} standard errors, mean · (1 + ${meanMargin}·√(spread ÷ sales))`, () => {
    const payouts = Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? 20 : 60));
    const model = payoutModel(sumsOf(payouts));
    expect(model.reckonedMicros).toBeCloseTo(40_000_000 * (1 + meanMargin * Math.sqrt(model.spread / 100)), 3);
  });

  it('takes the floor for the spread of payouts known only by their sum, however many', () => {
    expect(payoutModel({ sales: 400, micros: 400 * 40_000_000 })).toEqual({ meanMicros: 40_000_000, reckonedMicros: 40_000_000 * (1 + meanMargin / 20), spread: spreadFloor });
  });
});
