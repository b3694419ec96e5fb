import { createIslandHydrator } from './islandHydrator';

/** The client entry: hydrate the islands of the page; everything else stays static HTML. */
const hydrator = createIslandHydrator();
void hydrator.hydrate(document);
