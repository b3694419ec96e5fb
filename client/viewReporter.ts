/**
 * Reports page views: the landing view once the page has loaded, and one after each in-place navigation. Each carries
 * the landing's source, medium, campaign and content (the ad), which live in this page's memory only (no cookie, no
 * storage), so a view after in-place navigation is still credited to what brought the visitor.
 * (sendBeacon: every browser since 2018; where it is missing or refuses, the view goes uncounted,
 * which costs a figure, never the page.)
 */
import type { LandingFacts } from '../shared/trafficSource';
import type { ViewBeaconBody } from '../shared/viewBeacon';
import { onLoad } from './islands/conditions/onLoad';

/** Sends the landing view and returns what reports each later view (with no referrer: it came from this site). */
export function startViewReporting(endpoint: string, landing: LandingFacts): () => void {
  const send = (referrer: string) => {
    const body: ViewBeaconBody = {
      page: location.pathname,
      referrer,
      source: landing.source ?? '',
      medium: landing.medium,
      campaign: landing.campaign,
      content: landing.content,
      // The variants the page in view showed (server/experiments/), as its body says.
      variants: document.body.dataset.variants ?? '',
    };
    navigator.sendBeacon?.(endpoint, JSON.stringify(body));
  };
  // The landing view waits for the page to load and paint, so its request never competes with the
  // page's own (nor counts on a simulated critical path), unless the visitor leaves first.
  let landed = false;
  const sendLanding = () => {
    if (landed) return;
    landed = true;
    send(landing.referrerHost);
  };
  window.addEventListener('pagehide', sendLanding, { once: true });
  // A page the browser prerenders (speculation rules; Chromium 108+, elsewhere never true) is not viewed
  // until the visitor goes to it, if ever: report it then.
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', () => void onLoad().then(sendLanding), { once: true });
  } else {
    void onLoad().then(sendLanding);
  }
  return () => send('');
}
