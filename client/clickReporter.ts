/**
 * Reports each followed affiliate link to the server with one delegated listener. sendBeacon queues
 * the report and returns at once, and the browser delivers it even as the page goes away, so the
 * navigation is never delayed. (sendBeacon: every browser since 2018; where it is missing or refuses,
 * the link's own `ping` attribute reports the click instead.)
 */
import type { ClickBeaconBody } from '../shared/clickBeacon';

/** Long host names are dropped rather than cut, so a report always fits the server's size limit. */
const maxReferrerLength = 100;

function referrerHost(): string {
  try {
    const host = document.referrer ? new URL(document.referrer).host : '';
    return host.length <= maxReferrerLength ? host : '';
  } catch {
    return '';
  }
}

export function startClickReporting(endpoint: string): void {
  const report = (event: MouseEvent) => {
    // auxclick: a middle click opens the link in a new tab, and is a click on it all the same.
    if (event.type === 'auxclick' && event.button !== 1) return;
    const link = event.target instanceof Element ? event.target.closest('a[data-placement]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const body: ClickBeaconBody = { placement: link.dataset.placement ?? '', page: location.pathname, referrer: referrerHost() };
    // The ping would report the same click a second time: drop it once the beacon is queued. The
    // browser reads `ping` only after this listener, when it follows the link.
    if (navigator.sendBeacon?.(endpoint, JSON.stringify(body))) link.removeAttribute('ping');
  };
  // Capture phase: no other handler can stop the report by stopping propagation.
  document.addEventListener('click', report, { capture: true });
  document.addEventListener('auxclick', report, { capture: true });
}
