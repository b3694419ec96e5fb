import fc from 'fast-check';
import { readClickId } from '../../shared/affiliate';
import { homeCopy, wordsAt, withWords, type HomeWordPath } from '../../shared/content/homeCopy';
import { experimentCode, formatShown, readShown, readVariantSubId, variantSubId, type Experiment, type VariantId } from '../../shared/experiments/experiment';

const experiment = (id: string, variants = 2): Experiment => ({
  id,
  variants: (['a', 'b', 'c', 'd'] as const).slice(0, variants).map((variantId) => (variantId === 'a' ? { id: 'a' } : { id: variantId, words: {} })),
});

describe('home word paths', () => {
  it('names string fields of the home copy, array items by index, and nothing else', () => {
    expect(wordsAt(homeCopy, 'home.hero.primaryCtaLabel')).toBe(homeCopy.hero.primaryCtaLabel);
    expect(wordsAt(homeCopy, 'home.faq.items.1.answer')).toBe(homeCopy.faq.items[1]!.answer);
    expect(wordsAt(homeCopy, 'home.meta.title')).toBe(homeCopy.meta.title);
    for (const path of ['home.hero', 'home.hero.nope', 'hero.heading', 'home.faq.items.99.answer', 'home.faq.items.length', 'home.faq.items.01.answer', 'home.reviews.slides.0.image', 'home.bonus.books.0.cover', 'home.bonus.books.0.pages', 'home.hero.constructor', 'home.__proto__.x']) {
      expect(wordsAt(homeCopy, path)).toBeUndefined();
    }
  });

  it('types paths: a field that is not words does not compile', () => {
    const good: HomeWordPath[] = ['home.hero.heading', 'home.whatIs.ctaLabel', 'home.faq.items.3.question'];
    // @ts-expect-error: no such field
    const missing: HomeWordPath = 'home.hero.title';
    // @ts-expect-error: an image's name is not words
    const image: HomeWordPath = 'home.reviews.slides.0.image';
    // @ts-expect-error: a number is not words
    const pages: HomeWordPath = 'home.bonus.books.0.pages';
    expect([...good, missing, image, pages]).toHaveLength(6);
  });

  it('puts words in a copy, leaving the content as it was', () => {
    const changed = withWords(homeCopy, { 'home.hero.primaryCtaLabel': 'Start now', 'home.faq.items.0.answer': 'Yes.' });
    expect(changed.hero.primaryCtaLabel).toBe('Start now');
    expect(changed.faq.items[0]!.answer).toBe('Yes.');
    expect(changed.faq.items[1]).toEqual(homeCopy.faq.items[1]);
    expect(homeCopy.hero.primaryCtaLabel).not.toBe('Start now');
    expect(() => withWords(homeCopy, { 'home.hero.nope': 'x' })).toThrow('home.hero.nope names no words of the home page');
  });
});

describe('the variants a page showed', () => {
  const list = [experiment('hero-words'), experiment('faq-words', 4)];

  it('are written by experiment id and read back', () => {
    const shown = [
      { experiment: 'hero-words', variant: 'b' as const },
      { experiment: 'faq-words', variant: 'd' as const },
    ];
    expect(formatShown(shown)).toBe('faq-words:d,hero-words:b');
    expect(readShown('faq-words:d,hero-words:b', list)).toEqual([shown[1], shown[0]]);
  });

  it('keep only variants of listed experiments, each experiment once', () => {
    expect(readShown('hero-words:c,faq-words:c,gone:b,hero-words:b', list)).toEqual([
      { experiment: 'faq-words', variant: 'c' },
      { experiment: 'hero-words', variant: 'b' },
    ]);
    expect(readShown('faq-words:b,faq-words:c', list)).toEqual([{ experiment: 'faq-words', variant: 'b' }]);
    for (const junk of [undefined, 7, {}, '', ',,,', ':', 'x'.repeat(401)]) expect(readShown(junk, list)).toEqual([]);
  });

  it('never store anything but a listed variant, whatever a report says (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (text) => {
        const shown = readShown(text, list);
        expect(shown.length).toBeLessThanOrEqual(list.length);
        for (const { experiment: id, variant } of shown) expect(list.find((one) => one.id === id)?.variants.some((one) => one.id === variant)).toBe(true);
      }),
    );
  });
});

describe('sub-IDs without JavaScript', () => {
  const ids = ['hero-words', 'faq-words', 'bonus-intro', 'how-heading'];
  const list = ids.map((id) => experiment(id, 4));

  it('give each experiment a code of four base32 characters', () => {
    for (const id of ids) expect(experimentCode(id)).toMatch(/^[a-z2-7]{4}$/);
    expect(new Set(ids.map(experimentCode)).size).toBe(ids.length);
  });

  it('stay within every listed network rule, are never a click ID, and read back without case (property)', () => {
    const shownArbitrary = fc
      .subarray(ids, { minLength: 1 })
      .chain((chosen) => fc.tuple(...chosen.map((id) => fc.constantFrom<VariantId>('a', 'b', 'c', 'd').map((variant) => ({ experiment: id, variant })))));
    fc.assert(
      fc.property(fc.constantFrom('he', 'ex', 'sl', 'ci', 'cb', 'bo'), shownArbitrary, fc.boolean(), (code, shown, upper) => {
        const subid = variantSubId(code, shown);
        expect(subid).toMatch(/^[a-z0-9]{1,24}$/);
        expect(readClickId(subid)).toBeUndefined();
        const read = readVariantSubId(upper ? subid.toUpperCase() : subid, list);
        expect(read?.placementCode).toBe(code);
        expect(formatShown(read!.shown)).toBe(formatShown(shown));
      }),
    );
  });

  it('leave out what they cannot name: an experiment no longer listed', () => {
    const subid = variantSubId('he', [{ experiment: 'hero-words', variant: 'b' }, { experiment: 'gone', variant: 'c' }]);
    expect(readVariantSubId(subid, list)?.shown).toEqual([{ experiment: 'hero-words', variant: 'b' }]);
    expect(readVariantSubId('hero', list)).toBeUndefined();
  });
});
