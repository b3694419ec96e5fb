/** Where a message goes: either, both, or (alerts off) neither. */
export type ChannelName = 'webhook' | 'email';

/** How a message leaves: the webhook or e-mail. Built once from the settings, used by the sender for every row of its channel. */
export interface DeliveryChannel {
  /** Sends one outbox row's payload (JSON); never throws: a failure comes back with a short reason that holds no secret. */
  send(payload: string): Promise<DeliveryResult>;
  /** Lets go of connections, at shutdown. */
  close(): void;
}

export type DeliveryResult = { ok: true } | { ok: false; reason: string };

/** The configured channels, by name; a name left out is not configured. */
export type DeliveryChannels = Partial<Record<ChannelName, DeliveryChannel>>;

/** The e-mail settings of ALERT_EMAIL_TO, ALERT_EMAIL_FROM and SMTP_URL, checked once at start-up (alerts/alertsConfig.ts). */
export interface EmailSettings {
  /** One or more addresses. */
  to: string[];
  /** The From address; defaults to alerts@ the SITE_URL's host. */
  from: string;
  /** smtp:// or smtps://, with user and password in it when the server needs them. */
  smtpUrl: string;
}

/** Where messages go, as the settings say: ALERT_WEBHOOK_URL and the e-mail settings. */
export interface DeliverySettings {
  /** An https address, or http on a loopback host; receives a JSON POST per message. */
  webhookUrl?: string;
  email?: EmailSettings;
}
