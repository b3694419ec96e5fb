/**
 * The client entry, kept tiny: it waits until the browser has painted the server's HTML, then loads
 * the islands runtime (React) and hydrates. Nothing the visitor first sees waits for JavaScript, and
 * the page is usable before: links are real links, the menu is a native popover, the FAQ is <details>.
 */
import { clickEndpointAttribute } from '../shared/clickBeacon';
import { islandAttributes } from '../shared/islands/attributes';
import { startClickReporting } from './clickReporter';

/**
 * After the page has loaded and painted: a rAF callback runs just before a frame is painted, and a task
 * queued from it runs just after. Waiting for load too keeps the runtime's download from competing
 * with the page's own content (the largest paint may come a few frames after the first).
 */
function afterFirstPaint(run: () => void): void {
  const afterPaint = () => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(run, 0)) : run());
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
}

/** This module's own script element (document.currentScript is null for modules), carrying the server's settings. */
const entryScript = document.querySelector(`script[${islandAttributes.preload}]`);

/** Starts every chunk the page needs at once (listed by the server), instead of one import after another. */
function preloadChunks(): void {
  const list = entryScript?.getAttribute(islandAttributes.preload) ?? '';
  for (const href of list.split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

// Right away, not after the paint: a visitor may follow a link before the islands are hydrated.
const clickEndpoint = entryScript?.getAttribute(clickEndpointAttribute);
if (clickEndpoint) startClickReporting(clickEndpoint);

/**
 * The runtime by the URLs the server gives: this entry is built on its own, without code splitting, so
 * it is one small file with no chunk of its own to wait for before the page settles.
 */
function importRuntime(): Promise<[typeof import('./islandHydrator'), typeof import('./navigation')]> {
  const [hydrator = '', navigation = ''] = (entryScript?.getAttribute(islandAttributes.runtime) ?? '').split(' ');
  return Promise.all([import(hydrator), import(navigation)]);
}

afterFirstPaint(() => {
  preloadChunks();
  void importRuntime().then(([{ createIslandHydrator }, { startNavigation }]) => {
    const hydrator = createIslandHydrator();
    void hydrator.hydrate(document);
    startNavigation(hydrator);
  });
});
