import { afterNextPaint } from './afterNextPaint';

/**
 * `load`: once the page has loaded and painted. Waiting for the load event keeps an island's download
 * from competing with the page's own content (the largest paint may come a few frames after the first).
 */
export function onLoad(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  }).then(afterNextPaint);
}
