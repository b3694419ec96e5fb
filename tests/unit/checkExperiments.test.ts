import { experiments as shipped } from '../../shared/content/experiments';
import { experimentProblems } from '../../shared/experiments/checkExperiments';
import type { Experiment } from '../../shared/experiments/experiment';

const label = (id: string, words: Record<string, string>): Experiment => ({ id, variants: [{ id: 'a' }, { id: 'b', words }] });

/** Each problem is one line that names the experiment at fault. */
function problemsOf(list: unknown[]): string[] {
  const problems = experimentProblems(list as Experiment[]);
  for (const problem of problems) expect(problem).not.toContain('\n');
  return problems;
}

describe('experimentProblems', () => {
  it('accepts the shipped list, and experiments that change other fields', () => {
    expect(experimentProblems(shipped)).toEqual([]);
    expect(problemsOf([label('hero', { 'home.hero.heading': 'Buy a car at auction' }), label('faq', { 'home.faq.heading': 'Questions' })])).toEqual([]);
  });

  it('refuses a path that names no words, in one line naming the experiment', () => {
    expect(problemsOf([label('hero-words', { 'home.hero.title': 'x' })])).toEqual(['experiment "hero-words": home.hero.title (variant b) names no words of the home page']);
    expect(problemsOf([label('images', { 'home.reviews.slides.0.image': 'review-2' })])[0]).toMatch(/^experiment "images": home\.reviews\.slides\.0\.image/);
  });

  it('refuses two running experiments that change the same field, but not when one has ended', () => {
    const first = label('first', { 'home.hero.primaryCtaLabel': 'Start now' });
    const second = label('second', { 'home.hero.primaryCtaLabel': 'Get instant access' });
    expect(problemsOf([first, second])).toEqual(['experiment "second": changes home.hero.primaryCtaLabel, which running experiment "first" changes too']);
    expect(problemsOf([{ ...first, winner: 'b' }, second])).toEqual([]);
  });

  it('refuses bad ids, variants, weights and winners', () => {
    const problems = problemsOf([
      { id: 'no spaces', variants: [{ id: 'a' }, { id: 'b' }] },
      { id: 'one', variants: [{ id: 'a' }] },
      { id: 'five', variants: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id })) },
      { id: 'order', variants: [{ id: 'b' }, { id: 'a' }] },
      { id: 'weight', variants: [{ id: 'a', weight: 0 }, { id: 'b', weight: Number.NaN }] },
      { id: 'winner', variants: [{ id: 'a' }, { id: 'b' }], winner: 'c' },
      { id: 'a-words', variants: [{ id: 'a', words: { 'home.hero.heading': 'x' } }, { id: 'b' }] },
      { id: 'empty', variants: [{ id: 'a' }, { id: 'b', words: { 'home.hero.heading': '  ' } }] },
      { id: 'order', variants: [{ id: 'a' }, { id: 'b' }] },
    ]);
    for (const id of ['no spaces', 'one', 'five', 'order', 'weight', 'winner', 'a-words', 'empty']) {
      expect(problems.some((problem) => problem.startsWith(`experiment ${JSON.stringify(id)}: `))).toBe(true);
    }
    expect(problems).toContain('experiment "order": another experiment has the same id');
    expect(problems).toContain('experiment "winner": its winner "c" is not one of its variants');
  });

  it('holds words to the page budgets on words: title and description lengths, and placeholders', () => {
    expect(problemsOf([label('title', { 'home.meta.title': 'x'.repeat(61) })])).toEqual([
      "experiment \"title\": variant b's home.meta.title is 61 characters; the page's budget is 1 to 60",
    ]);
    expect(problemsOf([label('description', { 'home.meta.description': 'Too short.' })])[0]).toMatch(/^experiment "description": .*120 to 160/);
    expect(problemsOf([label('step', { 'home.howItWorks.stepLabel': 'Step' })])[0]).toMatch(/^experiment "step": .*must keep \{n\}/);
  });

  it('limits what runs at once: four experiments, sixteen home pages', () => {
    const fields = ['home.hero.heading', 'home.hero.lead', 'home.hero.eyebrow', 'home.faq.heading', 'home.bonus.heading'];
    const five = fields.map((field, index) => label(`e${index}`, { [field]: 'Other words' }));
    expect(problemsOf(five)).toContain('experiments "e0", "e1", "e2", "e3", "e4": at most 4 run at once');
    const wide = ['x', 'y', 'z'].map((id, index) => ({ id, variants: (['a', 'b', 'c'] as const).map((variant) => (variant === 'a' ? { id: variant } : { id: variant, words: { [fields[index]!]: `Words ${variant}` } })) }));
    expect(problemsOf(wide)).toContain('experiments "x", "y", "z": their variants make 27 home pages, at most 16 are rendered');
  });
});
