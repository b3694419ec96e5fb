/**
 * Resolves just after the browser paints its next frame: a requestAnimationFrame callback runs just
 * before a frame is painted, and a task queued from it runs just after. (requestAnimationFrame: every
 * browser; it waits while the tab is hidden.)
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
