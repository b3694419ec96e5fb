/**
 * The affiliate link a click or middle click follows (a middle click opens it in a new tab, and is a click
 * on it all the same); null for any other click. What the click report and the leave report both count.
 */
export function followedLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.type === 'auxclick' && event.button !== 1) return null;
  const link = event.target instanceof Element ? event.target.closest('a[data-placement]') : null;
  return link instanceof HTMLAnchorElement ? link : null;
}
