import { ConfigError, loadConfig, SAMPLE_AFFILIATE_URL } from '../../server/config';

describe('loadConfig', () => {
  it('uses port 3000, every interface, the sample affiliate address and a localhost site URL by default', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      affiliateUrl: SAMPLE_AFFILIATE_URL,
      merchantUrl: 'https://www.example.com',
      affiliateSubIdParam: undefined,
      siteUrl: 'http://localhost:3000',
      trustProxy: false,
      shutdownTimeoutMs: 10_000,
      statistics: { database: { engine: 'sqlite', file: 'data/clicks.sqlite' }, retentionDays: 400 },
      adminToken: undefined,
      linkCheckHours: 6,
      claimsCheckHours: 24,
      logFormat: 'text',
    });
  });

  it('derives the site URL from HOST and PORT when SITE_URL is not set', () => {
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '8080' }).siteUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '::1', PORT: '8080' }).siteUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ HOST: 'guide.internal' }).siteUrl).toBe('http://guide.internal:3000');
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', AFFILIATE_URL: '  ', SITE_URL: '' }).port).toBe(3000);
  });

  it('keeps the affiliate address with its query string and normalises the site URL to an origin', () => {
    const config = loadConfig({ AFFILIATE_URL: 'https://partner.example.net/join?aff=1&x=2', SITE_URL: 'https://Guide.Example.com/', CONTACT_EMAIL: 'help@guide.example.com' });
    expect(config.affiliateUrl).toBe('https://partner.example.net/join?aff=1&x=2');
    expect(config.siteUrl).toBe('https://guide.example.com');
  });

  it('reads TRUST_PROXY as false, true or a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be a whole number from 1 to 65535, got "eighty"$/],
    [{ PORT: '70000' }, /^PORT must be/],
    [{ PORT: '0' }, /^PORT must be/],
    [{ PORT: '3000.5' }, /^PORT must be/],
    [{ HOST: 'not a host!' }, /^HOST must be an IP address or a host name/],
    [{ AFFILIATE_URL: 'http://partner.example.net/join' }, /^AFFILIATE_URL must use https:\/\//],
    [{ AFFILIATE_URL: 'partner.example.net/join' }, /^AFFILIATE_URL must be an absolute URL/],
    [{ AFFILIATE_URL: 'https://user:secret@partner.example.net/' }, /^AFFILIATE_URL must not contain a user name or password$/],
    [{ AFFILIATE_SUBID_PARAM: 'sub id' }, /^AFFILIATE_SUBID_PARAM must be a query parameter name/],
    [{ SITE_URL: 'ftp://guide.example.com' }, /^SITE_URL must use http:\/\/ or https:\/\//],
    [{ SITE_URL: 'https://guide.example.com/blog' }, /^SITE_URL must be an origin only/],
    [{ SITE_URL: 'https://guide.example.com/?a=1' }, /^SITE_URL must be an origin only/],
    [{ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY must be false, true or the number of proxies/],
    [{ SHUTDOWN_TIMEOUT_MS: '5' }, /^SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ LOG_FORMAT: 'yaml' }, /^LOG_FORMAT must be text or json, got "yaml"$/],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{}, 'text'],
    [{ LOG_FORMAT: ' ' }, 'text'],
    [{ LOG_FORMAT: 'json' }, 'json'],
    [{ LOG_FORMAT: 'JSON' }, 'json'],
    [{ LOG_FORMAT: 'text' }, 'text'],
  ])('reads LOG_FORMAT %j as %s', (env, format) => {
    expect(loadConfig(env).logFormat).toBe(format);
  });

  describe('click counting, admin and link checks', () => {
    it('reads CLICKS_DB and CLICKS_RETENTION_DAYS', () => {
      expect(loadConfig({ CLICKS_DB: '/var/lib/guide/clicks.db', CLICKS_RETENTION_DAYS: '30' }).statistics).toEqual({
        database: { engine: 'sqlite', file: '/var/lib/guide/clicks.db' },
        retentionDays: 30,
      });
    });

    it('chooses PostgreSQL when DATABASE_URL is set, whatever CLICKS_DB says', () => {
      const url = 'postgres://site:pw@db.internal:5432/auctions?sslmode=verify-full';
      expect(loadConfig({ DATABASE_URL: url, CLICKS_DB: '/var/lib/guide/clicks.db' }).statistics?.database).toEqual({ engine: 'postgres', url });
      expect(loadConfig({ DATABASE_URL: 'postgresql://db.internal/auctions' }).statistics?.database.engine).toBe('postgres');
    });

    it.each([
      ['not a URL', /^DATABASE_URL must be a URL such as postgres:\/\//],
      ['mysql://site:hunter2@db/auctions', /^DATABASE_URL must start with postgres:\/\/.*got "mysql:\/\/site:\*\*\*@db\/auctions"/],
      ['postgres://site:hunter2@db/auctions?sslmode=maybe', /^DATABASE_URL's sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, no-verify/],
    ])('rejects DATABASE_URL=%j in one line that never shows the password', (value, message) => {
      expect(() => loadConfig({ DATABASE_URL: value })).toThrow(message);
      expect(() => loadConfig({ DATABASE_URL: value })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    });

    it.each(['off', 'OFF', ' off '])('turns counting off with CLICK_STATS=%j', (value) => {
      expect(loadConfig({ CLICK_STATS: value }).statistics).toBeUndefined();
    });

    it('keeps counting on with CLICK_STATS=on', () => {
      expect(loadConfig({ CLICK_STATS: 'on' }).statistics).toBeDefined();
    });

    it.each([
      [{ CLICK_STATS: 'no' }, /^CLICK_STATS must be on or off/],
      [{ CLICKS_RETENTION_DAYS: '0' }, /^CLICKS_RETENTION_DAYS must be/],
      [{ CLICKS_RETENTION_DAYS: '1.5' }, /^CLICKS_RETENTION_DAYS must be/],
      [{ CLICK_STATS: 'off', CLICKS_RETENTION_DAYS: 'forever' }, /^CLICKS_RETENTION_DAYS must be/],
      [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN must be at least 16/],
      [{ ADMIN_TOKEN: 'has a space in it but long' }, /^ADMIN_TOKEN must be/],
      [{ LINK_CHECK_HOURS: '-1' }, /^LINK_CHECK_HOURS must be/],
      [{ LINK_CHECK_HOURS: '721' }, /^LINK_CHECK_HOURS must be/],
      [{ LINK_CHECK_HOURS: '0.5' }, /^LINK_CHECK_HOURS must be/],
      [{ LINK_CHECK_HOURS: 'never' }, /^LINK_CHECK_HOURS must be/],
      [{ CLAIMS_CHECK_HOURS: '0' }, /^CLAIMS_CHECK_HOURS must be a whole number of hours from 1 to 720, or off for no checks, got "0"$/],
      [{ CLAIMS_CHECK_HOURS: '721' }, /^CLAIMS_CHECK_HOURS must be/],
      [{ CLAIMS_CHECK_HOURS: '1.5' }, /^CLAIMS_CHECK_HOURS must be/],
    ])('rejects %j', (env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    });

    it('never repeats the admin token in its error message', () => {
      expect(() => loadConfig({ ADMIN_TOKEN: 'secret 123' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
    });

    it('reads ADMIN_TOKEN and LINK_CHECK_HOURS, with 0 meaning no checks', () => {
      const config = loadConfig({ ADMIN_TOKEN: 'a'.repeat(24), LINK_CHECK_HOURS: '3' });
      expect(config.adminToken).toBe('a'.repeat(24));
      expect(config.linkCheckHours).toBe(3);
      expect(loadConfig({ LINK_CHECK_HOURS: '0' }).linkCheckHours).toBeUndefined();
    });

    it('checks the claims every 24 hours when CLAIMS_CHECK_HOURS is unset or blank, every N from 1 to 720, and never with off', () => {
      expect(loadConfig({}).claimsCheckHours).toBe(24);
      expect(loadConfig({ CLAIMS_CHECK_HOURS: ' ' }).claimsCheckHours).toBe(24);
      expect(loadConfig({ CLAIMS_CHECK_HOURS: '1' }).claimsCheckHours).toBe(1);
      expect(loadConfig({ CLAIMS_CHECK_HOURS: '720' }).claimsCheckHours).toBe(720);
      expect(loadConfig({ CLAIMS_CHECK_HOURS: 'off' }).claimsCheckHours).toBeUndefined();
    });

    it('checks the link every 6 hours when LINK_CHECK_HOURS is unset or blank, and never with off', () => {
      expect(loadConfig({}).linkCheckHours).toBe(6);
      expect(loadConfig({ LINK_CHECK_HOURS: ' ' }).linkCheckHours).toBe(6);
      expect(loadConfig({ LINK_CHECK_HOURS: 'off' }).linkCheckHours).toBeUndefined();
      expect(loadConfig({ LINK_CHECK_HOURS: '00' }).linkCheckHours).toBeUndefined();
    });

    it('answers a bad LINK_CHECK_HOURS in one line naming what it takes', () => {
      expect(() => loadConfig({ LINK_CHECK_HOURS: 'never' })).toThrow(
        new ConfigError('LINK_CHECK_HOURS must be a whole number of hours from 1 to 720, or off (or 0) for no checks, got "never"'),
      );
    });
  });

  describe('MERCHANT_URL', () => {
    it.each([
      [{}, 'https://www.example.com'],
      [{ AFFILIATE_URL: 'https://partner.example.net:8443/join?aff=1' }, 'https://partner.example.net:8443'],
      [{ MERCHANT_URL: ' ' }, 'https://www.example.com'],
      [{ MERCHANT_URL: 'https://Merchant.Example.org/' }, 'https://merchant.example.org'],
      [{ MERCHANT_URL: 'https://merchant.example.org' }, 'https://merchant.example.org'],
      [{ MERCHANT_URL: 'http://127.0.0.1:8081' }, 'http://127.0.0.1:8081'],
      [{ MERCHANT_URL: 'http://127.8.9.10' }, 'http://127.8.9.10'],
      [{ MERCHANT_URL: 'http://[::1]:8081/' }, 'http://[::1]:8081'],
      [{ MERCHANT_URL: 'http://localhost:8081' }, 'http://localhost:8081'],
    ])('reads %j as %s', (env, merchantUrl) => {
      expect(loadConfig(env).merchantUrl).toBe(merchantUrl);
    });

    it.each([
      ['http://merchant.example.org', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://merchant.example.org"'],
      ['http://128.0.0.1', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://128.0.0.1"'],
      ['http://localhost.example.org', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://localhost.example.org"'],
      ['ftp://merchant.example.org', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "ftp://merchant.example.org"'],
      ['merchant.example.org', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost); the value given cannot be read as a URL'],
      ['http://shop:hunter2@merchant.example.org', 'MERCHANT_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://…@merchant.example.org"'],
      ['https://shop:hunter2@merchant.example.org', 'MERCHANT_URL must not contain a user name or password'],
      ['https://merchant.example.org/terms', 'MERCHANT_URL must be an origin only, such as https://merchant.example.com (no path or query), got "https://merchant.example.org/terms"'],
      ['https://merchant.example.org/?ref=1', 'MERCHANT_URL must be an origin only, such as https://merchant.example.com (no path or query), got "https://merchant.example.org/?ref=1"'],
      ['https://merchant.example.org/#terms', 'MERCHANT_URL must be an origin only, such as https://merchant.example.com (no path or query), got "https://merchant.example.org/#terms"'],
    ])('refuses MERCHANT_URL=%j in one line naming it', (value, message) => {
      expect(() => loadConfig({ MERCHANT_URL: value })).toThrow(new ConfigError(message));
    });
  });
});
