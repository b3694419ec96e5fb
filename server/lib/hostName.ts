/** DNS-style labels (letters, digits, inner hyphens) joined by dots: what HOST and a referrer host may be. */
const labels = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

export function isHostName(value: string): boolean {
  return labels.test(value);
}
