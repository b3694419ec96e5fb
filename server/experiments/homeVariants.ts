import { homeCopy, withWords, type HomeCopy } from '../../shared/content/homeCopy';
import { formatShown, isRunning, type Experiment, type ShownVariant, type Variant } from '../../shared/experiments/experiment';

/** The copy with these variants' words in place (the copy itself when they have none). */
function withVariantWords(copy: HomeCopy, variants: readonly (Variant | undefined)[]): HomeCopy {
  const words: Record<string, string> = Object.assign({}, ...variants.map((variant) => variant?.words));
  return Object.keys(words).length === 0 ? copy : withWords(copy, words);
}

/** An ended experiment's winning words, which everyone now sees: the words every page starts from. */
export function settledHomeCopy(experiments: readonly Experiment[], copy: HomeCopy = homeCopy): HomeCopy {
  const winners = experiments.filter((experiment) => !isRunning(experiment)).map((experiment) => experiment.variants.find((variant) => variant.id === experiment.winner));
  return withVariantWords(copy, winners);
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
  // Each combination as one variant per running experiment, in the experiments' order.
  let combinations: Variant[][] = [[]];
  for (const experiment of running) combinations = combinations.flatMap((chosen) => experiment.variants.map((variant) => [...chosen, variant]));
  const settled = settledHomeCopy(experiments, copy);
  return combinations.map((chosen) => {
    const shown = chosen.map((variant, index) => ({ experiment: running[index]!.id, variant: variant.id }));
    return { shown, key: formatShown(shown), copy: withVariantWords(settled, chosen) };
  });
}
