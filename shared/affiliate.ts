/**
 * The six places that link to the affiliate registration address. The names are stable: they appear
 * in the affiliate network's reports (AFFILIATE_SUBID_PARAM) and in the click counts.
 */
export const affiliatePlacements = [
  'hero',
  'explainer',
  'start-learning',
  'check-auctions-image',
  'check-auctions-button',
  'bonus',
] as const;

export type AffiliatePlacement = (typeof affiliatePlacements)[number];

/**
 * The address one placement links to: the configured address, plus PARAM=placement when a sub-id
 * parameter is configured. The configured query string is kept; an existing PARAM is replaced.
 */
export function affiliateHref(affiliateUrl: string, placement: AffiliatePlacement, subIdParam?: string): string {
  if (!subIdParam) return affiliateUrl;
  const url = new URL(affiliateUrl);
  url.searchParams.set(subIdParam, placement);
  return url.href;
}
