import { isIP } from 'node:net';
import { ConfigError } from '../configError';
import { given, type Env } from '../environment';
import { isEmailAddress } from '../lib/emailAddress';
import type { ChannelName } from '../delivery/deliveryChannel';
import { redactSecretUrl } from '../delivery/redactSecretUrl';
import { parseHttpsOrLoopbackUrl } from '../lib/httpsOrLoopbackUrl';
import type { AlertsConfig } from './alertTypes';

/** The variables that turn alerts on; any of them needs the statistics database. */
const alertVariables = ['ALERT_WEBHOOK_URL', 'ALERT_EMAIL_TO', 'SMTP_URL'] as const;

/** Enough for a team; a longer list belongs in a mailing list. */
const maximumRecipients = 20;

const weekDays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * ALERT_WEBHOOK_URL, ALERT_EMAIL_TO, SMTP_URL, ALERT_EMAIL_FROM, DIGEST_DAY and DIGEST_HOUR (read by
 * server/config.ts), or undefined when no alert goes anywhere. Every value is checked even when it would
 * go unused, so a typo is found at start-up; no message repeats a URL's path, query or password.
 * `statisticsOn` is CLICK_STATS as config.ts read it: alerts need the statistics database.
 */
export function parseAlertsConfig(env: Env, siteUrl: string, statisticsOn: boolean): AlertsConfig | undefined {
  const webhookUrl = parseWebhookUrl(env.ALERT_WEBHOOK_URL);
  const to = parseRecipients(env.ALERT_EMAIL_TO);
  const smtpUrl = parseSmtpUrl(env.SMTP_URL);
  const from = parseFrom(env.ALERT_EMAIL_FROM, siteUrl);
  const digestDay = parseDigestDay(env.DIGEST_DAY);
  const digestHour = parseDigestHour(env.DIGEST_HOUR);
  if (to && !smtpUrl) throw new ConfigError('ALERT_EMAIL_TO needs SMTP_URL, the mail server that sends the e-mails: set both or neither');
  if (smtpUrl && !to) throw new ConfigError('SMTP_URL needs ALERT_EMAIL_TO, the addresses the e-mails go to: set both or neither');
  const set = alertVariables.find((name) => given(env[name]) !== undefined);
  if (!statisticsOn && set) {
    throw new ConfigError(`${set} needs the statistics database, which CLICK_STATS=off turns off: unset one of the two`);
  }
  const email = to && smtpUrl ? { to, from, smtpUrl } : undefined;
  if (!webhookUrl && !email) return undefined;
  return {
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(email ? { email } : {}),
    ...(email && digestDay !== undefined ? { digest: { day: digestDay, hour: digestHour } } : {}),
  };
}

/** The channels an alert is enqueued on: each one configured. */
export function alertChannels(alerts: AlertsConfig | undefined): ChannelName[] {
  return [...(alerts?.webhookUrl ? (['webhook'] as const) : []), ...(alerts?.email ? (['email'] as const) : [])];
}

function parseWebhookUrl(raw: string | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  const url = parseHttpsOrLoopbackUrl('ALERT_WEBHOOK_URL', value, redactSecretUrl);
  const shown = redactSecretUrl(value);
  // fetch refuses a URL with credentials; the receivers put their secret in the path instead.
  if (url.username || url.password) throw new ConfigError(`ALERT_WEBHOOK_URL must not contain a user name or password, got "${shown}"`);
  return url.href;
}

function parseRecipients(raw: string | undefined): string[] | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  const addresses = value.split(',').map((address) => address.trim());
  const bad = addresses.find((address) => !isEmailAddress(address));
  if (bad !== undefined) {
    const shown = bad ? `"${bad}"` : 'an empty entry';
    throw new ConfigError(`ALERT_EMAIL_TO must be one or more e-mail addresses separated by commas, such as ops@example.com,owner@example.com; got ${shown}`);
  }
  const unique = [...new Set(addresses)];
  if (unique.length > maximumRecipients) {
    throw new ConfigError(`ALERT_EMAIL_TO may list at most ${maximumRecipients} addresses (use a mailing list for more), got ${unique.length}`);
  }
  return unique;
}

function parseSmtpUrl(raw: string | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  const what = 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port]';
  if (!URL.canParse(value)) throw new ConfigError(`${what}; the value given cannot be read as a URL`);
  const url = new URL(value);
  const shown = redactSecretUrl(value);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError(`${what}, got "${shown}"`);
  if (!url.hostname) throw new ConfigError(`${what}: it names no host, got "${shown}"`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    throw new ConfigError(`${what}, with nothing after the host and port, got "${shown}"`);
  }
  if (url.username && !url.password) throw new ConfigError(`SMTP_URL gives a user name without a password, got "${shown}"`);
  return value;
}

function parseFrom(raw: string | undefined, siteUrl: string): string {
  const value = given(raw);
  if (value === undefined) {
    const host = new URL(siteUrl).hostname;
    // An address literal needs brackets: alerts@[127.0.0.1], which mail servers accept from a local preview.
    return `alerts@${isIP(host) === 4 ? `[${host}]` : host}`;
  }
  if (!isEmailAddress(value)) throw new ConfigError(`ALERT_EMAIL_FROM must be one e-mail address such as alerts@auctions.example.com, got "${raw}"`);
  return value;
}

/** The day number as Date.getUTCDay counts it, or undefined for off. */
function parseDigestDay(raw: string | undefined): number | undefined {
  const value = given(raw)?.toLowerCase();
  if (value === undefined) return 1;
  if (value === 'off') return undefined;
  const day = weekDays.indexOf(value);
  if (day === -1) throw new ConfigError(`DIGEST_DAY must be a day of the week (monday to sunday) or off, got "${raw}"`);
  return day;
}

function parseDigestHour(raw: string | undefined): number {
  const value = given(raw);
  if (value === undefined) return 8;
  if (!/^\d{1,2}$/.test(value) || Number(value) > 23) throw new ConfigError(`DIGEST_HOUR must be a whole hour from 0 to 23 (UTC), got "${raw}"`);
  return Number(value);
}
