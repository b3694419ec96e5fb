/**
 * The islands the client can hydrate, by name. Each loader is a dynamic import, so esbuild puts
 * every island in a chunk of its own and a page downloads only the islands it shows.
 */
export const islandLoaders = {
  TopBar: () => import('./TopBar'),
  ReviewCarousel: () => import('./ReviewCarousel'),
};

export type IslandName = keyof typeof islandLoaders;

/** The component an island name stands for, as its module's default export. */
export type IslandComponent<N extends IslandName> = Awaited<ReturnType<(typeof islandLoaders)[N]>>['default'];

export function isIslandName(name: string): name is IslandName {
  return Object.hasOwn(islandLoaders, name);
}
