import { isIP } from 'node:net';

/** DNS-style labels (letters, digits, inner hyphens) joined by dots: what HOST and a referrer host may be. */
const labels = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

export function isHostName(value: string): boolean {
  return labels.test(value);
}

/** 127.0.0.0/8, ::1 and localhost: an http webhook is allowed only where nobody on the way can read it. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
