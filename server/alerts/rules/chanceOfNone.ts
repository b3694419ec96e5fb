/**
 * The one test every counting rule shares. Sales, views and clicks arrive, near enough, as a Poisson
 * process: with `expected` of them due in a span, the chance of seeing none at all is e^(−expected). A
 * rule alerts only when that chance is under 1%, that is when more than ln 100 ≈ 4.6 were expected, so a
 * quiet stretch that chance alone explains stays quiet.
 */
export const unlikelyChance = 0.01;

/** ln 100: the expected count past which seeing none has a chance under 1%. */
export const expectedThreshold = Math.log(1 / unlikelyChance);

/** e^(−expected): how likely none is; 1 for a count that is not a positive number. */
export function chanceOfNone(expected: number): number {
  return Number.isFinite(expected) && expected > 0 ? Math.exp(-expected) : 1;
}

/** True when seeing none, with `expected` due, is too unlikely to be chance. */
export function noneIsUnlikely(expected: number): boolean {
  return Number.isFinite(expected) && expected > expectedThreshold;
}

/** Smaller chances are written "under 0.0001%": their digits (5.9e-27%) would tell a person nothing more. */
const smallestWritten = 0.000001;

/** A chance as a person reads it: 0.97%, 0.0012%, under 0.0001%. */
export function formatChance(chance: number): string {
  if (chance < smallestWritten) return 'under 0.0001%';
  const percent = chance * 100;
  return `${percent >= 0.1 ? percent.toFixed(2) : percent.toPrecision(2)}%`;
}
