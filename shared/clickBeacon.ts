/**
 * The click beacon's wire format: what the browser sends when a visitor follows an affiliate link, shared by the
 * client (client/clickReporter.ts) and the server (server/clicks/clickRoute.ts).
 */
export const clickEndpoint = '/api/clicks';

export const clickBeaconLimits = {
  /** A report is a few dozen bytes; anything bigger is not one. */
  maxBytes: 256,
};

export interface ClickBeaconBody {
  placement: string;
  /** The page's path, one of the site's routes. */
  page: string;
  /** Host name of the page the visitor came from (document.referrer), or '' when none. */
  referrer: string;
}

/** The ping URL for a placement: the fallback report when JavaScript is off. */
export function clickPingUrl(endpoint: string, placement: string): string {
  return `${endpoint}?placement=${encodeURIComponent(placement)}`;
}
