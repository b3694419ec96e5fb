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
  | 'interaction';

/** An island's conditions: one, or several that must all be met. */
export type LoadConditions = LoadCondition | readonly LoadCondition[];

/** The attribute value the server writes for an island's conditions. */
export function formatLoadConditions(conditions: LoadConditions): string {
  return typeof conditions === 'string' ? conditions : conditions.join(' ');
}
