import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address: zone dropped, `::` filled with zeros, a dotted IPv4 tail read as two groups. */
function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const headGroups = groupsOf(head);
  if (tail === undefined) return headGroups;
  const tailGroups = groupsOf(tail);
  return [...headGroups, ...Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

/**
 * Who a client is to a limit kept per address: an IPv4 address (also when written as IPv4-mapped IPv6,
 * `::ffff:a.b.c.d` or `::ffff:xxxx:xxxx`), or the /64 prefix of an IPv6 address, since one host or home
 * is normally given a whole /64 and could otherwise step through its addresses to escape the count.
 * Anything else (no address, or a forwarded value that is not one) is its own key.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}
