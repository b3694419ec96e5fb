import { PoliteFetcher, type PoliteFetcherOptions } from './politeFetcher';

/** The name robots.txt files may address this site's fetches by. */
export const productToken = 'AuctionsGuideBot';

/** The User-Agent of every fetch the server makes of another site: the product token and this site's address, so its operator can be found. */
export function siteUserAgent(siteUrl: string): string {
  return `${productToken}/1.0 (+${siteUrl})`;
}

/** The fetcher of a running site (or a script speaking for it), under the rules of politeFetcher.ts. */
export function createSiteFetcher(siteUrl: string, options: Omit<PoliteFetcherOptions, 'userAgent' | 'productToken'> = {}): PoliteFetcher {
  return new PoliteFetcher({ userAgent: siteUserAgent(siteUrl), productToken, ...options });
}
