import { homeCopy, withWords, type HomeCopy } from '../../shared/content/homeCopy';
import { formatShown, isRunning, type Experiment, type ShownVariant } from '../../shared/experiments/experiment';

/** An ended experiment's winning words, which everyone now sees: the words every page starts from. */
export function settledHomeCopy(experiments: readonly Experiment[], copy: HomeCopy = homeCopy): HomeCopy {
  const words: Record<string, string> = {};
  for (const experiment of experiments) {
    if (isRunning(experiment)) continue;
    Object.assign(words, experiment.variants.find((variant) => variant.id === experiment.winner)?.words);
  }
  return Object.keys(words).length === 0 ? copy : withWords(copy, words);
}

/** One home page a visitor in the experiments may be shown: the variants it shows, and their words. */
export interface HomeVariant {
  shown: ShownVariant[];
  /** formatShown(shown): the page's key, and what its body says (data-variants). */
  key: string;
  copy: HomeCopy;
}

/**
 * Every combination of the running experiments' variants, each with its words on top of the settled
 * ones: the home pages rendered at start-up (at most experimentLimits.combinations). None when no
 * experiment runs.
 */
export function homeVariants(experiments: readonly Experiment[], copy: HomeCopy = homeCopy): HomeVariant[] {
  const running = experiments.filter(isRunning);
  if (running.length === 0) return [];
  let combinations: ShownVariant[][] = [[]];
  for (const experiment of running) {
    combinations = combinations.flatMap((shown) => experiment.variants.map((variant) => [...shown, { experiment: experiment.id, variant: variant.id }]));
  }
  const settled = settledHomeCopy(experiments, copy);
  return combinations.map((shown) => {
    const words: Record<string, string> = {};
    for (const { experiment, variant } of shown) {
      Object.assign(words, running.find((one) => one.id === experiment)?.variants.find((one) => one.id === variant)?.words);
    }
    return { shown, key: formatShown(shown), copy: Object.keys(words).length === 0 ? settled : withWords(settled, words) };
  });
}
