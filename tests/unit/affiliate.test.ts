import { affiliateHref, affiliatePlacements, newClickId, placementCodes, readClickId, withClickId } from '../../shared/affiliate';

/** The sub-ID rules the README lists: ClickBank's tid (letters and digits, at most 24) is the strictest. */
const portableSubId = /^[A-Za-z0-9]{1,24}$/;

describe('newClickId', () => {
  it.each(affiliatePlacements)('makes letters and digits only, at most 24, starting with the code of %s', (placement) => {
    const clickId = newClickId(placement);
    expect(clickId).toMatch(portableSubId);
    expect(clickId).toHaveLength(22);
    expect(clickId.startsWith(placementCodes[placement])).toBe(true);
  });

  it('makes a fresh ID every time', () => {
    const made = new Set(Array.from({ length: 1000 }, () => newClickId('hero')));
    expect(made.size).toBe(1000);
  });

  it('gives every placement a code of its own', () => {
    expect(new Set(Object.values(placementCodes)).size).toBe(affiliatePlacements.length);
  });
});

describe('readClickId', () => {
  it.each(affiliatePlacements)('reads back a click ID of %s, in lower case, and names its placement', (placement) => {
    const clickId = newClickId(placement);
    expect(readClickId(clickId)).toEqual({ clickId, placement });
  });

  it('reads a click ID sent back upper-cased, as ClickBank does with its tid', () => {
    const clickId = newClickId('bonus');
    expect(readClickId(clickId.toUpperCase())).toEqual({ clickId, placement: 'bonus' });
  });

  it.each([
    ['a placement name', 'hero'],
    ['an empty sub-ID', ''],
    ['an unknown placement code', `zz${'a'.repeat(20)}`],
    ['a character outside base32', `he${'a'.repeat(19)}1`],
    ['one character short', `he${'a'.repeat(19)}`],
    ['one character long', `he${'a'.repeat(21)}`],
    ['a hyphen', `he-${'a'.repeat(19)}`],
  ])('is undefined for %s', (_name, subid) => {
    expect(readClickId(subid)).toBeUndefined();
  });
});

describe('withClickId', () => {
  it('sets the sub-ID parameter to the click ID and keeps the rest of the query', () => {
    const clickId = newClickId('hero');
    const href = withClickId('https://partner.example.net/join?aff=guide&subid=hero&campaign=spring', 'subid', clickId);
    expect(href).toBe(`https://partner.example.net/join?aff=guide&subid=${clickId}&campaign=spring`);
  });

  it('adds the parameter when the address has none', () => {
    expect(withClickId('https://partner.example.net/join', 'tid', 'heabc')).toBe('https://partner.example.net/join?tid=heabc');
  });
});

describe('affiliateHref', () => {
  it('returns the configured address untouched when no sub-id parameter is set', () => {
    expect(affiliateHref('https://p.example.net/j?a=1', 'hero')).toBe('https://p.example.net/j?a=1');
  });

  it('replaces an existing value of the sub-id parameter', () => {
    expect(affiliateHref('https://p.example.net/j?sid=old&a=1', 'bonus', 'sid')).toBe('https://p.example.net/j?sid=bonus&a=1');
  });
});
