import type { ReactNode } from 'react';
import { affiliateHref, placementCodes, type AffiliatePlacement } from '../affiliate';
import { clickPingUrl } from '../clickBeacon';
import { site } from '../content/site';
import { formatShown, variantSubId } from '../experiments/experiment';
import { usePageContext } from '../pageContext';

export interface AffiliateLinkProps {
  placement: AffiliatePlacement;
  className?: string;
  children: ReactNode;
}

/**
 * A link to the affiliate registration address: a real <a href> that works without JavaScript,
 * opening in a new tab (and saying so to screen readers), marked sponsored as search engines ask of paid links.
 * With click counting on, the browser reports the click by `ping` (client/clickReporter.ts sends a
 * beacon instead when JavaScript runs); the href itself stays the partner's own address. On a page that
 * shows an experiment's variants, the sub-ID and the ping name them too, so a click and a sale without
 * JavaScript are credited to the words the visitor saw.
 */
export function AffiliateLink({ placement, className, children }: AffiliateLinkProps) {
  const { siteUrl, affiliateUrl, affiliateSubIdParam, clickCounting, shown = [] } = usePageContext();
  const subId = shown.length > 0 ? variantSubId(placementCodes[placement], shown) : placement;
  // Absolute on SITE_URL's origin: the HTML standard allows only absolute http(s) URLs in `ping`. Visitors
  // read the page at SITE_URL, so the ping stays same-origin, as the click route's cross-site check wants.
  const ping = clickCounting ? new URL(clickPingUrl(clickCounting.endpoint, placement, undefined, formatShown(shown)), siteUrl).href : undefined;
  return (
    <a
      className={className}
      href={affiliateHref(affiliateUrl, subId, affiliateSubIdParam)}
      target="_blank"
      rel="sponsored noopener"
      data-placement={placement}
      ping={ping}
    >
      {children}
      <span className="visually-hidden"> {site.newTabNote}</span>
    </a>
  );
}
