/**
 * Every attribute the islands runtime reads or writes, in one table, so server markup,
 * client code and tests cannot drift apart.
 */
export const islandAttributes = {
  /** The island's registered name: which module the client loads to hydrate it. */
  name: 'data-island',
  /** The React identifierPrefix the server rendered it with; the client hydrates with the same one so useId values match. */
  id: 'data-island-id',
  /** The island's props as JSON (React escapes the attribute value, so no markup in props can break out). */
  props: 'data-island-props',
  /** Set to "true" once the island is hydrated and its effects have run: a state signal and a test hook. */
  hydrated: 'data-hydrated',
  /** On the entry script: the chunks this page's islands need, preloaded together once hydration starts. */
  preload: 'data-preload',
  /** On the entry script: the hydrator's and the navigation module's URLs, which the entry imports after the first paint. */
  runtime: 'data-runtime',
} as const;
