/**
 * Sends one leave report per page view (shared/leaveBeacon.ts): how far down the page the visitor got, which
 * affiliate placements they saw and how long they read, at the first of the page hidden (a tab switched or
 * closed: visibilitychange, pagehide) or left by in-place navigation. Nothing is stored in the browser.
 * It only observes: one IntersectionObserver (every browser since 2019; without it nothing is sent),
 * passive input listeners that keep a timestamp, and one timer per placement while half of it is in view.
 * Engaged time needs no timer: it is added up at each change of activity or visibility (engagedAfter).
 * The listeners go with an AbortSignal once the report is sent (Chrome 90, Firefox 86, Safari 15; older
 * browsers keep them, harmlessly: a report is sent once).
 */
import { leaveBeaconLimits, reachAttribute, type LeaveBeaconBody } from '../shared/leaveBeacon';
import { followedLink } from './followedLink';

const { seenShare, seenMs, idleAfterMs, maxEngagedSeconds } = leaveBeaconLimits;

/** Engaged time as state: what was counted up to `at`, whether the page is visible, and the visitor's last activity. */
export interface Engagement {
  ms: number;
  at: number;
  visible: boolean;
  activeAt: number;
}

/** The engaged time up to `now`: visible time, each stretch ending idleAfterMs after the last activity. */
export function engagedAfter(state: Engagement, now: number): Engagement {
  const until = Math.min(now, state.activeAt + idleAfterMs);
  return { ...state, ms: state.ms + (state.visible ? Math.max(0, until - state.at) : 0), at: now };
}

/** The whole seconds the report carries. */
export const engagedSeconds = (state: Engagement) => Math.min(maxEngagedSeconds, Math.floor(state.ms / 1000));

/** A placement's viewability: seen once it was in view (half of it, page visible) for seenMs without a break; `since` is when this stretch began. */
export interface Viewing {
  seen: boolean;
  since?: number;
}

export function viewingAt(state: Viewing, now: number, inView: boolean): Viewing {
  if (state.seen) return state;
  if (!inView) return { seen: false };
  const since = state.since ?? now;
  return now - since >= seenMs ? { seen: true } : { seen: false, since };
}

/** Starts the report of the page in view; the returned function sends it now (on leaving in place), unless it went already. */
export function startLeaveReport(endpoint: string): () => void {
  const page = location.pathname;
  const variants = document.body.dataset.variants ?? '';
  const now = () => performance.now();
  const visible = () => document.visibilityState === 'visible';
  const sections = new Set<string>();
  const clicked = new Set<string>();
  const placements = new Map<Element, { viewing: Viewing; half: boolean; timer?: ReturnType<typeof setTimeout> }>();
  const stop = new AbortController();
  const listen = { passive: true, signal: stop.signal };
  let engagement: Engagement = { ms: 0, at: now(), visible: visible(), activeAt: now() };
  const active = () => {
    engagement = { ...engagedAfter(engagement, now()), activeAt: now() };
  };

  /** A placement's viewing brought up to now, its timer set to the moment it would count as seen. */
  const update = (element: Element) => {
    const placement = placements.get(element)!;
    placement.viewing = viewingAt(placement.viewing, now(), placement.half && visible());
    clearTimeout(placement.timer);
    const { since } = placement.viewing;
    if (since !== undefined) placement.timer = setTimeout(() => update(element), since + seenMs - now());
  };

  const observer = new IntersectionObserver(
    (entries) => {
      active();
      for (const { target, isIntersecting, intersectionRatio } of entries) {
        const section = target.getAttribute(reachAttribute);
        if (section !== null) {
          if (isIntersecting) sections.add(section);
        } else {
          placements.get(target)!.half = isIntersecting && intersectionRatio >= seenShare;
          update(target);
        }
      }
    },
    { threshold: [0, seenShare] },
  );
  for (const element of document.querySelectorAll(`[${reachAttribute}]`)) observer.observe(element);
  for (const element of document.querySelectorAll('[data-placement]')) {
    placements.set(element, { viewing: { seen: false }, half: false });
    observer.observe(element);
  }

  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    stop.abort();
    observer.disconnect();
    engagement = engagedAfter(engagement, now());
    const seen = new Set<string>();
    for (const [element, placement] of placements) {
      clearTimeout(placement.timer);
      // The page was visible until this moment (hidden sends at once), so a placement in view counts up to now.
      if (viewingAt(placement.viewing, now(), placement.half).seen) seen.add(element.getAttribute('data-placement')!);
    }
    // A followed link was seen, however briefly: a click under a second in view still counts as seen.
    for (const placement of clicked) seen.add(placement);
    const body: LeaveBeaconBody = { page, variants, sections: [...sections], seen: [...seen], clicked: [...clicked], engagedSeconds: engagedSeconds(engagement) };
    navigator.sendBeacon?.(endpoint, JSON.stringify(body));
  };

  for (const input of ['pointerdown', 'keydown', 'wheel', 'touchstart']) addEventListener(input, active, listen);
  // A followed affiliate link, as the click report counts it.
  const follow = (event: MouseEvent) => {
    const link = followedLink(event);
    if (link) clicked.add(link.dataset.placement!);
  };
  for (const input of ['click', 'auxclick'] as const) addEventListener(input, follow, { ...listen, capture: true });
  document.addEventListener(
    'visibilitychange',
    () => {
      if (!visible()) return send();
      // Coming back to the tab is the visitor's doing: it counts as activity.
      engagement = { ...engagedAfter(engagement, now()), visible: true, activeAt: now() };
      placements.forEach((_placement, element) => update(element));
    },
    listen,
  );
  addEventListener('pagehide', send, listen);
  return send;
}

/** The reports of the pages this document shows: `send` the one in view (before an in-place swap), `start` the next (after it). */
export interface LeaveReports {
  send(): void;
  start(): void;
}

/** Starts the first page's report at once, or for a prerendered page once the visitor goes to it. */
export function startLeaveReporting(endpoint: string): LeaveReports {
  let send = () => {};
  const start = () => {
    if (typeof IntersectionObserver === 'function') send = startLeaveReport(endpoint);
  };
  if ((document as Document & { prerendering?: boolean }).prerendering) document.addEventListener('prerenderingchange', start, { once: true });
  else start();
  return { send: () => send(), start };
}
