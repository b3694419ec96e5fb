import { ConfigError } from '../configError';
import { isLoopbackHost } from './hostName';

/**
 * The rule for an address the server itself sends to or reads from (ALERT_WEBHOOK_URL, MERCHANT_URL):
 * https://, or http:// only on the loopback (127.0.0.0/8, ::1, localhost), where nobody on the way can
 * read or change what passes. `show` gives the value as a message may repeat it (a webhook's path is a
 * secret). Throws a ConfigError naming the variable; returns the parsed URL.
 */
export function parseHttpsOrLoopbackUrl(name: string, value: string, show: (value: string) => string = (shown) => shown): URL {
  const what = `${name} must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost)`;
  if (!URL.canParse(value)) throw new ConfigError(`${what}; the value given cannot be read as a URL`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigError(`${what}, got "${show(value)}"`);
  }
  return url;
}
