import { onLoad } from './onLoad';

/** At the latest this long after load, even on a page that is never idle. */
const idleTimeoutMs = 2000;

/**
 * `idle`: after `load`, once the main thread has nothing else to do.
 * (requestIdleCallback: Chrome 47, Firefox 55; Safari has none, and there a short timeout stands in.)
 */
export async function onIdle(): Promise<void> {
  await onLoad();
  await new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: idleTimeoutMs });
    else setTimeout(resolve, 200);
  });
}
