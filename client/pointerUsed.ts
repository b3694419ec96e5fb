/**
 * Keeps `data-pointer-used` on <html> naming the pointer the visitor last used, so that an island which
 * hydrates under a pointer already resting on it can tell what left `:hover` there: a mouse (which will
 * send pointerleave when it goes) or a finger (a tap leaves `:hover` behind and never takes it away).
 * The media query `(hover: hover)` cannot tell: it describes the device's main pointer, and a tablet,
 * Chromebook or touch-screen laptop used with a mouse answers `hover: none`.
 *
 * `pointerover` fires as a pointer crosses into any element, also when the page scrolls under a resting
 * mouse, and a finger's tap fires it before `pointerdown`; `pointerdown` covers a pen or finger pressed
 * where it already was. The listeners are passive and the attribute is written only when the type changes
 * (no selector reads it, so writing it restyles nothing).
 */
export function watchPointerUsed(root: HTMLElement, attribute: string): void {
  const note = (event: PointerEvent) => {
    if (event.pointerType && root.getAttribute(attribute) !== event.pointerType) root.setAttribute(attribute, event.pointerType);
  };
  const options = { capture: true, passive: true };
  addEventListener('pointerover', note, options);
  addEventListener('pointerdown', note, options);
}
