/**
 * A small seeded generator of uniform numbers in [0, 1): sfc32 (Chris Doty-Humphrey's "small fast
 * counting" generator, 128 bits of state, passes PractRand and BigCrush). Seeded, so that the same
 * counts always give the same chance-to-be-best figures on every reload, and tests can simulate
 * experiments without Math.random. Each call makes a new generator: nothing is shared between callers.
 */
export function seededRandom(seed: number): () => number {
  // The constants only fill the state the seed does not; any fixed values would do.
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t0 = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const t = (t0 + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Close seeds start from nearly the same state; a few rounds spread them apart.
  for (let round = 0; round < 15; round++) next();
  return next;
}
