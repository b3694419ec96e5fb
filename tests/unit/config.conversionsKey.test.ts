import { ConfigError, loadConfig } from '../../server/config';

const key = 'f3a9c1d07b2e4a6f8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f';

describe('CONVERSIONS_KEY', () => {
  it('is off when unset, so /api/conversions does not exist', () => {
    expect(loadConfig({}).conversionsKey).toBeUndefined();
  });

  it('treats a blank value as unset', () => {
    expect(loadConfig({ CONVERSIONS_KEY: '   ' }).conversionsKey).toBeUndefined();
  });

  it('accepts the output of openssl rand -hex 24', () => {
    expect(loadConfig({ CONVERSIONS_KEY: key }).conversionsKey).toBe(key);
  });

  it('accepts exactly 24 letters, digits, "-", ".", "_" and "~"', () => {
    expect(loadConfig({ CONVERSIONS_KEY: 'Ab3-De6.Gh9_Jk2~Mn5-Pq8.' }).conversionsKey).toBe('Ab3-De6.Gh9_Jk2~Mn5-Pq8.');
  });

  it('trims surrounding white space, as every variable', () => {
    expect(loadConfig({ CONVERSIONS_KEY: ` ${key}\n` }).conversionsKey).toBe(key);
  });

  it.each([
    ['23 characters', 'a'.repeat(23)],
    ['a space inside', `${'a'.repeat(12)} ${'b'.repeat(12)}`],
    ['an ampersand, which would end it inside a postback URL', `${'a'.repeat(24)}&`],
    ['a plus sign, which a query string reads as a space', `${'a'.repeat(24)}+`],
    ['a hash, which would end the postback URL', `${'a'.repeat(24)}#`],
    ['a letter outside ASCII', `${'a'.repeat(24)}é`],
  ])('refuses %s, naming the variable without repeating the value', (_name, value) => {
    const error = (() => {
      try {
        loadConfig({ CONVERSIONS_KEY: value });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'CONVERSIONS_KEY must be at least 24 characters of letters, digits, "-", ".", "_" or "~", as it goes into postback URLs unescaped (try: openssl rand -hex 24)',
    );
    expect((error as Error).message).not.toContain(value.trim());
  });

  it('refuses the same value as ADMIN_TOKEN, since the networks see the postback URL', () => {
    expect(() => loadConfig({ CONVERSIONS_KEY: key, ADMIN_TOKEN: key })).toThrow(
      new ConfigError('CONVERSIONS_KEY must differ from ADMIN_TOKEN: the networks see the postback URL, and it must not open /admin'),
    );
  });

  it('accepts a different ADMIN_TOKEN beside it', () => {
    const config = loadConfig({ CONVERSIONS_KEY: key, ADMIN_TOKEN: 'another-admin-token-0123456789' });
    expect(config.conversionsKey).toBe(key);
    expect(config.adminToken).toBe('another-admin-token-0123456789');
  });

  it('refuses CLICK_STATS=off, which leaves no database to record conversions in', () => {
    expect(() => loadConfig({ CONVERSIONS_KEY: key, CLICK_STATS: 'off' })).toThrow(
      new ConfigError('CONVERSIONS_KEY needs the statistics database, which CLICK_STATS=off turns off: unset one of the two'),
    );
  });

  it('works with either engine', () => {
    expect(loadConfig({ CONVERSIONS_KEY: key, DATABASE_URL: 'postgres://site@127.0.0.1:5432/guide' }).conversionsKey).toBe(key);
    expect(loadConfig({ CONVERSIONS_KEY: key, CLICKS_DB: '/var/lib/guide/clicks.sqlite' }).conversionsKey).toBe(key);
  });
});
