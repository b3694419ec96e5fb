/**
 * What the alert rules, the outbox and the digest agree on (issue 19): the settings, and a message as
 * the rules hand it to the outbox. The rules (rules/, incidents.ts, watch.ts) decide what to say; the
 * outbox (outbox.ts, alertSender.ts and its channels) decides how and when it is delivered.
 */

/** Where alerts go: either, both, or (alerts off) neither. */
export type AlertChannel = 'webhook' | 'email';

/** The settings of ALERT_WEBHOOK_URL, ALERT_EMAIL_TO, ALERT_EMAIL_FROM, SMTP_URL, DIGEST_DAY and DIGEST_HOUR, checked once at start-up (config.ts). */
export interface AlertsConfig {
  /** An https address, or http on a loopback host; receives a JSON POST per alert. */
  webhookUrl?: string;
  email?: {
    /** One or more addresses. */
    to: string[];
    /** The From address; defaults to alerts@ the SITE_URL's host. */
    from: string;
    /** smtp:// or smtps://, with user and password in it when the server needs them. */
    smtpUrl: string;
  };
  /** The weekly digest, by e-mail: on when email is set, unless DIGEST_DAY=off. Day 0 is Sunday, as Date.getUTCDay; hour in UTC. */
  digest?: { day: number; hour: number };
}

/** What the rules watch (server/alerts/rules/). */
export type AlertRule = 'link' | 'sales' | 'views' | 'clicks' | 'database';

/** opened: the incident began; recovered: it ended; digest: the weekly e-mail. */
export type OutboxEvent = 'opened' | 'recovered' | 'digest';

/** A message to deliver, on every configured channel (the digest only by e-mail). */
export interface OutboxMessage {
  event: OutboxEvent;
  /** The incident an alert or recovery belongs to; null for the digest. */
  incidentId: number | null;
  /** The e-mail's subject, one line. */
  subject: string;
  /** Plain text: the webhook's `text` (which Slack and Discord display) and the e-mail's text part. */
  text: string;
  /** The e-mail's HTML part (the digest's); alerts send text only. */
  html?: string;
  /** For an alert or a recovery: what the webhook's JSON carries beside `text`. */
  alert?: { rule: AlertRule; subject: string; state: 'opened' | 'recovered'; at: string; site: string; incident: number };
}
