import fc from 'fast-check';
import { gridlinesFor, labelDigits } from '../../server/admin/chartGridlines';

/** Whether step is 1, 2, 2.5 or 5 times a power of ten. */
function isRound(step: number): boolean {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-12);
  return [1, 2, 2.5, 5, 10].some((mantissa) => Math.abs(step / power - mantissa) < 1e-9);
}

const isWhole = (value: number, unit: number) => Math.abs(value / unit - Math.round(value / unit)) < 1e-6;

describe('gridlinesFor', () => {
  it.each([
    [9, 0.01, [0, 2.5, 5, 7.5, 10]],
    [338, 1, [0, 100, 200, 300, 400]],
    [5_460, 0.01, [0, 2_000, 4_000, 6_000]],
    [7, 0.01, [0, 2.5, 5, 7.5]],
    [1, 1, [0, 1]],
    [0.2, 0.01, [0, 0.05, 0.1, 0.15, 0.2]],
  ])('puts the lines for a highest bar of %d (unit %d) at %j', (high, unit, values) => {
    expect(gridlinesFor(0, high, unit).values).toEqual(values);
  });

  it('steps a count by whole numbers, taking five lines where three or four would need 2.5 (as 9 cents-wise does above)', () => {
    expect(gridlinesFor(0, 9, 1)).toEqual({ step: 2, bottom: 0, top: 10, values: [0, 2, 4, 6, 8, 10] });
  });

  it('has nothing to scale when every value is 0, or a value is not a number', () => {
    expect(gridlinesFor(0, 0, 1)).toEqual({ step: 0, bottom: 0, top: 0, values: [0] });
    expect(gridlinesFor(0, Number.NaN, 1).step).toBe(0);
    expect(gridlinesFor(0, Number.POSITIVE_INFINITY, 1).step).toBe(0);
  });

  it('spans a loss below 0 with the same round step', () => {
    expect(gridlinesFor(-120, 480, 0.01).values).toEqual([-250, 0, 250, 500]);
  });

  it('gives 3 or 4 round intervals from 0 to at or just above any highest bar, on its units', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.03, max: 1e12, noNaN: true }), fc.constantFrom(1, 0.01), (high, unit) => {
        fc.pre(high >= 10 * unit);
        const { step, bottom, top, values } = gridlinesFor(0, high, unit);
        expect(isRound(step)).toBe(true);
        expect(isWhole(step, unit)).toBe(true);
        expect(bottom).toBe(0);
        expect(top).toBeGreaterThanOrEqual(high * (1 - 1e-12));
        // Tight: the line below the top is under the highest bar.
        expect(top - step).toBeLessThan(high);
        expect(values.length - 1).toBeGreaterThanOrEqual(3);
        expect(values.length - 1).toBeLessThanOrEqual(4);
        for (const [index, value] of values.entries()) expect(value).toBeCloseTo(index * step, 6);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never gives more than 5 intervals for a small count, nor fewer than its 1 unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), (high) => {
        const { step, top, values } = gridlinesFor(0, high, 1);
        expect(Number.isInteger(step) && step >= 1).toBe(true);
        expect(top).toBeGreaterThanOrEqual(high);
        expect(values.length - 1).toBeLessThanOrEqual(5);
      }),
    );
  });

  it('covers a range across 0 with multiples of one round step, 0 among them', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: -1 }), fc.integer({ min: 0, max: 100_000_000 }), (lowCents, highCents) => {
        const [low, high] = [lowCents / 100, highCents / 100];
        const { step, bottom, top, values } = gridlinesFor(low, high, 0.01);
        expect(isRound(step)).toBe(true);
        expect(bottom).toBeLessThanOrEqual(low);
        expect(top).toBeGreaterThanOrEqual(high);
        expect(values).toContain(0);
        expect(values.length - 1).toBeLessThanOrEqual(6);
      }),
    );
  });
});

describe('labelDigits', () => {
  it.each([
    [1000, 0],
    [2.5, 1],
    [0.25, 2],
    [0.05, 2],
  ])('writes lines %d apart with %d digits after the point', (step, digits) => {
    expect(labelDigits(step)).toBe(digits);
  });
});
