/**
 * The loading conditions an island may name, and how the server writes them into `data-island-load`.
 * Each condition is one module in client/islands/conditions/; the browser reads the attribute back with
 * parseLoadConditions (client/islands/loadConditions.ts), whose table the compiler keeps to these names.
 */
export type LoadCondition =
  /** Once the page has loaded and painted. */
  | 'load'
  /** After load, once the main thread is idle. */
  | 'idle'
  /** When the island comes within a screen of the viewport. */
  | 'visible'
  /** On the first press, touch, focus or key press inside the island. */
  | 'interaction'
  /** While the viewport is as wide as the desktop layout (960 px and more, where the top bar shows its links). */
  | 'wide';

/** One condition, or several that must all be met. */
export type AllOf = LoadCondition | readonly LoadCondition[];

/** An island's conditions: one set that must all be met, or alternatives, the first met of which hydrates it. */
export type LoadConditions = AllOf | { anyOf: readonly AllOf[] };

/** In the attribute, conditions that must all be met are separated by spaces, and alternatives by " | ". */
export const alternativeSeparator = ' | ';

const formatAllOf = (conditions: AllOf) => (typeof conditions === 'string' ? conditions : conditions.join(' '));

/** The attribute value the server writes for an island's conditions. */
export function formatLoadConditions(conditions: LoadConditions): string {
  return typeof conditions === 'object' && 'anyOf' in conditions ? conditions.anyOf.map(formatAllOf).join(alternativeSeparator) : formatAllOf(conditions);
}
