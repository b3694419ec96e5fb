/*
 * The value scale of /admin's main chart (issue 43): three or four gridlines at round values, a step of 1,
 * 2, 2.5 or 5 times a power of ten, the top one at or just above the highest bar, so a bar reads against
 * the lines beside it. A count steps by whole numbers (no line at 2.5 visitors), money by whole cents.
 */

/** The round steps within each power of ten. */
const mantissas = [1, 2, 2.5, 5] as const;

/** As many lines as the issue asks for; fewer only where the smallest step allowed is coarser than the figures. */
export const fewestGridlines = 3;
export const mostGridlines = 4;

export interface Gridlines {
  /** The distance between two lines; 0 when there is nothing to scale (every value 0). */
  step: number;
  /** The scale's ends, multiples of step: at or below the lowest value (0 unless one is negative), at or above the highest. */
  bottom: number;
  top: number;
  /** The lines' values from bottom to top, 0 among them: every multiple of step between bottom and top. */
  values: number[];
}

/** Tolerance for values that are a step's multiple but came out a hair off in floating point. */
const epsilon = 1e-9;

/** Whether step is a whole number of units (2.5 is not for counts, 0.025 is not for cents). */
function isMultipleOf(step: number, unit: number): boolean {
  const times = step / unit;
  return Math.abs(times - Math.round(times)) < epsilon * Math.max(1, times);
}

/** A step's multiple, rounded to the step's own digits so 3 × 0.1 writes as 0.3. */
function multiple(step: number, times: number): number {
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number((step * times).toFixed(digits));
}

/**
 * The round scale for values from low to high (low ≤ 0 ≤ high, as the chart's bars start at 0). Of the round
 * steps, the one giving 3 or 4 intervals between bottom and top with the tightest fit; when none can (a count
 * of at most 10, or a range across 0), the one nearest to that. unit: the smallest step (1 for a count).
 */
export function gridlinesFor(low: number, high: number, unit: number): Gridlines {
  const lowest = Math.min(0, low);
  const highest = Math.max(0, high);
  if (!(highest - lowest > 0) || !Number.isFinite(highest - lowest)) return { step: 0, bottom: 0, top: 0, values: [0] };
  const firstPower = Math.floor(Math.log10((highest - lowest) / mostGridlines / 5));
  let best: { step: number; from: number; to: number; miss: number; extent: number } | undefined;
  for (let power = firstPower; power <= firstPower + 2; power++) {
    for (const mantissa of mantissas) {
      const step = multiple(10 ** power, mantissa);
      if (step < unit || !isMultipleOf(step, unit)) continue;
      const from = Math.floor(lowest / step + epsilon);
      const to = Math.ceil(highest / step - epsilon);
      const count = to - from;
      // Too few lines scale a bar worse than one too many: 0, 5 and 10 say less than 0, 2, 4 … 10.
      const miss = count < fewestGridlines ? 2 * (fewestGridlines - count) : count > mostGridlines ? count - mostGridlines : 0;
      const extent = count * step;
      // Nearest to 3 or 4 intervals, then the tightest fit, then fewer lines.
      if (!best || miss < best.miss || (miss === best.miss && (extent < best.extent - epsilon * extent || (Math.abs(extent - best.extent) <= epsilon * extent && step > best.step)))) {
        best = { step, from, to, miss, extent };
      }
    }
  }
  // unit larger than every candidate (a tiny range of counts): one unit apart.
  const { step, from, to } = best ?? { step: unit, from: Math.floor(lowest / unit + epsilon), to: Math.ceil(highest / unit - epsilon) };
  const values = Array.from({ length: to - from + 1 }, (_, index) => multiple(step, from + index));
  return { step, bottom: values[0]!, top: values.at(-1)!, values };
}

/** How many digits after the point a line's label needs: those of the step (2.5 → 1, 0.25 → 2). */
export function labelDigits(step: number): number {
  for (let digits = 0; digits < 10; digits++) if (Math.abs(step * 10 ** digits - Math.round(step * 10 ** digits)) < epsilon) return digits;
  return 10;
}
