/** How far ahead of the viewport an island starts to hydrate: one screen, so it is ready by the time it is seen. */
export const visibleRootMargin = '100% 0px';

/**
 * `visible`: when the island comes within a screen of the viewport. The island's wrapper has
 * `display: contents` and so no box of its own: its children are what is observed.
 * (IntersectionObserver: Chrome 58, Firefox 55, Safari 12.1; without it the island hydrates at once.)
 */
export function onVisible(element: HTMLElement, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const boxes = [...element.children];
    if (typeof IntersectionObserver !== 'function' || boxes.length === 0) return resolve();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: visibleRootMargin },
    );
    boxes.forEach((box) => observer.observe(box));
    signal.addEventListener(
      'abort',
      () => {
        observer.disconnect();
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
