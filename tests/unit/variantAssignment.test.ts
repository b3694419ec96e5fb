import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { assignVariants } from '../../server/experiments/variantAssignment';
import type { Experiment } from '../../shared/experiments/experiment';

const visitors = (count: number) => Array.from({ length: count }, () => randomBytes(17).toString('base64url').slice(0, 22));

/** Whether `count` of `trials` lies within 4.5 standard deviations of a binomial's mean (a false alarm about once in 150,000 runs). */
function withinBinomial(count: number, trials: number, probability: number): boolean {
  const sd = Math.sqrt(trials * probability * (1 - probability));
  return Math.abs(count - trials * probability) <= 4.5 * sd;
}

describe('assignVariants', () => {
  const even: Experiment = { id: 'hero-words', variants: [{ id: 'a' }, { id: 'b' }] };

  it('gives a visitor the same variant every time, and none of an ended experiment', () => {
    for (const visitor of visitors(50)) expect(assignVariants(visitor, [even])).toEqual(assignVariants(visitor, [even]));
    expect(assignVariants('x', [{ ...even, winner: 'b' }])).toEqual([]);
  });

  it('splits visitors in proportion to the weights (property: any weights of 2 to 4 variants)', () => {
    const sample = visitors(4000);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 2, maxLength: 4 }), (weights) => {
        const experiment: Experiment = { id: 'weighted', variants: weights.map((weight, index) => ({ id: (['a', 'b', 'c', 'd'] as const)[index]!, weight })) };
        const counts = new Map<string, number>();
        for (const visitor of sample) {
          const [shown] = assignVariants(visitor, [experiment]);
          counts.set(shown!.variant, (counts.get(shown!.variant) ?? 0) + 1);
        }
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        experiment.variants.forEach((variant, index) => expect(withinBinomial(counts.get(variant.id) ?? 0, sample.length, weights[index]! / total)).toBe(true));
      }),
      { numRuns: 20 },
    );
  });

  it('assigns each experiment independently of the others', () => {
    const other: Experiment = { id: 'faq-words', variants: [{ id: 'a' }, { id: 'b' }] };
    const sample = visitors(4000);
    const both = sample.filter((visitor) => assignVariants(visitor, [even, other]).every((shown) => shown.variant === 'b')).length;
    expect(withinBinomial(both, sample.length, 0.25)).toBe(true);
  });
});
