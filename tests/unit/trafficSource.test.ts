import { directSource, isCampaignValue, landingFacts, maxCampaignValueLength } from '../../shared/trafficSource';

const ownHost = 'auctions.example.org';
const facts = (search: string, referrer = '') => landingFacts({ search, referrer, ownHost });

describe('landingFacts', () => {
  it('takes utm_source first, with utm_medium and utm_campaign, and keeps the referring host apart', () => {
    expect(facts('?utm_source=newsletter&utm_medium=email&utm_campaign=spring', 'https://mail.example.net/inbox?id=1')).toEqual({
      source: 'newsletter',
      referrerHost: 'mail.example.net',
      medium: 'email',
      campaign: 'spring',
      content: '',
    });
  });

  it('reads utm_content (the ad) under the same rules as utm_campaign', () => {
    expect(facts('?utm_source=google&utm_campaign=spring&utm_content=%20banner%20a%20')).toMatchObject({ campaign: 'spring', content: 'banner a' });
    expect(facts(`?utm_content=${'c'.repeat(maxCampaignValueLength + 1)}`).content).toBe('');
    expect(facts('?utm_content=ad%0A1').content).toBe('');
    expect(facts(`?utm_content=${encodeURIComponent('α'.repeat(51))}`).content).toBe('');
    expect(facts(`?utm_content=${'c'.repeat(maxCampaignValueLength)}`).content).toBe('c'.repeat(maxCampaignValueLength));
  });

  it('credits the referring host, lower-cased with its port, when there is no utm_source', () => {
    expect(facts('?utm_medium=cpc', 'https://WWW.Google.com:8443/search?q=auctions')).toEqual({ source: 'www.google.com:8443', referrerHost: 'www.google.com:8443', medium: 'cpc', campaign: '', content: '' });
  });

  it(`says "${directSource}" with neither a utm_source nor a referrer`, () => {
    expect(facts('')).toEqual({ source: directSource, referrerHost: '', medium: '', campaign: '', content: '' });
  });

  it('knows no source for a landing referred by this site itself (a full load from one of its pages), and no referrer', () => {
    expect(facts('', `https://${ownHost.toUpperCase()}/about-us`)).toEqual({ source: null, referrerHost: '', medium: '', campaign: '', content: '' });
    expect(facts('?utm_source=ad', `https://${ownHost}/`).source).toBe('ad');
  });

  it('reads values percent-decoded and trimmed, and treats blank ones as absent', () => {
    expect(facts('?utm_source=%20Spring%20News%20&utm_campaign=a+b&utm_medium=%20', 'https://x.example/')).toEqual({
      source: 'Spring News',
      referrerHost: 'x.example',
      medium: '',
      campaign: 'a b',
      content: '',
    });
  });

  it(`drops (never cuts) values over ${maxCampaignValueLength} characters and values with control characters`, () => {
    const long = 'a'.repeat(maxCampaignValueLength + 1);
    expect(facts(`?utm_source=${long}&utm_medium=e%0Amail&utm_campaign=${'b'.repeat(maxCampaignValueLength)}`)).toEqual({
      source: directSource,
      referrerHost: '',
      medium: '',
      campaign: 'b'.repeat(maxCampaignValueLength),
      content: '',
    });
    const longHost = `${'h'.repeat(95)}.example`;
    expect(facts('', `https://${longHost}/`)).toEqual({ source: directSource, referrerHost: '', medium: '', campaign: '', content: '' });
  });

  it(`counts the limit in UTF-8 bytes, so a value in any script fits the report`, () => {
    const greek = 'α'.repeat(51); // 102 bytes in 51 characters
    expect(facts(`?utm_source=${encodeURIComponent(greek)}&utm_campaign=${encodeURIComponent('α'.repeat(50))}`)).toMatchObject({ source: directSource, campaign: 'α'.repeat(50) });
  });

  it('keeps no referring host for an IPv6 address, which names no site', () => {
    expect(facts('', 'http://[2001:db8::1]:8080/page')).toEqual({ source: directSource, referrerHost: '', medium: '', campaign: '', content: '' });
  });

  it('ignores a referrer that is not a URL', () => {
    expect(facts('', 'not a url')).toEqual({ source: directSource, referrerHost: '', medium: '', campaign: '', content: '' });
  });
});

describe('isCampaignValue', () => {
  it.each(['', 'newsletter', 'Spring Sale 2026', 'a'.repeat(100), 'café'])('accepts %j', (value) => {
    expect(isCampaignValue(value)).toBe(true);
  });

  it.each([['101 characters', 'a'.repeat(101)], ['a newline', 'a\nb'], ['NUL', '\u0000'], ['a C1 control', '\u0085'], ['a number', 7], ['null', null], ['undefined', undefined]])(
    'refuses %s',
    (_name, value) => {
      expect(isCampaignValue(value)).toBe(false);
    },
  );
});
