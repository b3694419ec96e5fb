import type { DeliverySettings } from '../delivery/deliveryChannel';
import type { alertRules } from './rules/allRules';

/**
 * What the alerts and the digest agree on: the settings, and the rules' names. The rules (rules/,
 * incidents.ts, watch.ts) decide what to say; the outbox (server/delivery/: outbox.ts, outboxSender.ts
 * and its channels) decides how and when it is delivered.
 */

/** The settings of ALERT_WEBHOOK_URL, ALERT_EMAIL_TO, ALERT_EMAIL_FROM, SMTP_URL, DIGEST_DAY and DIGEST_HOUR, checked once at start-up (config.ts). */
export interface AlertsConfig extends DeliverySettings {
  /** The weekly digest, by e-mail: on when email is set, unless DIGEST_DAY=off. Day 0 is Sunday, as Date.getUTCDay; hour in UTC. */
  digest?: { day: number; hour: number };
}

/** What the rules watch: the name of each rule in server/alerts/rules/allRules.ts. */
export type AlertRule = (typeof alertRules)[number]['name'];
