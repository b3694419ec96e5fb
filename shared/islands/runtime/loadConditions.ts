import { onIdle } from './conditions/onIdle';
import { onInteraction } from './conditions/onInteraction';
import { onLoad } from './conditions/onLoad';
import { onVisible } from './conditions/onVisible';

/**
 * When an island hydrates, as Astro's `client:*` directives and is-land's `on:*` conditions: each
 * condition is a promise that resolves once it is met (and rejects when the island is dropped first).
 * An island may name several; it hydrates when all of them are met.
 */
export const loadConditions = {
  /** Once the page has loaded and painted. */
  load: onLoad,
  /** After load, once the main thread is idle. */
  idle: onIdle,
  /** When the island comes within a screen of the viewport. */
  visible: onVisible,
  /** On the first press, touch, focus or key press inside the island. */
  interaction: onInteraction,
} satisfies Record<string, (element: HTMLElement, signal: AbortSignal) => Promise<void>>;

export type LoadCondition = keyof typeof loadConditions;

/** An island's conditions: one, or several that must all be met. */
export type LoadConditions = LoadCondition | readonly LoadCondition[];

export function isLoadCondition(name: string): name is LoadCondition {
  return Object.hasOwn(loadConditions, name);
}

/** The attribute value the server writes for an island's conditions. */
export function formatLoadConditions(conditions: LoadConditions): string {
  return typeof conditions === 'string' ? conditions : conditions.join(' ');
}

/** The conditions an island's attribute names, or the unknown name that makes it unreadable. */
export function parseLoadConditions(value: string): { conditions: LoadCondition[] } | { unknown: string } {
  const names = value.split(' ').filter(Boolean);
  const unknown = names.find((name) => !isLoadCondition(name));
  return unknown === undefined ? { conditions: names as LoadCondition[] } : { unknown };
}

/** Resolves once every condition is met for the element. */
export function whenConditionsMet(conditions: readonly LoadCondition[], element: HTMLElement, signal: AbortSignal): Promise<void> {
  return Promise.all(conditions.map((name) => loadConditions[name](element, signal))).then(() => undefined);
}
