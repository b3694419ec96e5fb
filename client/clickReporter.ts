/**
 * Reports each followed affiliate link to the server with one delegated listener. sendBeacon queues
 * the report and returns at once, and the browser delivers it even as the page goes away, so the
 * navigation is never delayed. (sendBeacon: every browser since 2018; where it is missing or refuses,
 * the link's own `ping` attribute reports the click instead: Chromium and Safari send pings, Firefox
 * does not by default.)
 */
import { newClickId, withClickId, type AffiliatePlacement } from '../shared/affiliate';
import { clickPingUrl, type ClickBeaconBody } from '../shared/clickBeacon';
import { followedLink } from './followedLink';

export interface ClickReporting {
  /** AFFILIATE_SUBID_PARAM, or '' when there is none (or the visitor opts out): then no click ID is made. */
  subIdParam: string;
  /** The landing's referring host and what brought the visitor (shared/trafficSource.ts); '' when none or not known. */
  referrer: string;
  source: string;
  /** The landing's utm_campaign and utm_content (the ad); '' when none. */
  campaign: string;
  content: string;
}

export function startClickReporting(endpoint: string, { subIdParam, referrer, source, campaign, content }: ClickReporting): void {
  const report = (event: MouseEvent) => {
    const link = followedLink(event);
    if (!link) return;
    const placement = link.dataset.placement ?? '';
    // The variants this page showed (server/experiments/): what the click is credited to, whatever a cache served.
    const variants = document.body.dataset.variants ?? '';
    const body: ClickBeaconBody = { placement, page: location.pathname, referrer, source, campaign, content, variants };
    if (subIdParam) {
      // A fresh click ID in the sub-ID, so the network's report of a sale names this very click. The
      // browser reads href (and ping) only after this listener, when it follows the link; the server's
      // link keeps PARAM=<placement> for visitors without JavaScript.
      body.clickId = newClickId(placement as AffiliatePlacement);
      link.href = withClickId(link.href, subIdParam, body.clickId);
    }
    // The ping would report the same click a second time: drop it once the beacon is queued. Without a
    // beacon the ping reports it, and carries the click ID too.
    if (navigator.sendBeacon?.(endpoint, JSON.stringify(body))) link.removeAttribute('ping');
    else if (body.clickId) link.setAttribute('ping', clickPingUrl(endpoint, placement, body.clickId, variants));
  };
  // Capture phase: no other handler can stop the report by stopping propagation.
  document.addEventListener('click', report, { capture: true });
  document.addEventListener('auxclick', report, { capture: true });
}
