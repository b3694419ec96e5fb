import { afterNextPaint } from './afterNextPaint';

/**
 * The first signs of a visitor reaching for the island: a press (pointer or touch, which come before the
 * click) or keyboard focus landing in it. (Pointer events: Chrome 55, Firefox 59, Safari 13; touchstart
 * covers older iOS; focusin and keydown: every browser.)
 */
const interactionEvents = ['pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/**
 * How long a press may take to become a click before hydration goes ahead anyway (a long press, a drag
 * that the browser did not cancel).
 */
const pressMs = 500;

/** Resolves once a press that began is over: its click dispatched, the press cancelled, or pressMs gone by. */
function pressOver(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, pressMs);
    // Each listener goes after its first event; resolving twice changes nothing.
    for (const type of ['click', 'pointercancel']) addEventListener(type, () => resolve(), { capture: true, once: true });
  });
}

/**
 * `interaction`: on the first press, touch, focus or key press inside the island (or at once if focus is
 * already there). It is met only once the browser has answered that first interaction and painted the
 * answer (a press once its click has come): evaluating React is a long task on a slow phone, and it must
 * not stand between a tap and what the tap shows (the native popover menu opening, say).
 */
export function onInteraction(element: HTMLElement, signal: AbortSignal): Promise<void> {
  return new Promise<Event | null>((resolve, reject) => {
    if (element.contains(document.activeElement)) return resolve(null);
    const stop = () => interactionEvents.forEach((type) => element.removeEventListener(type, met));
    const met = (event: Event) => {
      stop();
      resolve(event);
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
  }).then(async (event) => {
    if (event?.type === 'pointerdown' || event?.type === 'touchstart') await pressOver();
    await afterNextPaint();
  });
}
