import { parseRobotsTxt } from '../../../server/fetching/robotsTxt';
import { retryAfterMs } from '../../../server/fetching/retryAfter';

describe('parseRobotsTxt (RFC 9309)', () => {
  it('applies the group naming the product token, case-insensitively, rather than the * group', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /\n\nUser-agent: auctionsguidebot\nDisallow: /private\n', 'AuctionsGuideBot');
    expect(rules.allows('/refund-policy')).toBe(true);
    expect(rules.allows('/private/x')).toBe(false);
  });

  it('falls back to the * group, and allows everything without one', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\n', 'AuctionsGuideBot').allows('/')).toBe(false);
    expect(parseRobotsTxt('User-agent: OtherBot\nDisallow: /\n', 'AuctionsGuideBot').allows('/')).toBe(true);
    expect(parseRobotsTxt('', 'AuctionsGuideBot').allows('/')).toBe(true);
  });

  it('lets the longest matching rule win, and allow win a tie', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /shop\nAllow: /shop/refund\nAllow: /page\nDisallow: /page\n', 'Bot');
    expect(rules.allows('/shop/cart')).toBe(false);
    expect(rules.allows('/shop/refund-policy')).toBe(true);
    expect(rules.allows('/page')).toBe(true);
  });

  it('reads * as any characters and a final $ as the end, and an empty Disallow as no rule', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /*.pdf$\nDisallow:\n', 'Bot');
    expect(rules.allows('/terms.pdf')).toBe(false);
    expect(rules.allows('/terms.pdf.html')).toBe(true);
    expect(rules.allows('/')).toBe(true);
  });

  it('joins consecutive user-agent lines into one group and ignores comments and other lines', () => {
    const rules = parseRobotsTxt('User-agent: a\nUser-agent: bot # us\nSitemap: /s.xml\nDisallow: /x\n', 'Bot');
    expect(rules.allows('/x')).toBe(false);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
  });
});
