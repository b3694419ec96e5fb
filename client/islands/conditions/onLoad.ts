/**
 * `load`: once the page has loaded and painted. A requestAnimationFrame callback runs just before a frame is
 * painted, and a task queued from it runs just after; waiting for the load event too keeps an island's
 * download from competing with the page's own content (the largest paint may come a few frames after the first).
 * (requestAnimationFrame: every browser; it waits while the tab is hidden, and so does hydration then.)
 */
export function onLoad(): Promise<void> {
  return new Promise((resolve) => {
    const afterPaint = () => requestAnimationFrame(() => setTimeout(resolve, 0));
    if (document.readyState === 'complete') afterPaint();
    else window.addEventListener('load', afterPaint, { once: true });
  });
}
