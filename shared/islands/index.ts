/**
 * The islands as pages use them (server side). Each is the registry's component wrapped so the
 * server renders it as its own root; the client hydrates it by the same name.
 */
import { defineIsland } from './Island';
import ReviewCarousel from './ReviewCarousel';
import TopBar from './TopBar';

export const TopBarIsland = defineIsland('TopBar', TopBar);
export const ReviewCarouselIsland = defineIsland('ReviewCarousel', ReviewCarousel);
