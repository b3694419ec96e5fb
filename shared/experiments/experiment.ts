import type { HomeWordPath } from '../content/homeCopy';

/**
 * Split tests of the site's own words. An experiment lives in shared/content/experiments.ts; its
 * variants are 'a' (the words as they are) and up to three others, each giving other words for some
 * fields of the home page. Who sees which is decided on the server (server/experiments/), from the
 * daily visitor hash, and the page says what it showed (bodyAttribute), so a view, a click and a
 * conversion are credited to the variant the visitor was actually shown.
 */
export type VariantId = 'a' | 'b' | 'c' | 'd';
export const variantIds: readonly VariantId[] = ['a', 'b', 'c', 'd'];

export interface Variant {
  id: VariantId;
  /** The variant's words, by path into the home page's content ('home.hero.primaryCtaLabel'); 'a' has none. */
  words?: Partial<Record<HomeWordPath, string>>;
  /** Its share of the visitors, relative to the others' (1 unless said). */
  weight?: number;
}

export interface Experiment {
  /** Letters, digits and dashes; it names the experiment in the database and the reports, so keep it once used. */
  id: string;
  /** Two to four: 'a', then 'b', 'c', 'd' in that order. */
  variants: Variant[];
  /** Ends the experiment: everyone sees this variant's words, and the reports keep its figures. */
  winner?: VariantId;
}

/** At most this many experiments run at once, and their variants make at most this many home pages. */
export const experimentLimits = { running: 4, combinations: 16, idLength: 40 };

export const isRunning = (experiment: Experiment): boolean => experiment.winner === undefined;

/** One experiment's variant, as a page showed it. */
export interface ShownVariant {
  experiment: string;
  variant: VariantId;
}

/** The body attribute that says which variants a page shows: `experiment:variant` joined by commas, by experiment id. */
export const bodyAttribute = 'data-variants';

/** Variants in the order every written form lists them: by experiment id. */
const byExperiment = (shown: readonly ShownVariant[]) => [...shown].sort((one, two) => (one.experiment < two.experiment ? -1 : 1));

/** The stored and reported form: 'hero-words:b,other:a' ('' outside every experiment). */
export function formatShown(shown: readonly ShownVariant[]): string {
  return byExperiment(shown)
    .map(({ experiment, variant }) => `${experiment}:${variant}`)
    .join(',');
}

/**
 * What a report's or a sub-ID's variants say, kept only where they name a variant of a listed experiment
 * (each experiment once): anything else (made up, from an experiment since deleted) is dropped, so
 * what is stored is always one of the site's own values and a flood of made-up ones stores nothing.
 */
export function readShown(text: unknown, experiments: readonly Experiment[]): ShownVariant[] {
  if (typeof text !== 'string' || text === '' || text.length > 400) return [];
  const shown: ShownVariant[] = [];
  for (const item of text.split(',', experimentLimits.running + 1)) {
    const [experimentId, variant] = item.split(':');
    const experiment = experiments.find((candidate) => candidate.id === experimentId);
    if (!experiment || shown.some((one) => one.experiment === experimentId)) continue;
    const known = experiment.variants.find((candidate) => candidate.id === variant);
    if (known) shown.push({ experiment: experiment.id, variant: known.id });
  }
  return shown;
}

/**
 * An experiment's code in a sub-ID: four characters of base32 (a–z, 2–7) from a 32-bit FNV-1a hash of
 * its id. Unique among the listed experiments (checked with the rest, checkExperiments.ts).
 */
export function experimentCode(id: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
  let code = '';
  for (let index = 0; index < 4; index++) code += base32[(hash >>> (index * 5)) & 31];
  return code;
}

/**
 * The marker between a placement code and the variants in a sub-ID: a digit no click ID has (their
 * characters are a–z and 2–7), so the two never mix.
 */
const subIdMarker = '9';

/**
 * The sub-ID a link carries without JavaScript while its page shows variants: the placement's two-letter
 * code, '9', then per variant the experiment's code and the variant's letter (he9k3xqb: hero, variant b
 * of one experiment). Letters and digits only, at most 3 + 5 × 4 = 23 characters, read without case:
 * within the strictest network rule the README lists (ClickBank's 24).
 */
export function variantSubId(placementCode: string, shown: readonly ShownVariant[]): string {
  return placementCode + subIdMarker + byExperiment(shown).map(({ experiment, variant }) => experimentCode(experiment) + variant).join('');
}

const variantSubIdPattern = /^([a-z]{2})9((?:[a-z2-7]{4}[a-d]){1,4})$/;

/** What a sub-ID in variantSubId's form says (lower-cased first), or undefined when it is not one. */
export function readVariantSubId(subid: string, experiments: readonly Experiment[]): { placementCode: string; shown: ShownVariant[] } | undefined {
  const match = variantSubIdPattern.exec(subid.toLowerCase());
  if (!match) return undefined;
  const shown: ShownVariant[] = [];
  for (let index = 0; index < match[2]!.length; index += 5) {
    const code = match[2]!.slice(index, index + 4);
    const experiment = experiments.find((candidate) => experimentCode(candidate.id) === code);
    const variant = experiment?.variants.find((candidate) => candidate.id === match[2]![index + 4]);
    if (experiment && variant) shown.push({ experiment: experiment.id, variant: variant.id });
  }
  return { placementCode: match[1]!, shown };
}
