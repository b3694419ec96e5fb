import type { Evidence } from '../../../shared/content/claimTypes';
import { checkEvidence } from '../../../server/claims/evidence';
import { readClaimNumber } from '../../../server/claims/claimNumber';
import { captureGroups, normalText } from '../../../server/claims/normalText';

const phrase = (text: string, selector?: string): Evidence => ({ kind: 'phrase', page: '/', phrase: text, example: '', ...(selector ? { selector } : {}) });
const refundDays: Evidence = { kind: 'number', page: '/', pattern: /(\d+)-day (?:money-back guarantee|refund)/, compare: '=', example: '' };
const auctionCount: Evidence = { kind: 'number', page: '/', pattern: /over (\d[\d,]*)\+? auctions/, compare: '≥', example: '' };
const fee: Evidence = { kind: 'number', page: '/', pattern: /fee of (\$\d[\d,.]*)/, compare: '≤', example: '' };
const price: Evidence = { kind: 'jsonLd', page: '/', field: 'Offer.price', compare: '=', example: '' };
const returnDays: Evidence = { kind: 'jsonLd', page: '/', field: 'MerchantReturnPolicy.merchantReturnDays', compare: '=', example: '' };
const jsonLd = (data: unknown) => `<html><head><script type="application/ld+json">${JSON.stringify(data)}</script></head><body><p>Shop</p></body></html>`;

describe('normalText', () => {
  it.each([
    ['NFKC: ligatures, full-width letters, a no-break space', 'ﬁve ＤＡＹＳ\u00a0left', 'five DAYS left'],
    ['typographic quotes and dashes as plain ones', 'members’ area — “lifetime”', 'members\' area - "lifetime"'],
    ['soft hyphens and zero-width spaces dropped', 'refund\u00adable\u200b window', 'refundable window'],
    ['every run of whitespace one space, ends trimmed', '  60-day\n\t refund  ', '60-day refund'],
  ])('%s', (_, text, expected) => {
    expect(normalText(text)).toBe(expected);
  });
});

describe('readClaimNumber', () => {
  it.each([
    ['60', 60], ['3,500', 3500], ['3500+', 3500], ['$1,000', 1000], ['$100', 100], ['49.0', 49], ['49.00', 49], ['90%', 90], [49, 49],
    ['1,00', undefined], ['3.000.000', undefined], ['sixty', undefined], ['', undefined], [null, undefined], [Number.NaN, undefined],
  ])('reads %j as %j', (written, expected) => {
    expect(readClaimNumber(written)).toBe(expected);
  });
});

describe('checkEvidence with a phrase', () => {
  it.each([
    ['the same words', '<p>One-time payment, lifetime access.</p>', 'lifetime access', 'verified'],
    ['in another case', '<p>LIFETIME ACCESS for members</p>', 'Lifetime Access', 'verified'],
    ['full-width letters (NFKC)', '<p>ｌｉｆｅｔｉｍｅ ａｃｃｅｓｓ</p>', 'lifetime access', 'verified'],
    ['across a line break and an entity', '<p>lifetime\n   &nbsp;access</p>', 'lifetime access', 'verified'],
    ['across inline elements', '<p>one-<b>time</b> <em>payment</em></p>', 'one-time payment', 'verified'],
    ['with a non-breaking hyphen', '<p>one\u2011time payment</p>', 'one-time payment', 'verified'],
    ['Kelvin sign and final sigma fold (Unicode case folding)', '<p>\u212Aey ΟΔΟΣ</p>', 'key οδος', 'verified'],
    ['not joined across two blocks', '<p>lifetime</p><p>access</p>', 'lifetimeaccess', 'missing'],
    ['not inside a longer word', '<p>a lifetime accessory</p>', 'lifetime access', 'missing'],
    ['not in a script', '<p>Shop</p><script>var s = "lifetime access";</script>', 'lifetime access', 'missing'],
    ['absent', '<p>Monthly plan, cancel any time.</p>', 'lifetime access', 'missing'],
  ])('%s', (_, html, words, verdict) => {
    expect(checkEvidence(html, phrase(words)).verdict).toBe(verdict);
  });

  it('gives the words around the match, cut at word boundaries', () => {
    const html = `<p>${'Filler words here. '.repeat(10)}Every plan: lifetime access to the members’ area. ${'More filler follows. '.repeat(10)}</p>`;
    expect(checkEvidence(html, phrase('lifetime access'))).toEqual({
      verdict: 'verified',
      excerpt: '…here. Filler words here. Filler words here. Filler words here. Every plan: lifetime access to the members\' area. More filler follows. More filler follows. More filler…',
    });
  });

  it('looks only inside its selector', () => {
    const html = '<header>Lifetime access</header><footer><p>Terms</p></footer>';
    expect(checkEvidence(html, phrase('lifetime access', 'header'))).toEqual({ verdict: 'verified', excerpt: 'Lifetime access' });
    expect(checkEvidence(html, phrase('lifetime access', 'footer'))).toEqual({ verdict: 'missing' });
  });

  it.each(['#offer', 'main .plans', 'p:has(> b.price)', '!!not a selector'])('says the page changed shape when %s matches nothing', (selector) => {
    expect(checkEvidence('<header><p>Lifetime access</p></header>', phrase('lifetime access', selector))).toEqual({ verdict: 'shapeChanged', selector });
  });
});

describe('checkEvidence with a number in the text', () => {
  it.each([
    ['the same figure', refundDays, '<p>A 60-day money-back guarantee.</p>', 60, { verdict: 'verified', excerpt: 'A 60-day money-back guarantee.' }],
    ['another figure', refundDays, '<p>A 30-day money-back guarantee.</p>', 60, { verdict: 'contradicted', excerpt: 'A 30-day money-back guarantee.', found: 30 }],
    ['a longer figure that ends the same', refundDays, '<p>A 160-day refund.</p>', 60, { verdict: 'contradicted', excerpt: 'A 160-day refund.', found: 160 }],
    ['two figures, one of them another', refundDays, '<p>60-day refund on the plan.</p><p>30-day refund on the add-ons.</p>', 60, { verdict: 'contradicted', excerpt: '60-day refund on the plan. 30-day refund on the add-ons.', found: 30 }],
    ['the phrase without any figure', refundDays, '<p>Refunds are at our discretion.</p>', 60, { verdict: 'missing' }],
    ['over 3,500 proves over 3,000', auctionCount, '<p>Over 3,500 auctions</p>', 3000, { verdict: 'verified', excerpt: 'Over 3,500 auctions' }],
    ['over 3,000+ proves over 3,000', auctionCount, '<p>over 3,000+ auctions</p>', 3000, { verdict: 'verified', excerpt: 'over 3,000+ auctions' }],
    ['over 2,500 does not', auctionCount, '<p>Over 2,500 auctions</p>', 3000, { verdict: 'contradicted', excerpt: 'Over 2,500 auctions', found: 2500 }],
    ['a dollar amount at most the claim', fee, '<p>A fee of $49.50 a year</p>', 100, { verdict: 'verified', excerpt: 'A fee of $49.50 a year' }],
    ['a dollar amount over it', fee, '<p>A fee of $1,250 a year</p>', 100, { verdict: 'contradicted', excerpt: 'A fee of $1,250 a year', found: 1250 }],
  ] as const)('%s', (_, evidence, html, claimed, outcome) => {
    expect(checkEvidence(html, evidence, claimed)).toEqual(outcome);
  });

  it('says the page changed shape when its selector matches nothing', () => {
    expect(checkEvidence('<p>60-day refund</p>', { ...refundDays, selector: '#guarantee' }, 60)).toEqual({ verdict: 'shapeChanged', selector: '#guarantee' });
  });

  it('needs the claim figure', () => {
    expect(() => checkEvidence('<p>60-day refund</p>', refundDays)).toThrow("A number evidence item needs the claim's figure to compare with");
  });

  it.each([[/(\d+)-day/, 1], [/(\d+)-(day|week)/, 2], [/(?:over) (\d+)/, 1], [/\d+/, 0]])('counts the capturing groups of %s', (pattern, groups) => {
    expect(captureGroups(pattern)).toBe(groups);
  });
});

describe('checkEvidence with a JSON-LD field', () => {
  const offer = (value: unknown) => ({ '@type': 'Offer', price: value, priceCurrency: 'USD' });
  it.each([
    ['a number', jsonLd({ '@context': 'https://schema.org', ...offer(49) }), 'verified'],
    ['"49.0" equals 49', jsonLd(offer('49.0')), 'verified'],
    ['"49.00" equals 49', jsonLd(offer('49.00')), 'verified'],
    ['inside @graph', jsonLd({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage' }, offer(49)] }), 'verified'],
    ['in an array of offers inside a product', jsonLd([{ '@type': 'Product', offers: [offer(49), offer('49')] }]), 'verified'],
    ['under a prefixed and a listed type', jsonLd({ '@type': ['Thing', 'schema:Offer'], price: { '@value': '49' } }), 'verified'],
    ['another price', jsonLd({ '@type': 'Product', offers: [offer(49), offer('59.0')] }), 'contradicted'],
    ['no such type', jsonLd({ '@type': 'Product', name: 'Membership' }), 'missing'],
    ['no such field', jsonLd({ '@type': 'Offer', priceCurrency: 'USD' }), 'missing'],
    ['a price that is not a number', jsonLd(offer('call us')), 'missing'],
    ['no JSON-LD at all', '<p>$49</p>', 'missing'],
    ['a script that is not JSON', '<script type="application/ld+json">{ price: 49 </script>', 'missing'],
  ])('%s', (_, html, verdict) => {
    expect(checkEvidence(html, price, 49).verdict).toBe(verdict);
  });

  it('follows a property path below the type', () => {
    const page = jsonLd({ '@type': 'Product', offers: { '@type': 'Offer', price: 49 } });
    expect(checkEvidence(page, { ...price, field: 'Product.offers.price' }, 49).verdict).toBe('verified');
  });

  it('contradicts 60 with merchantReturnDays 30, showing the node it read', () => {
    const page = jsonLd({ '@context': 'https://schema.org', '@graph': [{ '@type': 'MerchantReturnPolicy', merchantReturnDays: 30 }] });
    expect(checkEvidence(page, returnDays, 60)).toEqual({
      verdict: 'contradicted',
      found: 30,
      excerpt: 'MerchantReturnPolicy.merchantReturnDays = 30 in {"@type":"MerchantReturnPolicy","merchantReturnDays":30}',
    });
  });
});
