import { useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { islandAttributes } from '../shared/islands/attributes';
import { isIslandName, islandLoaders } from '../shared/islands/registry';

/** Marks the island hydrated once React has committed it and run its effects. */
function HydrationMarker({ element, children }: { element: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    element.setAttribute(islandAttributes.hydrated, 'true');
  }, [element]);
  return children;
}

export interface IslandHydrator {
  /** Hydrates every island below root that is not hydrated yet; resolves when all have started. */
  hydrate(root: ParentNode): Promise<void>;
  /** Unmounts the islands below root (before the page content they live in is replaced). */
  unmount(root: ParentNode): void;
}

/** Finds islands in server HTML and hydrates each as its own React root, with the server's identifierPrefix. */
export function createIslandHydrator(): IslandHydrator {
  const roots = new Map<HTMLElement, Root>();
  const selector = `[${islandAttributes.name}]:not([${islandAttributes.hydrated}])`;

  async function hydrateOne(element: HTMLElement): Promise<void> {
    const name = element.getAttribute(islandAttributes.name) ?? '';
    if (!isIslandName(name)) {
      console.error(`Unknown island "${name}": it stays static`);
      return;
    }
    const props = JSON.parse(element.getAttribute(islandAttributes.props) ?? '{}') as object;
    const { default: Component } = (await islandLoaders[name]()) as { default: ComponentType<object> };
    if (roots.has(element) || !element.isConnected) return;
    const root = hydrateRoot(
      element,
      <HydrationMarker element={element}>
        <Component {...props} />
      </HydrationMarker>,
      { identifierPrefix: element.getAttribute(islandAttributes.id) ?? undefined },
    );
    roots.set(element, root);
  }

  return {
    async hydrate(root) {
      const elements = [...root.querySelectorAll<HTMLElement>(selector)];
      await Promise.all(elements.map((element) => hydrateOne(element)));
    },
    unmount(root) {
      for (const [element, reactRoot] of roots) {
        if (root.contains(element)) {
          reactRoot.unmount();
          roots.delete(element);
        }
      }
    },
  };
}
