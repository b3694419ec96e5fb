/**
 * How many distinct visitors a day's value had, counted in memory that does not grow with the day's
 * traffic (issue 28): a report of a day of 300,000 visitors held every visitor hash of every value of
 * every dimension, and the report worker filled a 256 MB server.
 *
 * A count is exact up to exactLimit distinct visitors: it keeps their 32-bit hashes (two visitors share a
 * hash about once in 2^32 / 127 pairs, so "exact" means wrong about once in 34 million such counts). Past
 * that it becomes a HyperLogLog sketch (Flajolet et al., 2007) of 2^precision one-byte registers, whose
 * standard error is 1.04 / sqrt(2^precision), with linear counting below 2.5 × 2^precision registers'
 * worth of visitors, where it is closer still. A value's count uses valuePrecision (4 KB, 1.6%); the few
 * counts of the site's whole day and its devices use wholePrecision (64 KB, 0.41%), being the figures
 * read first. So a count holds a bounded number of bytes, whatever the day brought. Two counts merge as
 * sets do (a visitor in both counts once), exactly while both are exact.
 */

/** Distinct visitors counted exactly, as 32-bit hashes, before a count turns into a sketch. */
export const exactLimit = 128;

/** log2 of a value's sketch registers: 4,096 of them, 4 KB, a standard error of 1.6%. */
export const valuePrecision = 12;

/** log2 of the registers of the few counts of a whole day (dimensions 'all' and 'device'): 64 KB, 0.41%. */
export const wholePrecision = 16;

/** The standard error of a sketch of 2^precision registers. */
export const standardError = (precision: number) => 1.04 / Math.sqrt(2 ** precision);

/**
 * A string's 32-bit hash: FNV-1a over its UTF-16 code units, then MurmurHash3's finalizer, so that every
 * bit depends on every character (the sketch takes its register from the top bits, its rank from the rest).
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The number of leading zeros of the hash's low (32 − precision) bits, plus one: the rank the sketch keeps. */
function rank(hash: number, precision: number): number {
  const rest = (hash << precision) >>> 0;
  return rest === 0 ? 32 - precision + 1 : Math.clz32(rest) + 1;
}

export class DistinctCount {
  /**
   * @param precision the sketch's, once it is one
   * @param exactUpTo how many distinct hashes are kept exactly before it turns into a sketch: exactLimit for a
   *   visitors' count (of which a day may hold thousands); more for a count of which there are few.
   */
  constructor(
    private readonly precision: number = valuePrecision,
    private readonly exactUpTo: number = exactLimit,
  ) {}

  /** The exact hashes, or null once this is a sketch: a small array scanned while few, a set past exactLimit. */
  private hashes: Uint32Array | null = new Uint32Array(4);
  private size = 0;
  private many: Set<number> | null = null;
  /** The sketch's registers, once the count passed exactUpTo. */
  private sketch: Uint8Array | null = null;

  /** Counts a visitor (its hash): once, however often it comes. */
  add(visitor: string): void {
    this.addHash(hash32(visitor));
  }

  /** Counts a visitor by its hash32, for a caller that counts one visitor in many counts and hashes it once. */
  addHash(hash: number): void {
    if (this.sketch) {
      const index = hash >>> (32 - this.precision);
      const value = rank(hash, this.precision);
      if (value > this.sketch[index]!) this.sketch[index] = value;
      return;
    }
    if (this.holds(hash)) return;
    if (this.exactCount === this.exactUpTo) {
      this.toSketch();
      this.addHash(hash);
      return;
    }
    if (this.many) {
      this.many.add(hash);
      return;
    }
    if (this.size === exactLimit) {
      this.many = new Set(this.hashes!.subarray(0, this.size));
      this.hashes = null;
      this.size = 0;
      this.many.add(hash);
      return;
    }
    const hashes = this.hashes!;
    if (this.size === hashes.length) {
      const grown = new Uint32Array(Math.min(hashes.length * 2, exactLimit));
      grown.set(hashes);
      this.hashes = grown;
    }
    this.hashes![this.size++] = hash;
  }

  /** The exact hashes held, in any order (none once a sketch). */
  private exactHashes(): Iterable<number> {
    return this.many ?? this.hashes?.subarray(0, this.size) ?? [];
  }

  private get exactCount(): number {
    return this.many?.size ?? this.size;
  }

  private holds(hash: number): boolean {
    if (this.many) return this.many.has(hash);
    for (let i = 0; i < this.size; i++) if (this.hashes![i] === hash) return true;
    return false;
  }

  private toSketch(): void {
    const hashes = [...this.exactHashes()];
    this.sketch = new Uint8Array(2 ** this.precision);
    this.hashes = null;
    this.many = null;
    this.size = 0;
    for (const hash of hashes) this.addHash(hash);
  }

  /** How many distinct visitors were counted: exact while few, else the sketch's estimate, rounded. */
  get count(): number {
    return this.sketch ? estimate(this.sketch) : this.exactCount;
  }

  /**
   * How many distinct visitors this and `other` hold together, neither changed: what counting both in one
   * would say (exact while the union is within exactUpTo, else the sketch of both).
   */
  countWith(other: DistinctCount): number {
    if (other.precision !== this.precision) throw new RangeError('counts of two precisions do not merge');
    if (!this.sketch && !other.sketch) {
      let added = 0;
      for (const hash of other.exactHashes()) if (!this.holds(hash)) added++;
      if (this.exactCount + added <= this.exactUpTo) return this.exactCount + added;
    }
    const { precision } = this;
    const merged = new Uint8Array(2 ** precision);
    for (const count of [this, other]) {
      if (count.sketch) for (let i = 0; i < merged.length; i++) merged[i] = Math.max(merged[i]!, count.sketch[i]!);
      else
        for (const hash of count.exactHashes()) {
          const index = hash >>> (32 - precision);
          merged[index] = Math.max(merged[index]!, rank(hash, precision));
        }
    }
    return estimate(merged);
  }

  /** Bytes this count holds in its arrays (for the tests of the bound; a set's entries taken as 16 bytes each). */
  get bytes(): number {
    return this.sketch ? this.sketch.byteLength : this.many ? this.many.size * 16 : this.hashes!.byteLength;
  }
}

/** The HyperLogLog estimate of a sketch's registers, with linear counting while registers are still empty. */
function estimate(sketch: Uint8Array): number {
  const registers = sketch.length;
  // The bias correction for m ≥ 128 registers (Flajolet et al., α_m).
  const alpha = 0.7213 / (1 + 1.079 / registers);
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < registers; i++) {
    const value = sketch[i]!;
    sum += 2 ** -value;
    if (value === 0) zeros++;
  }
  const raw = (alpha * registers * registers) / sum;
  // Small range: linear counting is the better estimate while some registers are empty (Flajolet et al.).
  if (raw <= 2.5 * registers && zeros > 0) return Math.round(registers * Math.log(registers / zeros));
  return Math.round(raw);
}
