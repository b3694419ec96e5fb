import type { Experiment } from '../experiments/experiment';

/**
 * Split tests of the home page's words (see docs/experiments.md). Each entry is checked by the type
 * system (a path must name words of the home page) and by the build (paths, variants, overlaps and
 * the page budgets), which names the experiment at fault in one line.
 *
 * Start one by adding an entry; read it on /admin or with `npm run stats`; end it by setting `winner`,
 * which shows the winner's words to everyone and keeps the experiment's figures in the reports. An
 * entry's id names its figures in the database: keep it once the experiment has run.
 */
export const experiments: Experiment[] = [
  {
    id: 'hero-button',
    variants: [
      { id: 'a' },
      { id: 'b', words: { 'home.hero.primaryCtaLabel': 'Join on the Official Site' } },
    ],
  },
];
