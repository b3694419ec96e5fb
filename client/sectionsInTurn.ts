import { onLoad } from './islands/conditions/onLoad';

/**
 * The home page's sections wait to be styled, laid out and painted until they near the viewport while
 * they carry `data-layout-waits` (`content-visibility: auto`, client/styles/base.css): the entry marks them
 * as it starts, before the frames that follow the first paint, which then hold the hero alone instead of
 * the rest of a long page, so that a first tap on a slow phone is answered at once. A waiting section
 * stands in at an estimated height, so a smooth scroll to a section further down would aim at where the
 * estimates put it and miss as the sections it passes take their real heights. So, once the page is
 * idle, the sections are laid out for good one at a time, one per idle period (each a short task); and
 * whatever scrolls to a place on the page before they all are (a link to a section of this page) lays out
 * the rest at once first. Nothing waits on a page opened at a fragment (/#faq: the browser is scrolling
 * there), on a page shown by in-place navigation (client/navigation.ts), or without JavaScript.
 * (content-visibility: Chrome 85, Firefox 125, Safari 18; elsewhere the mark changes nothing.)
 */
const sectionSelector = '.section';

/** At the latest this long after the previous section, even on a page that is never idle. */
const idleTimeoutMs = 1000;

export interface SectionsInTurn {
  /** Marks the page's sections to wait, then lays them out one per idle period, from the top, once the page has loaded. */
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
      // A page opened at a fragment (/#faq) is already scrolling there, smoothly: nothing may wait.
      if (location.hash) return;
      document.querySelectorAll(sectionSelector).forEach((section) => section.setAttribute(attribute, ''));
      void onLoad().then(() => idle(oneMore));
    },
    all: () => waiting().forEach(layOut),
  };
}
