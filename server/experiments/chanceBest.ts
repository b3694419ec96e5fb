import { seededRandom } from './seededRandom';
import type { Totals } from './sequentialTest';

/**
 * Fixed, so that the same counts give the same figures on every reload. 20,000 draws put the Monte
 * Carlo error of a 50% chance at about ±0.35 percentage points (one standard error), below what the
 * operator reads.
 */
const DRAWS = 20_000;
const SEED = 0x5eed_ab;

/**
 * Taken from Math once: where the global object is an interceptor (jest's vm context), looking Math
 * up on each of the million calls made the draws four times slower.
 */
const { log, sqrt } = Math;

/**
 * The chance each variant has the highest rate, in input order: the share of joint draws from the
 * Beta(1 + successes, 1 + failures) posteriors (a uniform prior) in which it came out on top. Draws
 * that tie split the win evenly. Each figure is in [0, 1] and they sum to 1. Successes above visitors
 * are capped, as the verdict caps them.
 */
export function chanceBest(totals: readonly Totals[], draws = DRAWS): number[] {
  // The draws are seeded, so the same counts give the same figures: each report of /admin, the digest and
  // npm run stats asks again for counts that change a few times a minute at most, and 20,000 draws per
  // variant cost milliseconds each time.
  const key = JSON.stringify([draws, totals.map(({ visitors, successes }) => [visitors, successes])]);
  const known = remembered.get(key);
  if (known) return [...known];
  const chances = drawChances(totals, draws);
  if (remembered.size >= rememberedCounts) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, chances);
  return [...chances];
}

/** The last counts asked about and their chances, oldest first: a few experiments' variants, each a few numbers. */
const remembered = new Map<string, number[]>();
const rememberedCounts = 256;

function drawChances(totals: readonly Totals[], draws: number): number[] {
  const count = totals.length;
  if (count === 0) return [];
  const gamma = gammaSampler(seededRandom(SEED));
  const rates = totals.map(({ visitors, successes }) => {
    const wins = Math.min(Math.max(successes, 0), Math.max(visitors, 0));
    const fromWins = gamma(1 + wins, draws);
    const fromLosses = gamma(1 + Math.max(visitors, 0) - wins, draws);
    for (let draw = 0; draw < draws; draw++) fromWins[draw]! /= fromWins[draw]! + fromLosses[draw]!;
    return fromWins;
  });
  const best = new Array<number>(count).fill(0);
  for (let draw = 0; draw < draws; draw++) {
    let top = -1;
    let tied = 0;
    for (let v = 0; v < count; v++) {
      const rate = rates[v]![draw]!;
      if (rate > top) {
        top = rate;
        tied = 1;
      } else if (rate === top) {
        tied++;
      }
    }
    for (let v = 0; v < count; v++) if (rates[v]![draw] === top) best[v]! += 1 / tied;
  }
  return best.map((wins) => wins / draws);
}

/**
 * `draws` draws of Gamma(shape, 1), shape ≥ 1, by Marsaglia and Tsang's squeeze method ("A simple method
 * for generating gamma variables", 2000), which accepts about 95% of its candidates or more; normals come
 * from the polar method in pairs.
 */
function gammaSampler(random: () => number): (shape: number, draws: number) => Float64Array {
  let spare: number | null = null;
  const normal = () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    for (;;) {
      const u = 2 * random() - 1;
      const v = 2 * random() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const factor = sqrt((-2 * log(s)) / s);
        spare = v * factor;
        return u * factor;
      }
    }
  };
  const one = (d: number, c: number) => {
    // Each try fails with chance under 5%, so 64 failures in a row never happen; the bound only makes that plain.
    for (let attempt = 0; attempt < 64; attempt++) {
      const x = normal();
      const base = 1 + c * x;
      if (base <= 0) continue;
      const v = base * base * base;
      const u = random();
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2 || log(u) < 0.5 * x2 + d * (1 - v + log(v))) return d * v;
    }
    return d;
  };
  return (shape, draws) => {
    const d = shape - 1 / 3;
    const c = 1 / sqrt(9 * d);
    const values = new Float64Array(draws);
    for (let draw = 0; draw < draws; draw++) values[draw] = one(d, c);
    return values;
  };
}
