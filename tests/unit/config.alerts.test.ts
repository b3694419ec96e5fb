import { ConfigError, loadConfig } from '../../server/config';
import { alertChannels } from '../../server/alerts/alertsConfig';
import { isLoopbackHost } from '../../server/lib/hostName';
import { redactSecretUrl } from '../../server/delivery/redactSecretUrl';

const slackSecret = 'xq7ZfT9kLm2Np4Rs6Uv8Wy0A';
const slackUrl = `https://hooks.slack.com/services/T0123ABCD/B0456EFGH/${slackSecret}`;
const smtpPassword = 'p4ss-w0rd-s3cret';
const smtpUrl = `smtps://mailer:${smtpPassword}@mail.example.com:465`;
const email = { ALERT_EMAIL_TO: 'ops@example.com', SMTP_URL: smtpUrl };

/** The ConfigError loadConfig throws for env, or a failure naming what it returned instead. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('alerts settings', () => {
  it('are off when no variable is set', () => {
    expect(loadConfig({}).alerts).toBeUndefined();
    expect(alertChannels(loadConfig({}).alerts)).toEqual([]);
  });

  it('treat blank values as unset', () => {
    expect(loadConfig({ ALERT_WEBHOOK_URL: ' ', ALERT_EMAIL_TO: '', SMTP_URL: '  ' }).alerts).toBeUndefined();
  });

  it('take a webhook alone, with no digest (the digest goes by e-mail only)', () => {
    const alerts = loadConfig({ ALERT_WEBHOOK_URL: slackUrl }).alerts;
    expect(alerts).toEqual({ webhookUrl: slackUrl });
    expect(alertChannels(alerts)).toEqual(['webhook']);
  });

  it('take e-mail with the default sender and the Monday 08:00 UTC digest', () => {
    const alerts = loadConfig({ ...email, SITE_URL: 'https://auctions.example.org', CONTACT_EMAIL: 'me@example.org' }).alerts;
    expect(alerts).toEqual({
      email: { to: ['ops@example.com'], from: 'alerts@auctions.example.org', smtpUrl },
      digest: { day: 1, hour: 8 },
    });
    expect(alertChannels(alerts)).toEqual(['email']);
  });

  it('take both channels, several recipients (trimmed, repeats dropped), a sender, a day and an hour', () => {
    const alerts = loadConfig({
      ALERT_WEBHOOK_URL: 'http://127.0.0.1:9000/hook',
      ALERT_EMAIL_TO: 'ops@example.com, owner@example.com ,ops@example.com',
      SMTP_URL: 'smtp://localhost:2525',
      ALERT_EMAIL_FROM: 'watch@example.com',
      DIGEST_DAY: 'Friday',
      DIGEST_HOUR: '17',
    }).alerts;
    expect(alerts).toEqual({
      webhookUrl: 'http://127.0.0.1:9000/hook',
      email: { to: ['ops@example.com', 'owner@example.com'], from: 'watch@example.com', smtpUrl: 'smtp://localhost:2525' },
      digest: { day: 5, hour: 17 },
    });
    expect(alertChannels(alerts)).toEqual(['webhook', 'email']);
  });

  it('count Sunday as day 0 and hour 0 as midnight, as Date.getUTCDay and getUTCHours do', () => {
    expect(loadConfig({ ...email, DIGEST_DAY: 'sunday', DIGEST_HOUR: '0' }).alerts?.digest).toEqual({ day: 0, hour: 0 });
  });

  it('turn the digest off with DIGEST_DAY=off and keep the alerts', () => {
    const alerts = loadConfig({ ...email, DIGEST_DAY: 'off' }).alerts;
    expect(alerts?.digest).toBeUndefined();
    expect(alerts?.email?.to).toEqual(['ops@example.com']);
  });

  it('write an address literal for the default sender of a site on an IP address', () => {
    expect(loadConfig({ ...email, SITE_URL: 'http://127.0.0.1:3000' }).alerts?.email?.from).toBe('alerts@[127.0.0.1]');
  });

  it('accept http webhooks on every loopback name, and nothing else over http', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '[::1]', 'localhost', 'LOCALHOST']) {
      expect(loadConfig({ ALERT_WEBHOOK_URL: `http://${host}:8080/x` }).alerts?.webhookUrl).toBeDefined();
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['128.0.0.1', '10.0.0.1', '[::2]', 'localhost.example.com', '127.0.0.1.nip.io']) expect(isLoopbackHost(host)).toBe(false);
  });

  describe('refuse', () => {
    it.each([
      ['a webhook over http elsewhere than loopback', { ALERT_WEBHOOK_URL: 'http://hooks.example.com/services/abc' }, 'ALERT_WEBHOOK_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://hooks.example.com/…"'],
      ['a webhook that is no URL', { ALERT_WEBHOOK_URL: 'hooks.slack.com/services/T/B/secret' }, 'ALERT_WEBHOOK_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost); the value given cannot be read as a URL'],
      ['a webhook of another scheme', { ALERT_WEBHOOK_URL: 'ftp://example.com/secret' }, 'ALERT_WEBHOOK_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "ftp://example.com/…"'],
      ['a webhook with a login', { ALERT_WEBHOOK_URL: 'https://user:secret@example.com/hook' }, 'ALERT_WEBHOOK_URL must not contain a user name or password, got "https://…@example.com/…"'],
      ['recipients that are not addresses', { ...email, ALERT_EMAIL_TO: 'ops@example.com, owner' }, 'ALERT_EMAIL_TO must be one or more e-mail addresses separated by commas, such as ops@example.com,owner@example.com; got "owner"'],
      ['an empty recipient between commas', { ...email, ALERT_EMAIL_TO: 'ops@example.com,,owner@example.com' }, 'ALERT_EMAIL_TO must be one or more e-mail addresses separated by commas, such as ops@example.com,owner@example.com; got an empty entry'],
      ['a display name (one plain address each)', { ...email, ALERT_EMAIL_TO: 'Ops <ops@example.com>' }, 'ALERT_EMAIL_TO must be one or more e-mail addresses separated by commas, such as ops@example.com,owner@example.com; got "Ops <ops@example.com>"'],
      ['more than 20 recipients', { ...email, ALERT_EMAIL_TO: Array.from({ length: 21 }, (_, i) => `p${i}@example.com`).join(',') }, 'ALERT_EMAIL_TO may list at most 20 addresses (use a mailing list for more), got 21'],
      ['ALERT_EMAIL_TO without SMTP_URL', { ALERT_EMAIL_TO: 'ops@example.com' }, 'ALERT_EMAIL_TO needs SMTP_URL, the mail server that sends the e-mails: set both or neither'],
      ['SMTP_URL without ALERT_EMAIL_TO', { SMTP_URL: smtpUrl }, 'SMTP_URL needs ALERT_EMAIL_TO, the addresses the e-mails go to: set both or neither'],
      ['an SMTP URL of another scheme', { ...email, SMTP_URL: `https://mailer:${smtpPassword}@mail.example.com` }, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port], got "https://…@mail.example.com"'],
      ['an SMTP URL that is no URL', { ...email, SMTP_URL: `mailer:${smtpPassword}` }, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port], got "mailer:…"'],
      ['an SMTP URL with no host', { ...email, SMTP_URL: 'smtp://' }, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port]: it names no host, got "smtp://…"'],
      ['an SMTP URL with a query', { ...email, SMTP_URL: `smtp://mailer:${smtpPassword}@mail.example.com?pool=true` }, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port], with nothing after the host and port, got "smtp://…@mail.example.com/…"'],
      ['an SMTP user without a password', { ...email, SMTP_URL: 'smtp://mailer@mail.example.com' }, 'SMTP_URL gives a user name without a password, got "smtp://…@mail.example.com"'],
      ['a sender that is not one address', { ...email, ALERT_EMAIL_FROM: 'alerts' }, 'ALERT_EMAIL_FROM must be one e-mail address such as alerts@auctions.example.com, got "alerts"'],
      ['an unknown day', { ...email, DIGEST_DAY: 'mon' }, 'DIGEST_DAY must be a day of the week (monday to sunday) or off, got "mon"'],
      ['an hour past 23', { ...email, DIGEST_HOUR: '24' }, 'DIGEST_HOUR must be a whole hour from 0 to 23 (UTC), got "24"'],
      ['an hour that is not whole', { ...email, DIGEST_HOUR: '8.5' }, 'DIGEST_HOUR must be a whole hour from 0 to 23 (UTC), got "8.5"'],
      ['a negative hour', { ...email, DIGEST_HOUR: '-1' }, 'DIGEST_HOUR must be a whole hour from 0 to 23 (UTC), got "-1"'],
      ['a webhook with CLICK_STATS=off', { ALERT_WEBHOOK_URL: slackUrl, CLICK_STATS: 'off' }, 'ALERT_WEBHOOK_URL needs the statistics database, which CLICK_STATS=off turns off: unset one of the two'],
      ['e-mail with CLICK_STATS=off', { ...email, CLICK_STATS: 'OFF' }, 'ALERT_EMAIL_TO needs the statistics database, which CLICK_STATS=off turns off: unset one of the two'],
    ])('%s, in one line naming the variable', (_name, env, message) => {
      const error = refusal(env);
      expect(error.message).toBe(message);
      expect(error.message).not.toContain('\n');
    });

    it('a bad DIGEST_DAY or DIGEST_HOUR even without e-mail, so a typo shows before e-mail is turned on', () => {
      expect(refusal({ DIGEST_DAY: 'someday' }).message).toMatch(/^DIGEST_DAY /);
      expect(refusal({ DIGEST_HOUR: 'eight' }).message).toMatch(/^DIGEST_HOUR /);
    });
  });

  describe('never put a secret in a message', () => {
    const secretBearing: Array<[string, Record<string, string>]> = [
      ['a Slack webhook over http', { ALERT_WEBHOOK_URL: slackUrl.replace('https:', 'http:') }],
      ['a Slack webhook with a login', { ALERT_WEBHOOK_URL: slackUrl.replace('https://', `https://u:${smtpPassword}@`) }],
      ['a Slack webhook that cannot be read', { ALERT_WEBHOOK_URL: `https://[hooks.slack.com/services/T/B/${slackSecret}` }],
      ['a Discord webhook with CLICK_STATS=off', { ALERT_WEBHOOK_URL: `https://discord.com/api/webhooks/123/${slackSecret}`, CLICK_STATS: 'off' }],
      ['an SMTP URL of another scheme', { ...email, SMTP_URL: smtpUrl.replace('smtps:', 'imap:') }],
      ['an SMTP URL with a path', { ...email, SMTP_URL: `${smtpUrl}/${slackSecret}` }],
      ['an SMTP URL that cannot be read', { ...email, SMTP_URL: `smtp://mailer:${smtpPassword}@[mail` }],
      ['an SMTP URL without recipients', { SMTP_URL: smtpUrl }],
      ['an SMTP URL with CLICK_STATS=off', { ...email, CLICK_STATS: 'off' }],
    ];
    it.each(secretBearing)('%s', (_name, env) => {
      const message = refusal(env).message;
      expect(message).not.toContain(slackSecret);
      expect(message).not.toContain(smtpPassword);
    });
  });
});

describe('redactSecretUrl', () => {
  it.each([
    [slackUrl, 'https://hooks.slack.com/…'],
    ['https://discord.com/api/webhooks/123/token?wait=true', 'https://discord.com/…'],
    ['https://example.com/', 'https://example.com'],
    ['https://example.com?key=secret', 'https://example.com/…'],
    ['https://example.com#secret', 'https://example.com/…'],
    ['http://127.0.0.1:9000/hook', 'http://127.0.0.1:9000/…'],
    [smtpUrl, 'smtps://…@mail.example.com:465'],
    ['smtp://mail.example.com', 'smtp://mail.example.com'],
    ['smtp://:secret@mail.example.com', 'smtp://…@mail.example.com'],
    ['not a url at all secret', '(an address that cannot be read as a URL)'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactSecretUrl(url)).toBe(shown);
  });
});
