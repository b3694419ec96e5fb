import { deviceClass, isBot, isPrefetch } from '../../server/beacons/requestKind';

const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const androidPhone = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const androidTablet = 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ipad = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const windowsChrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const macFirefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('isBot', () => {
  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
    'curl/8.5.0',
    'python-requests/2.32.3',
    'Go-http-client/1.1',
    'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
    'AuctionsGuideLinkCheck/1.0 (affiliate link health check)',
    '',
  ])('counts %j as a bot', (userAgent) => {
    expect(isBot(userAgent)).toBe(true);
  });

  it.each([iphone, androidPhone, androidTablet, ipad, windowsChrome, macFirefox])('counts %j as a person', (userAgent) => {
    expect(isBot(userAgent)).toBe(false);
  });
});

describe('isPrefetch', () => {
  it.each([
    { 'sec-purpose': 'prefetch' },
    { 'sec-purpose': 'prefetch;prerender' },
    { purpose: 'prefetch' },
    { 'x-moz': 'prefetch' },
    { 'x-purpose': 'preview' },
  ])('recognises %j', (headers) => {
    expect(isPrefetch(headers)).toBe(true);
  });

  it('lets an ordinary request through', () => {
    expect(isPrefetch({ 'user-agent': iphone, accept: '*/*' })).toBe(false);
  });
});

describe('deviceClass', () => {
  it.each([
    [iphone, 'mobile'],
    [androidPhone, 'mobile'],
    [androidTablet, 'tablet'],
    [ipad, 'tablet'],
    [windowsChrome, 'desktop'],
    [macFirefox, 'desktop'],
  ])('classes %j as %s', (userAgent, expected) => {
    expect(deviceClass(userAgent)).toBe(expected);
  });

  it('believes the Sec-CH-UA-Mobile hint', () => {
    expect(deviceClass(windowsChrome, '?1')).toBe('mobile');
  });
});
