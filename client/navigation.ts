import { isPagePath } from '../shared/routes';
import type { IslandScheduler } from './islands/createIslandScheduler';
import type { SectionsInTurn } from './sectionsInTurn';

/**
 * In-place navigation between the site's four pages. A click on an internal link fetches the server's
 * HTML for the target, swaps the page and the head's metadata, unmounts the islands that left and
 * schedules the ones that came (each hydrates under its own loading conditions), and keeps history,
 * scroll, focus and screen-reader announcements right.
 * Anything unusual (modified clicks, targets, downloads, other origins or paths, a failed fetch, a
 * changed build) falls back to the browser's own navigation.
 */

/** What a click looked like: enough to tell an ordinary left click from one the browser must keep. */
export interface ClickFacts {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}

export interface LinkFacts {
  href: string;
  target: string;
  download: boolean;
}

/**
 * The URL to navigate to in place, or null when the browser should handle the click itself.
 * Same-page hash links (#faq on the home page) stay with the browser: it scrolls natively.
 */
export function inPlaceTarget(click: ClickFacts, link: LinkFacts, current: URL): URL | null {
  if (click.defaultPrevented || click.button !== 0) return null;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  if ((link.target && link.target !== '_self') || link.download) return null;
  let url: URL;
  try {
    url = new URL(link.href, current);
  } catch {
    return null;
  }
  if (url.origin !== current.origin || !isPagePath(url.pathname)) return null;
  if (url.pathname === current.pathname && url.search === current.search && url.hash) return null;
  return url;
}

/** Head elements that describe the page and change with it. */
const pageMetadata = [
  'meta[name="description"]',
  'meta[name="robots"]',
  'link[rel="canonical"]',
  'meta[property^="og:"]',
  'meta[name^="twitter:"]',
].join(', ');

/** The build's assets: when they differ the new page needs a full load, not a swap. */
const buildFingerprint = (doc: Document) =>
  [...doc.querySelectorAll('style[data-href], script[type="module"]')].map((element) => element.getAttribute('data-href') ?? element.getAttribute('src')).join(' ');

/** The link a DOM event happened on, with the facts inPlaceTarget needs, or null when it was not on a link. */
function linkOf(event: Event): LinkFacts | null {
  const link = (event.target as Element | null)?.closest?.('a[href]');
  if (!(link instanceof HTMLAnchorElement)) return null;
  return { href: link.href, target: link.target, download: link.hasAttribute('download') };
}

const plainClick: ClickFacts = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };

interface HistoryState {
  scrollY: number;
}

/** What is told of each in-place page change (a link followed, Back or Forward), e.g. to report the views and the leaves. */
export interface PageChanges {
  /** Just before the swap, with the page being left still in place (location may already name the next, on Back or Forward). */
  leaving?: () => void;
  /** After the swap is complete. */
  shown?: () => void;
}

export function startNavigation(islands: IslandScheduler, sections: SectionsInTurn, changes: PageChanges = {}): void {
  if (!('pushState' in history) || typeof DOMParser === 'undefined' || typeof fetch !== 'function') return;
  const pages = new Map<string, Promise<string>>();
  const announcer = createAnnouncer();
  history.scrollRestoration = 'manual';
  history.replaceState({ scrollY: window.scrollY } satisfies HistoryState, '');

  /** The page's HTML, fetched once: prefetch and Back/Forward reuse it. A failed fetch is forgotten. */
  function load(path: string): Promise<string> {
    let page = pages.get(path);
    if (!page) {
      page = fetch(path, { headers: { Accept: 'text/html' }, credentials: 'same-origin' }).then((response) => {
        if (!response.ok) throw new Error(`${path} answered ${response.status}`);
        return response.text();
      });
      page.catch(() => pages.delete(path));
      pages.set(path, page);
    }
    return page;
  }

  async function show(url: URL, mode: 'push' | 'pop', scrollY = 0): Promise<void> {
    const html = await load(url.pathname);
    const next = new DOMParser().parseFromString(html, 'text/html');
    if (buildFingerprint(next) !== buildFingerprint(document)) throw new Error('the site was updated');

    changes.leaving?.();
    islands.unmount(document.body);
    swapHead(next);
    swapBody(next, announcer, url.pathname);
    if (mode === 'push') history.pushState({ scrollY: 0 } satisfies HistoryState, '', url.href);

    const target = url.hash ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
    // Nothing waits on a page shown in place: the click that brought it has already been answered, and a
    // scroll to a saved position or a section, or the next click, must land where it did before.
    sections.all();
    // 'instant': a page change is a jump, whatever smooth scrolling the stylesheet sets for in-page links.
    if (mode === 'pop') window.scrollTo({ top: scrollY, behavior: 'instant' });
    else if (target) target.scrollIntoView({ behavior: 'instant', block: 'start' });
    else window.scrollTo({ top: 0, behavior: 'instant' });

    focusHeading(target);
    announcer.textContent = document.title;
    islands.hydrate(document.body);
    changes.shown?.();
  }

  document.addEventListener('click', (event) => {
    const link = linkOf(event);
    const url = link && inPlaceTarget(event, link, new URL(location.href));
    if (!url) return;
    event.preventDefault();
    history.replaceState({ scrollY: window.scrollY } satisfies HistoryState, '');
    show(url, 'push').catch(() => location.assign(url.href));
  });

  window.addEventListener('popstate', (event) => {
    const url = new URL(location.href);
    const state = event.state as HistoryState | null;
    // A popstate within one page (a #hash the browser scrolled to) needs no swap.
    if (document.body.dataset.path === url.pathname) return;
    show(url, 'pop', state?.scrollY ?? 0).catch(() => location.reload());
  });

  // Prefetch on intent: a hover or a touch usually comes 100 ms or more before the click.
  const prefetch = (event: Event) => {
    const link = linkOf(event);
    const url = link && inPlaceTarget(plainClick, link, new URL(location.href));
    if (url && url.pathname !== location.pathname) void load(url.pathname).catch(() => {});
  };
  document.addEventListener('pointerover', prefetch, { passive: true });
  document.addEventListener('touchstart', prefetch, { passive: true });
}

function swapHead(next: Document): void {
  document.title = next.title;
  document.head.querySelectorAll(pageMetadata).forEach((element) => element.remove());
  const anchor = document.head.querySelector('style[data-href]');
  for (const element of next.head.querySelectorAll(pageMetadata)) {
    document.head.insertBefore(document.importNode(element, true), anchor);
  }
}

/** Replaces everything in <body> but the announcer, which must outlive pages to be heard. */
function swapBody(next: Document, announcer: HTMLElement, path: string): void {
  for (const child of [...document.body.childNodes]) if (child !== announcer) child.remove();
  document.body.dataset.path = path;
  // The variants the new page shows (an experiment's words), which its view and clicks report.
  if (next.body.dataset.variants) document.body.dataset.variants = next.body.dataset.variants;
  else delete document.body.dataset.variants;
  const fragment = document.createDocumentFragment();
  for (const child of [...next.body.childNodes]) fragment.append(document.importNode(child, true));
  document.body.insertBefore(fragment, announcer);
}

function createAnnouncer(): HTMLElement {
  const announcer = document.createElement('p');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('aria-live', 'assertive');
  announcer.setAttribute('aria-atomic', 'true');
  announcer.dataset.routeAnnouncer = '';
  document.body.append(announcer);
  document.body.dataset.path = location.pathname;
  return announcer;
}

/** Moves focus to the new page's main heading (or the section a link pointed at), without scrolling. */
function focusHeading(target: HTMLElement | null): void {
  const heading = (target?.querySelector('h1, h2, h3') ?? document.querySelector('main h1')) as HTMLElement | null;
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}
