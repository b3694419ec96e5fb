/**
 * The click beacon's wire format: what the browser sends when a visitor follows an affiliate link, shared by the
 * client (client/clickReporter.ts) and the server (server/clicks/clickRoute.ts).
 */
export const clickEndpoint = '/api/clicks';

export const clickBeaconLimits = {
  /**
   * A report is several hundred bytes at most (a source, campaign, content and referrer of 100 each, and
   * the variants of up to four experiments, 171 at most); anything bigger is not one.
   */
  maxBytes: 1024,
};

export interface ClickBeaconBody {
  placement: string;
  /** The page's path, one of the site's routes. */
  page: string;
  /** Host name of the page the visitor came from (document.referrer), or '' when none. */
  referrer: string;
  /** The click ID the link's sub-ID now carries (shared/affiliate.ts); absent when no sub-ID parameter is set. */
  clickId?: string;
  /** What brought the visitor (shared/trafficSource.ts); '' when not known. */
  source?: string;
  /** utm_campaign and utm_content (the ad) of the visit's landing address; absent or '' when it had none. */
  campaign?: string;
  content?: string;
  /** The variants the page showed (shared/experiments/experiment.ts, formatShown); absent or '' outside every experiment. */
  variants?: string;
}

/**
 * The ping URL for a placement: the fallback report when JavaScript is off, or when it runs but
 * sendBeacon does not, in which case the click ID rides along too.
 */
export function clickPingUrl(endpoint: string, placement: string, clickId?: string, variants?: string): string {
  const click = clickId ? `&click=${encodeURIComponent(clickId)}` : '';
  return `${endpoint}?placement=${encodeURIComponent(placement)}${click}${variants ? `&variants=${encodeURIComponent(variants)}` : ''}`;
}
