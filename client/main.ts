import { createIslandHydrator } from './islandHydrator';
import { startNavigation } from './navigation';

/** The client entry: hydrate the islands of the page (everything else stays static HTML), then navigate in place. */
const hydrator = createIslandHydrator();
void hydrator.hydrate(document);
startNavigation(hydrator);
