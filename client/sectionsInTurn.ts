import { onLoad } from './islands/conditions/onLoad';

/**
 * The home page's sections wait to be styled, laid out and painted until they near the viewport while
 * they carry `data-layout-waits` (`content-visibility: auto` where scripts run, client/styles/base.css).
 * The server writes the mark, so that from the first layout on, the frames around the first paint hold
 * the hero alone instead of the rest of a long page, and a first tap on a slow phone is answered at once.
 * A waiting section stands in at an estimated height, so a smooth scroll to a section further down would
 * aim at where the estimates put it and miss as the sections it passes take their real heights. So, once
 * the page is idle, the sections are laid out for good one at a time, one per idle period (each a short
 * task); and whatever scrolls to a place on the page before they all are (a link to a section of this
 * page) lays out the rest at once first. Nothing waits on a page opened at a fragment (/#faq: the entry,
 * a deferred module, takes the marks away before DOMContentLoaded, and the browser scrolls to the fragment
 * once the document is parsed), on a page shown by in-place navigation (client/navigation.ts), or without
 * JavaScript.
 * (content-visibility: Chrome 85, Firefox 125, Safari 18; the `scripting` media feature: Chrome 120,
 * Firefox 113, Safari 17; elsewhere the mark changes nothing.)
 */
/** At the latest this long after the previous section, even on a page that is never idle. */
const idleTimeoutMs = 1000;

export interface SectionsInTurn {
  /** Lays the waiting sections out one per idle period, from the top, once the page has loaded (all at once on a page opened at a fragment). */
  start(): void;
  /** Lays out every section still waiting, now (before a scroll or a click that must land exactly). */
  all(): void;
}

export function sectionsInTurn(attribute: string): SectionsInTurn {
  const waiting = () => document.querySelectorAll<HTMLElement>(`[${attribute}]`);
  const layOut = (section: Element) => section.removeAttribute(attribute);
  const idle = (next: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(next, { timeout: idleTimeoutMs }) : setTimeout(next, 50));

  function oneMore() {
    const [section] = waiting();
    if (!section) return;
    layOut(section);
    // The next idle period comes after the frame that lays this one out.
    idle(oneMore);
  }

  // A link to a place on this page: the browser scrolls there as the click's default action, after this
  // listener (capture, on the document) has laid out the sections between. Other links are left alone.
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href*="#"]') : null;
      if (link instanceof HTMLAnchorElement && link.pathname === location.pathname && link.search === location.search) waiting().forEach(layOut);
    },
    { capture: true },
  );

  return {
    start() {
      // A page opened at a fragment (/#faq): the browser scrolls there next, and an estimated height above it would move it.
      if (location.hash) waiting().forEach(layOut);
      else void onLoad().then(() => idle(oneMore));
    },
    all: () => waiting().forEach(layOut),
  };
}
