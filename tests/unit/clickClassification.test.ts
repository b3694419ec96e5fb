import { createRateLimiter } from '../../server/limits/rateLimiter';
import { deviceClass, isBot, isPrefetch } from '../../server/beacons/requestKind';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { createVisitorHasher } from '../../server/beacons/visitorSalts';
import { silentLogger } from '../../server/lib/logger';

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

describe('createVisitorHasher', () => {
  // The salt itself, shared by instances through the database, is tested on both engines in tests/server/database.test.ts.
  let database: AppDatabase;
  beforeEach(async () => {
    database = await openDatabase({ engine: 'sqlite', file: ':memory:' }, { logger: silentLogger });
  });
  afterEach(() => database.close());

  it('gives the same visitor the same hash within a day, and different visitors different hashes', async () => {
    const hash = createVisitorHasher(database.db, () => new Date('2026-11-21T10:00:00Z'));
    expect(await hash('203.0.113.7', iphone)).toBe(await hash('203.0.113.7', iphone));
    expect(await hash('203.0.113.7', iphone)).not.toBe(await hash('203.0.113.8', iphone));
    expect(await hash('203.0.113.7', iphone)).not.toBe(await hash('203.0.113.7', windowsChrome));
  });

  it('changes every hash at UTC midnight, when the day has a new salt', async () => {
    let now = new Date('2026-11-21T23:59:59Z');
    const hash = createVisitorHasher(database.db, () => now);
    const before = await hash('203.0.113.7', iphone);
    now = new Date('2026-11-22T00:00:01Z');
    expect(await hash('203.0.113.7', iphone)).not.toBe(before);
  });

  it('is the same for a restarted process on the same day, since the salt is kept in the database', async () => {
    const day = () => new Date('2026-11-21T10:00:00Z');
    expect(await createVisitorHasher(database.db, day)('203.0.113.7', iphone)).toBe(await createVisitorHasher(database.db, day)('203.0.113.7', iphone));
  });

  it('contains neither the IP address nor the user agent', async () => {
    const hashed = await createVisitorHasher(database.db)('203.0.113.7', iphone);
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(hashed).not.toContain('203');
  });
});

describe('createRateLimiter', () => {
  it('tells the wait without taking a token', () => {
    const limiter = createRateLimiter({ burst: 1, refillMs: 1000 });
    expect(limiter.wait('a', 0)).toBe(0);
    expect(limiter.wait('a', 0)).toBe(0);
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.wait('a', 250)).toBe(750);
    expect(limiter.take('a', 1000)).toBe(0);
  });

  it('allows a burst, then refuses with the wait until the next token', () => {
    const limiter = createRateLimiter({ burst: 3, refillMs: 1000 });
    expect([limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0)]).toEqual([0, 0, 0]);
    expect(limiter.take('a', 0)).toBe(1000);
    expect(limiter.take('a', 400)).toBe(600);
  });

  it('refills over time and keeps keys apart', () => {
    const limiter = createRateLimiter({ burst: 1, refillMs: 1000 });
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.take('b', 0)).toBe(0);
    expect(limiter.take('a', 500)).toBeGreaterThan(0);
    expect(limiter.take('a', 1000)).toBe(0);
  });

  it('never holds more than maxKeys visitors, forgetting the oldest first', () => {
    const limiter = createRateLimiter({ burst: 2, refillMs: 1000, maxKeys: 10 });
    for (let i = 0; i < 50; i += 1) limiter.take(`visitor-${i}`, 0);
    expect(limiter.size).toBe(10);
  });

  it('forgets visitors whose bucket has filled up again, so memory stays bounded', () => {
    const limiter = createRateLimiter({ burst: 2, refillMs: 1000 });
    for (let i = 0; i < 100; i += 1) limiter.take(`visitor-${i}`, 0);
    expect(limiter.size).toBe(100);
    limiter.take('late', 10_000);
    expect(limiter.size).toBe(1);
  });
});
