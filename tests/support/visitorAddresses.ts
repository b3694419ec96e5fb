/**
 * A different private address for each call, so load tests and the bench can send every click report
 * from its own visitor (through X-Forwarded-For) rather than hit one visitor's rate limit.
 */
export function visitorAddresses(): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `10.${(next >> 16) & 255}.${(next >> 8) & 255}.${next & 255}`;
  };
}
