/**
 * Every attribute the server writes for the client to read, and the one the client writes back, in
 * one table: server markup, the entry script, the islands runtime and the tests all name them from here.
 */
export const clientAttributes = {
  /** On an island's wrapper: its registered name. */
  island: 'data-island',
  /** On an island: the React identifierPrefix the server rendered it with; the client hydrates with the same one so useId values match. */
  islandId: 'data-island-id',
  /** On an island: its props as JSON (React escapes the attribute value, so no markup in props can break out). */
  islandProps: 'data-island-props',
  /** On an island: when it hydrates, one or more loading conditions separated by spaces, all of which must be met (see formatLoadConditions.ts). */
  islandLoad: 'data-island-load',
  /** On an island: the URL of its own chunk, imported when it is about to hydrate. */
  islandSrc: 'data-island-src',
  /** On an island: the chunks its chunk imports, preloaded with it. */
  islandPreload: 'data-island-preload',
  /**
   * Written by the client on an island: "false" once its conditions are being awaited, "true" once it is
   * hydrated and its effects have run. A state signal for CSS and a hook for tests.
   */
  hydrated: 'data-hydrated',
  /** On the entry script: the islands runtime (React and hydrateIsland), imported only when some island is about to hydrate. */
  runtime: 'data-runtime',
  /** On the entry script: the chunks the runtime imports, preloaded with it. */
  preload: 'data-preload',
  /** On the entry script: the in-place navigation module, imported after the first paint. */
  navigation: 'data-navigation',
  /** On the entry script: the endpoint to report affiliate clicks to; absent when counting is off, and then no listener is added. */
  clickEndpoint: 'data-click-endpoint',
  /** On the entry script: the endpoint to report page views to; absent when counting is off, and then none is sent. */
  viewEndpoint: 'data-view-endpoint',
  /** On the entry script: the endpoint to send each page view's leave report to (how far, what was seen, how long); absent when counting is off. */
  leaveEndpoint: 'data-leave-endpoint',
  /**
   * On the entry script: the affiliate address's sub-ID parameter (AFFILIATE_SUBID_PARAM), present only
   * while counting is on; the click reporter then puts a fresh click ID into it at the moment of the click.
   */
  subIdParam: 'data-subid-param',
  /**
   * Written by the entry on <html>: the type of the pointer the visitor last used ("mouse", "touch" or
   * "pen", from PointerEvent.pointerType), so an island hydrating under a resting pointer can tell a mouse
   * from a finger that left `:hover` behind, whatever the device says its main pointer is.
   */
  pointerUsed: 'data-pointer-used',
  /**
   * Written by the server on each section of the home page, and taken away by the entry section by section
   * once the page is idle: while it is there, and scripts run, the section is laid out only as it nears the
   * viewport (client/sectionsInTurn.ts).
   */
  layoutWaits: 'data-layout-waits',
} as const;
