/**
 * A Retry-After header's wait in milliseconds from now (RFC 9110 10.2.3): delay-seconds, or an HTTP date;
 * undefined when it can be read as neither. A date in the past waits nothing.
 */
export function retryAfterMs(header: string, now: number): number | undefined {
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/[a-z]/i.test(value)) return undefined;
  return Math.max(0, at - now);
}
