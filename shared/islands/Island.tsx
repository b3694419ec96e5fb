import { createContext, createElement, useContext, type ComponentProps, type ComponentType, type ReactElement } from 'react';
import { islandAttributes } from './attributes';
import type { IslandComponent, IslandName } from './registry';

/**
 * Server side of the islands runtime. An island is rendered on the server as its own React root
 * (its own renderToString with its own identifierPrefix), exactly as the client will hydrate it, so
 * useId values and markup match. The page render leaves a slot marker in the island's wrapper and
 * renderPage fills each slot afterwards: nesting renderToString inside a render is not supported by React.
 */
export interface IslandRecord {
  name: IslandName;
  identifierPrefix: string;
  element: ReactElement;
}

/** Collects the islands of one page render; a fresh one per render, never shared. */
export class IslandCollector {
  readonly islands: IslandRecord[] = [];

  add(name: IslandName, element: ReactElement): IslandRecord & { index: number } {
    const index = this.islands.length;
    const record = { name, identifierPrefix: `i${index}-`, element };
    this.islands.push(record);
    return { ...record, index };
  }
}

export const IslandContext = createContext<IslandCollector | null>(null);

/**
 * A slot marker is an HTML comment. Page text cannot forge one: React escapes "<" in text and
 * attributes, so only this module's dangerouslySetInnerHTML can put a comment into the page.
 */
export function islandSlot(index: number): string {
  return `<!--island-slot:${index}-->`;
}

export const islandSlotPattern = /<!--island-slot:(\d+)-->/g;

/** Props travel as JSON; anything that JSON cannot carry (functions, dates, undefined) is a bug in the page. */
export function serializeIslandProps(props: object): string {
  return JSON.stringify(props);
}

/**
 * Wraps an island component for use in (server-rendered) pages. The name must be the one the
 * client registry loads the same component under; the types make a mismatch a compile error.
 */
export function defineIsland<N extends IslandName>(name: N, component: IslandComponent<N>) {
  type Props = ComponentProps<IslandComponent<N>>;
  function IslandBoundary(props: Props) {
    const collector = useContext(IslandContext);
    if (!collector) throw new Error(`The ${name} island was rendered outside renderPage`);
    // Generic component types do not narrow inside createElement; the signature above already ties props to component.
    const element = createElement(component as ComponentType<object>, props as unknown as object);
    const { index, identifierPrefix } = collector.add(name, element);
    return (
      <div
        {...{
          [islandAttributes.name]: name,
          [islandAttributes.id]: identifierPrefix,
          [islandAttributes.props]: serializeIslandProps(props as unknown as object),
        }}
        dangerouslySetInnerHTML={{ __html: islandSlot(index) }}
      />
    );
  }
  IslandBoundary.displayName = `Island(${name})`;
  return IslandBoundary;
}
