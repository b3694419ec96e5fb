/**
 * Every island, one entry each: its component, its source module and when it hydrates unless a page
 * says otherwise. build.ts makes each module an entry point (one chunk per island, listed in the
 * manifest under the island's name); the server renders the component and writes the chunk's URL and
 * the loading conditions on the island, which is all the browser needs to load it lazily.
 * Adding an island: its component file, and its import and line here.
 */
import type { ComponentProps, ComponentType } from 'react';
import ReviewCarousel from '../ReviewCarousel';
import TopBar from '../TopBar';
import type { LoadConditions } from './loadConditions';

export interface IslandEntry {
  /** The island's component, its module's default export; the server renders it, the browser hydrates it. */
  component: ComponentType<never>;
  /** The component's module, relative to this file (a test checks that it exports the component). */
  module: string;
  /** Its loading conditions unless the page gives others. */
  load: LoadConditions;
}

export const islandRegistry = {
  TopBar: { component: TopBar, module: '../TopBar', load: 'interaction' },
  ReviewCarousel: { component: ReviewCarousel, module: '../ReviewCarousel', load: 'visible' },
} satisfies Record<string, IslandEntry>;

export type IslandName = keyof typeof islandRegistry;

/** The props an island's component takes: what the page hands it, serialised as JSON into the page. */
export type IslandProps<N extends IslandName> = ComponentProps<(typeof islandRegistry)[N]['component']>;
