import { createContext, createElement, useContext, type ComponentProps, type ComponentType, type ReactElement } from 'react';
import { clientAttributes } from './clientAttributes';
import { formatLoadConditions, type LoadConditions } from './formatLoadConditions';
import { islandRegistry } from './registry.generated';

/**
 * The islands runtime on the server. Each island is a folder beside this module, shared/islands/<Name>/,
 * whose <Name>.tsx the build lists in registry.generated.ts: that list is all this module knows of them.
 * An island is rendered as its own React root (its own
 * renderToString with its own identifierPrefix), exactly as the browser will hydrate it, so useId values
 * and markup match. The page render leaves a slot marker in the island's wrapper and renderPage fills
 * each slot afterwards: nesting renderToString inside a render is not supported by React.
 */
export interface IslandRecord {
  name: string;
  identifierPrefix: string;
  element: ReactElement;
}

/** An island's built chunk and the chunks it imports (from the build's manifest). */
export interface IslandChunk {
  file: string;
  imports: readonly string[];
}

/** Collects the islands of one page render; a fresh one per render, never shared. */
export class IslandCollector {
  readonly islands: IslandRecord[] = [];

  constructor(private readonly chunks: Readonly<Record<string, IslandChunk>>) {}

  add(name: string, element: ReactElement): { index: number; identifierPrefix: string; chunk: IslandChunk } {
    const chunk = this.chunks[name];
    if (!chunk) throw new Error(`The build has no chunk for the ${name} island: run "npm run build"`);
    const index = this.islands.length;
    const identifierPrefix = `i${index}-`;
    this.islands.push({ name, identifierPrefix, element });
    return { index, identifierPrefix, chunk };
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

export interface IslandMarkerProps<P extends object> {
  name: string;
  component: ComponentType<P>;
  props: P;
  load: LoadConditions;
}

/** The island's wrapper, carrying everything the browser needs to hydrate it; its content is filled in by renderPage. */
export function IslandMarker<P extends object>({ name, component, props, load }: IslandMarkerProps<P>) {
  const collector = useContext(IslandContext);
  if (!collector) throw new Error(`The ${name} island was rendered outside renderPage`);
  const { index, identifierPrefix, chunk } = collector.add(name, createElement(component, props));
  return (
    <div
      {...{
        [clientAttributes.island]: name,
        [clientAttributes.islandId]: identifierPrefix,
        [clientAttributes.islandLoad]: formatLoadConditions(load),
        [clientAttributes.islandSrc]: chunk.file,
        [clientAttributes.islandPreload]: chunk.imports.length > 0 ? chunk.imports.join(' ') : undefined,
        [clientAttributes.islandProps]: serializeIslandProps(props),
      }}
      dangerouslySetInnerHTML={{ __html: islandSlot(index) }}
    />
  );
}

/** What each island folder's <Name>.tsx exports. */
export interface IslandModule {
  /** The island's component: the server renders it, the browser hydrates it from the module's own chunk. */
  default: ComponentType<never>;
  /** Its loading conditions unless the page gives others: `'visible'`, or several as `['idle', 'visible'] as const`. */
  defaultLoad: LoadConditions;
}

/** Every island, by folder name; a folder whose module lacks either export stops the type check here. */
const islands: Readonly<Record<IslandName, IslandModule>> = islandRegistry;

export type IslandName = keyof typeof islandRegistry;

/** The props an island's component takes: what the page hands it, serialised as JSON into the page. */
export type IslandProps<N extends IslandName> = ComponentProps<(typeof islandRegistry)[N]['default']>;

export interface IslandUse<N extends IslandName> {
  name: N;
  props: IslandProps<N>;
  /** When it hydrates on this page, instead of the island's defaultLoad. */
  load?: LoadConditions;
}

/** An island as a page uses it: `<Island name="TopBar" props={{ onHome }} load="idle" />`. */
export function Island<N extends IslandName>({ name, props, load }: IslandUse<N>) {
  const island = islands[name];
  // Generic component types do not narrow by name; IslandProps already ties props to the component.
  return <IslandMarker name={name} component={island.default as ComponentType<object>} props={props as object} load={load ?? island.defaultLoad} />;
}
