import { benefits, bonus, checkAuctions, faq, hero, homeMeta, howItWorks, reviews, whatIs } from './home';

/**
 * The home page's words as one object, the one split tests may change (shared/content/experiments.ts):
 * a path such as 'home.hero.primaryCtaLabel' names a field here. The home components read it through
 * useHomeCopy(), so a variant's page is the same components given other words.
 */
export const homeCopy = { meta: homeMeta, hero, whatIs, howItWorks, benefits, reviews, faq, checkAuctions, bonus };

export type HomeCopy = typeof homeCopy;

/**
 * The paths of the words in T: its plain string fields, array items by index. Fields typed as a set of
 * names (an image's name is a string literal union) are not words and have no path.
 */
type WordPaths<T, Prefix extends string> = T extends string
  ? string extends T
    ? Prefix
    : never
  : T extends readonly (infer Item)[]
    ? WordPaths<Item, `${Prefix}.${number}`>
    : T extends object
      ? { [K in keyof T & string]-?: WordPaths<NonNullable<T[K]>, `${Prefix}.${K}`> }[keyof T & string]
      : never;

/** Every path an experiment may give words for: 'home.hero.heading', 'home.faq.items.2.answer', … */
export type HomeWordPath = WordPaths<HomeCopy, 'home'>;

/** Fields whose strings name a thing rather than say something (an image, a book cover): never words. */
const nameFields = new Set(['image', 'cover']);

/** The words at a path, or undefined when it names no string field of the home copy. */
export function wordsAt(copy: HomeCopy, path: string): string | undefined {
  const [root, ...keys] = path.split('.');
  if (root !== 'home' || keys.length < 2 || nameFields.has(keys[keys.length - 1]!)) return undefined;
  let value: unknown = copy;
  for (const key of keys) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    if (Array.isArray(value) && !/^(0|[1-9]\d*)$/.test(key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? value : undefined;
}

/** A copy of the home copy with the given words in place (every path must name a string field: see wordsAt). */
export function withWords(copy: HomeCopy, words: Readonly<Record<string, string>>): HomeCopy {
  const changed = structuredClone(copy);
  for (const [path, text] of Object.entries(words)) {
    if (wordsAt(copy, path) === undefined) throw new Error(`${path} names no words of the home page`);
    const keys = path.split('.').slice(1);
    let target = changed as unknown as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
    target[keys[keys.length - 1]!] = text;
  }
  return changed;
}
