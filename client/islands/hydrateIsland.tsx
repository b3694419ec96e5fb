/**
 * The islands runtime's React half: the one module that brings React and react-dom to the page. The
 * entry imports it by URL only when some island is about to hydrate, so a page whose islands all wait
 * for a visitor fetches no React until one does.
 */
import { startTransition, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { clientAttributes } from '../../shared/islands/clientAttributes';

/** Marks the island hydrated once React has committed it and run its effects. */
function HydrationMarker({ element, children }: { element: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    element.setAttribute(clientAttributes.hydrated, 'true');
  }, [element]);
  return children;
}

export interface HydratedIsland {
  unmount(): void;
}

/**
 * Hydrates one island as its own React root, with the identifierPrefix the server rendered it with.
 * Inside a transition React hydrates in slices of a few milliseconds and yields to the browser between
 * them (as Astro's React integration does), so hydration never blocks input for long.
 */
export function hydrateIsland(element: HTMLElement, Component: ComponentType<object>, props: object, identifierPrefix: string | undefined): HydratedIsland {
  let root: HydratedIsland | undefined;
  let leaving = false;
  startTransition(() => {
    root = hydrateRoot(
      element,
      <HydrationMarker element={element}>
        <Component {...props} />
      </HydrationMarker>,
      {
        identifierPrefix,
        // An island unmounted by in-place navigation before its hydration finished makes React report
        // that the root "received an early update"; the island is leaving the page, so that is no fault.
        onRecoverableError: (error) => {
          if (!leaving) reportError(error);
        },
      },
    );
  });
  return {
    unmount() {
      leaving = true;
      root!.unmount();
    },
  };
}
