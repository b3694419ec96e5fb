/**
 * What brought a visitor, worked out once on the landing page and kept in the page's memory (never
 * stored in the browser): the landing address's utm_source, else the referring site's host, else
 * 'direct'. A landing whose referrer is this very site (a full page load from one of its own pages)
 * has no source of its own: null, shown as not known.
 */
export const directSource = 'direct';

/**
 * utm values and host names longer than this are dropped rather than cut, so a report always fits its
 * size limit. Counted in UTF-8 bytes on the client (100 bytes are at most 100 characters, which is what
 * the server checks), so values in any script fit too.
 */
export const maxCampaignValueLength = 100;

const fits = (value: string) => new TextEncoder().encode(value).length <= maxCampaignValueLength;

export interface Landing {
  /** The landing page's query string, as location.search gives it. */
  search: string;
  /** document.referrer: '' when none. */
  referrer: string;
  /** location.host. */
  ownHost: string;
}

export interface LandingFacts {
  source: string | null;
  /** The referring site's host; '' when none or this site. */
  referrerHost: string;
  medium: string;
  campaign: string;
  /** utm_content: the ad or creative. */
  content: string;
}

const campaignValue = (query: URLSearchParams, name: string) => {
  const value = (query.get(name) ?? '').trim();
  return fits(value) && !controlCharacters.test(value) ? value : '';
};

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

export function landingFacts({ search, referrer, ownHost }: Landing): LandingFacts {
  const query = new URLSearchParams(search);
  let host = '';
  try {
    host = referrer ? new URL(referrer).host.toLowerCase() : '';
  } catch {
    host = '';
  }
  const fromHere = host !== '' && host === ownHost.toLowerCase();
  // An IPv6 literal ([2001:db8::1]) is no site's name, and the server accepts host names only.
  const referrerHost = fromHere || !fits(host) || host.startsWith('[') ? '' : host;
  const utmSource = campaignValue(query, 'utm_source');
  const source = utmSource || referrerHost || (fromHere ? null : directSource);
  return {
    source,
    referrerHost,
    medium: campaignValue(query, 'utm_medium'),
    campaign: campaignValue(query, 'utm_campaign'),
    content: campaignValue(query, 'utm_content'),
  };
}

/** A source, medium, campaign or content as a report may carry it: at most 100 characters, none of them control characters. */
export function isCampaignValue(value: unknown): value is string {
  return typeof value === 'string' && value.length <= maxCampaignValueLength && !controlCharacters.test(value);
}
