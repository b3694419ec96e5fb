import { alternativeSeparator, type LoadCondition } from '../../shared/islands/formatLoadConditions';
import { onIdle } from './conditions/onIdle';
import { onInteraction } from './conditions/onInteraction';
import { onLoad } from './conditions/onLoad';
import { onVisible } from './conditions/onVisible';
import { onWide } from './conditions/onWide';

/**
 * When an island hydrates, as Astro's `client:*` directives and is-land's `on:*` conditions: each
 * condition is a promise that resolves once it is met (and rejects when the island is dropped first).
 * An island may name several; it hydrates when all of them are met, or, given alternatives, when all of
 * any one of them are. The names are the server's (shared/islands/formatLoadConditions.ts): the compiler
 * holds this table to exactly those.
 */
export const loadConditions = {
  load: onLoad,
  idle: onIdle,
  visible: onVisible,
  interaction: onInteraction,
  wide: onWide,
} satisfies Record<LoadCondition, (element: HTMLElement, signal: AbortSignal) => Promise<void>>;

export function isLoadCondition(name: string): name is LoadCondition {
  return Object.hasOwn(loadConditions, name);
}

/** The alternatives an island's attribute names (each a list of conditions all to be met), or the unknown name that makes it unreadable. */
export function parseLoadConditions(value: string): { alternatives: LoadCondition[][] } | { unknown: string } {
  const alternatives = value.split(alternativeSeparator.trim()).map((part) => part.split(' ').filter(Boolean));
  const unknown = alternatives.flat().find((name) => !isLoadCondition(name));
  if (unknown !== undefined) return { unknown };
  return { alternatives: alternatives.filter((conditions) => conditions.length > 0) as LoadCondition[][] };
}

/**
 * Resolves once every condition of one of the alternatives is met for the element. The alternatives
 * still waiting are then dropped (their listeners and observers removed), as they are when `signal` aborts.
 */
export async function whenConditionsMet(alternatives: readonly (readonly LoadCondition[])[], element: HTMLElement, signal: AbortSignal): Promise<void> {
  const race = new AbortController();
  const dropRace = () => race.abort(signal.reason);
  signal.addEventListener('abort', dropRace, { once: true });
  try {
    await Promise.any(alternatives.map((conditions) => Promise.all(conditions.map((name) => loadConditions[name](element, race.signal)))));
  } catch {
    // Every alternative rejected: the island was dropped first.
    throw signal.reason;
  } finally {
    signal.removeEventListener('abort', dropRace);
    race.abort();
  }
}
