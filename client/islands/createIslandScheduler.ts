/**
 * The islands runtime's browser half, without React: it finds the islands the server rendered, waits
 * for each one's loading conditions, and only then imports the React runtime and the island's own chunk
 * and hydrates it. It is bundled into the entry, so scheduling costs no request of its own.
 */
import { clientAttributes } from '../../shared/islands/clientAttributes';
import type { HydratedIsland, hydrateIsland as HydrateIsland } from './hydrateIsland';
import { parseLoadConditions, whenConditionsMet } from './loadConditions';

/** A module the entry imports by URL, and the chunks it imports (preloaded with it). */
export interface ScriptModule {
  url: string;
  preload: readonly string[];
}

export interface IslandScheduler {
  /** Schedules every island below root not scheduled yet: each hydrates once its conditions are met. */
  hydrate(root: ParentNode): void;
  /** Unmounts the islands below root and stops waiting for the rest (before the content they live in is replaced). */
  unmount(root: ParentNode): void;
}

interface ScheduledIsland {
  controller: AbortController;
  hydrated?: HydratedIsland;
}

const listOf = (value: string | null) => (value ?? '').split(' ').filter(Boolean);

/**
 * Starts every listed chunk at once instead of one import after another (modulepreload: Chrome 66,
 * Firefox 115, Safari 17; elsewhere the imports fetch them, a round trip later).
 */
function preloadModules(urls: readonly string[], preloaded: Set<string>): void {
  for (const url of urls) {
    if (preloaded.has(url)) continue;
    preloaded.add(url);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = url;
    document.head.append(link);
  }
}

export function createIslandScheduler(runtime: ScriptModule): IslandScheduler {
  const islands = new Map<HTMLElement, ScheduledIsland>();
  const preloaded = new Set<string>();

  async function hydrateWhenReady(element: HTMLElement, island: ScheduledIsland): Promise<void> {
    const parsed = parseLoadConditions(element.getAttribute(clientAttributes.islandLoad) ?? 'load');
    if ('unknown' in parsed) throw new Error(`unknown loading condition "${parsed.unknown}"`);
    await whenConditionsMet(parsed.alternatives, element, island.controller.signal);

    const src = element.getAttribute(clientAttributes.islandSrc) ?? '';
    preloadModules([runtime.url, ...runtime.preload, src, ...listOf(element.getAttribute(clientAttributes.islandPreload))], preloaded);
    const [{ hydrateIsland }, { default: Component }] = (await Promise.all([import(runtime.url), import(src)])) as [
      { hydrateIsland: typeof HydrateIsland },
      { default: Parameters<typeof HydrateIsland>[1] },
    ];
    if (island.controller.signal.aborted || !element.isConnected) return;
    const props = JSON.parse(element.getAttribute(clientAttributes.islandProps) ?? '{}') as object;
    island.hydrated = hydrateIsland(element, Component, props, element.getAttribute(clientAttributes.islandId) ?? undefined);
  }

  return {
    hydrate(root) {
      for (const element of root.querySelectorAll<HTMLElement>(`[${clientAttributes.island}]`)) {
        if (islands.has(element) || element.getAttribute(clientAttributes.hydrated) === 'true') continue;
        const island: ScheduledIsland = { controller: new AbortController() };
        islands.set(element, island);
        element.setAttribute(clientAttributes.hydrated, 'false');
        hydrateWhenReady(element, island).catch((error: unknown) => {
          // An island dropped before its conditions were met is not an error; anything else leaves it static, and says so.
          if (!island.controller.signal.aborted) console.error(`The ${element.getAttribute(clientAttributes.island)} island stays static:`, error);
        });
      }
    },
    unmount(root) {
      for (const [element, island] of islands) {
        if (!root.contains(element)) continue;
        island.controller.abort();
        island.hydrated?.unmount();
        islands.delete(element);
      }
    },
  };
}
