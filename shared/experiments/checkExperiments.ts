import { homeCopy, wordsAt, type HomeCopy } from '../content/homeCopy';
import { experimentCode, experimentLimits, isRunning, variantIds, type Experiment } from './experiment';

/** The page budgets on words alone: the home page's title and description, as search results show them (PageMeta). */
const lengthLimits: Readonly<Record<string, readonly [number, number]>> = { 'home.meta.title': [1, 60], 'home.meta.description': [120, 160] };

/** Placeholders such as {n} that the page fills in: a variant's words must keep every one. */
const placeholders = (text: string) => (text.match(/\{[a-z]+\}/g) ?? []).sort().join(' ');

/**
 * Everything wrong with a list of experiments, one line each, naming the experiment: what the build
 * refuses (build.ts) and start-up would too. The page budgets are checked on the rendered pages
 * (server/experiments/experimentPageBudgets.ts).
 */
export function experimentProblems(experiments: readonly Experiment[], copy: HomeCopy = homeCopy): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const codes = new Map<string, string>();
  const changedBy = new Map<string, string>();
  for (const experiment of experiments) {
    const name = `experiment ${JSON.stringify(experiment.id)}`;
    const problem = (text: string) => problems.push(`${name}: ${text}`);
    if (!/^[A-Za-z0-9-]+$/.test(experiment.id) || experiment.id.length > experimentLimits.idLength) {
      problem(`its id must be 1 to ${experimentLimits.idLength} letters, digits and dashes`);
    }
    if (ids.has(experiment.id)) problem('another experiment has the same id');
    ids.add(experiment.id);
    const code = experimentCode(experiment.id);
    if (codes.has(code)) problem(`its sub-ID code ${code} is also ${JSON.stringify(codes.get(code))}'s: rename one of them`);
    codes.set(code, experiment.id);

    const variants = experiment.variants;
    if (variants.length < 2 || variants.length > 4) problem(`has ${variants.length} variants; an experiment has 2 to 4`);
    variants.forEach((variant, index) => {
      if (variant.id !== variantIds[index]) problem(`its variants must be ${variantIds.slice(0, Math.max(2, variants.length)).join(', ')} in that order`);
      if (variant.weight !== undefined && !(Number.isFinite(variant.weight) && variant.weight > 0)) problem(`variant ${variant.id}'s weight must be a number above 0`);
    });
    if (variants[0] && Object.keys(variants[0].words ?? {}).length > 0) problem('variant a is the words as they are: it takes no words');
    if (experiment.winner !== undefined && !variants.some((variant) => variant.id === experiment.winner)) problem(`its winner ${JSON.stringify(experiment.winner)} is not one of its variants`);

    const fields = new Set<string>();
    for (const variant of variants) {
      for (const [path, text] of Object.entries(variant.words ?? {}) as [string, string | undefined][]) {
        const original = wordsAt(copy, path);
        if (original === undefined) {
          problem(`${path} (variant ${variant.id}) names no words of the home page`);
          continue;
        }
        if (typeof text !== 'string' || text.trim() === '') problem(`variant ${variant.id} gives ${path} no words`);
        else if (placeholders(text) !== placeholders(original)) problem(`variant ${variant.id}'s words for ${path} must keep ${placeholders(original) || 'no placeholders'}`);
        else if (lengthLimits[path] && (text.length < lengthLimits[path][0] || text.length > lengthLimits[path][1])) {
          problem(`variant ${variant.id}'s ${path} is ${text.length} characters; the page's budget is ${lengthLimits[path][0]} to ${lengthLimits[path][1]}`);
        }
        fields.add(path);
      }
    }
    if (isRunning(experiment)) {
      for (const field of fields) {
        const other = changedBy.get(field);
        if (other) problem(`changes ${field}, which running experiment ${JSON.stringify(other)} changes too`);
        else changedBy.set(field, experiment.id);
      }
    }
  }
  const running = experiments.filter(isRunning);
  if (running.length > experimentLimits.running) {
    problems.push(`experiments ${running.map((experiment) => JSON.stringify(experiment.id)).join(', ')}: at most ${experimentLimits.running} run at once`);
  }
  const combinations = running.reduce((product, experiment) => product * experiment.variants.length, 1);
  if (combinations > experimentLimits.combinations) {
    problems.push(
      `experiments ${running.map((experiment) => JSON.stringify(experiment.id)).join(', ')}: their variants make ${combinations} home pages, at most ${experimentLimits.combinations} are rendered`,
    );
  }
  return problems;
}
