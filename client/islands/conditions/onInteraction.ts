/**
 * The first signs of a visitor reaching for the island: a press (pointer or touch, which come before the
 * click) or keyboard focus landing in it. (Pointer events: Chrome 55, Firefox 59, Safari 13; touchstart
 * covers older iOS; focusin and keydown: every browser.)
 */
const interactionEvents = ['pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** `interaction`: on the first press, touch, focus or key press inside the island (or at once if focus is already there). */
export function onInteraction(element: HTMLElement, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (element.contains(document.activeElement)) return resolve();
    const stop = () => interactionEvents.forEach((type) => element.removeEventListener(type, met));
    const met = () => {
      stop();
      resolve();
    };
    interactionEvents.forEach((type) => element.addEventListener(type, met, { passive: true }));
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
