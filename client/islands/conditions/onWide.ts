/**
 * The desktop layout's breakpoint, as client/styles/layout.css writes it: from here up the top bar shows
 * its links, so what an island shows there is worth hydrating without a visitor reaching for it.
 */
const wideQuery = '(min-width: 960px)';

/**
 * `wide`: while the viewport is at least as wide as the desktop layout, now or once it becomes so (a
 * window widened, a tablet turned). (MediaQueryList's change event: Chrome 45, Firefox 55, Safari 14.)
 */
export function onWide(_element: HTMLElement, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const query = matchMedia(wideQuery);
    if (query.matches) return resolve();
    const changed = () => {
      if (!query.matches) return;
      stop();
      resolve();
    };
    const stop = () => query.removeEventListener('change', changed);
    query.addEventListener('change', changed);
    signal.addEventListener(
      'abort',
      () => {
        stop();
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
