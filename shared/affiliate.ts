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
 * The address a link follows without JavaScript: the configured address, plus PARAM=subId (the
 * placement's name, or in an experiment shared/experiments/experiment.ts's variantSubId) when a sub-id
 * parameter is configured. The configured query string is kept; an existing PARAM is replaced.
 */
export function affiliateHref(affiliateUrl: string, subId: string, subIdParam?: string): string {
  if (!subIdParam) return affiliateUrl;
  const url = new URL(affiliateUrl);
  url.searchParams.set(subIdParam, subId);
  return url.href;
}

/**
 * A click ID in the sub-ID: two letters naming the placement, then 20 random characters of base32
 * (a–z, 2–7), 22 in all. Letters and digits only, at most 24, read without case: the strictest rule of
 * the networks the README lists (ClickBank's tid drops anything else and upper-cases the rest). The
 * placement code keeps a conversion credited to its button even when the click's own report was lost.
 */
export const placementCodes: Readonly<Record<AffiliatePlacement, string>> = {
  hero: 'he',
  explainer: 'ex',
  'start-learning': 'sl',
  'check-auctions-image': 'ci',
  'check-auctions-button': 'cb',
  bonus: 'bo',
};

const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
const clickIdRandomLength = 20;
const clickSubIdPattern = /^([a-z]{2})([a-z2-7]{20})$/;

/** A fresh click ID for a placement: 100 random bits after its code (crypto.getRandomValues, in browsers and Node). */
export function newClickId(placement: AffiliatePlacement): string {
  const bytes = crypto.getRandomValues(new Uint8Array(clickIdRandomLength));
  let id = placementCodes[placement];
  for (const byte of bytes) id += base32[byte & 31];
  return id;
}

/** What a sub-ID sent back says: a click ID (lower-cased, as stored) and its placement, or undefined when it is not one. */
export function readClickId(subid: string): { clickId: string; placement: AffiliatePlacement } | undefined {
  const match = clickSubIdPattern.exec(subid.toLowerCase());
  if (!match) return undefined;
  const placement = affiliatePlacements.find((name) => placementCodes[name] === match[1]);
  return placement ? { clickId: match[0], placement } : undefined;
}

/** The affiliate address with PARAM set to a click ID: the rest of the query as it was. */
export function withClickId(href: string, subIdParam: string, clickId: string): string {
  const url = new URL(href);
  url.searchParams.set(subIdParam, clickId);
  return url.href;
}
