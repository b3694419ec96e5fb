import type { IncomingHttpHeaders } from 'node:http';

/** A coarse class of device, from the user agent: what a view and a click keep instead of the agent. */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop';

/**
 * Crawlers, link checkers, HTTP libraries and headless browsers. They are answered like anyone else
 * but not counted: a click count is only worth reading if it counts people.
 */
const botUserAgent =
  /\bbot\b|bot[/;)]|\+https?:|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|lighthouse|pagespeed|headless|phantomjs|puppeteer|playwright|selenium|curl\/|wget\/|httpie|python-|aiohttp|go-http-client|java\/|okhttp|axios\/|node-fetch|undici|libwww|scrapy|monitor|uptime|check/i;

export function isBot(userAgent: string): boolean {
  return userAgent.trim() === '' || botUserAgent.test(userAgent);
}

/** Speculative loads (Chromium's Sec-Purpose, older Purpose and Firefox's X-Moz): nobody clicked anything. */
export function isPrefetch(headers: IncomingHttpHeaders): boolean {
  const purposes = [headers['sec-purpose'], headers.purpose, headers['x-purpose'], headers['x-moz']].map((value) => String(value ?? '').toLowerCase());
  return purposes.some((value) => value.includes('prefetch') || value.includes('prerender') || value.includes('preview'));
}

/** Global Privacy Control, or the older Do Not Track: the visitor asked not to be counted, so they are not. */
export function optsOut(headers: IncomingHttpHeaders): boolean {
  return headers['sec-gpc'] === '1' || headers.dnt === '1';
}

/** A coarse device class from the user agent (and the Sec-CH-UA-Mobile hint when sent); the agent itself is never stored. */
export function deviceClass(userAgent: string, mobileHint?: string): DeviceClass {
  if (/ipad|tablet|playbook|silk|kindle|android(?!.*mobile)/i.test(userAgent)) return 'tablet';
  if (mobileHint === '?1' || /mobi|iphone|ipod|android|windows phone|opera mini/i.test(userAgent)) return 'mobile';
  return 'desktop';
}
