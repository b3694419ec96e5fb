import type { LoadCondition } from '../../shared/islands/formatLoadConditions';
import { onIdle } from './conditions/onIdle';
import { onInteraction } from './conditions/onInteraction';
import { onLoad } from './conditions/onLoad';
import { onVisible } from './conditions/onVisible';

/**
 * When an island hydrates, as Astro's `client:*` directives and is-land's `on:*` conditions: each
 * condition is a promise that resolves once it is met (and rejects when the island is dropped first).
 * An island may name several; it hydrates when all of them are met. The names are the server's
 * (shared/islands/formatLoadConditions.ts): the compiler holds this table to exactly those.
 */
export const loadConditions = {
  load: onLoad,
  idle: onIdle,
  visible: onVisible,
  interaction: onInteraction,
} satisfies Record<LoadCondition, (element: HTMLElement, signal: AbortSignal) => Promise<void>>;

export function isLoadCondition(name: string): name is LoadCondition {
  return Object.hasOwn(loadConditions, name);
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
