import nodemailer from 'nodemailer';
import { errorSummary } from '../lib/errorText';
import { isLoopbackHost } from '../lib/hostName';
import type { DeliveryChannel, DeliveryResult, EmailSettings } from './deliveryChannel';
import type { EmailPayload } from './outbox';

/** Each step of an SMTP conversation is bounded, so a server that stops answering fails the attempt instead of holding the sender. */
export const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000, dnsTimeout: 10_000 };

/**
 * ALERT_EMAIL_TO's channel, through nodemailer. smtps:// is TLS from the first byte (port 465 unless
 * given); smtp:// upgrades with STARTTLS when the server offers it (port 587 unless given), and insists
 * on it before sending a password anywhere but to this machine.
 */
export function createEmailChannel(email: EmailSettings, timeouts: Partial<typeof smtpTimeouts> = {}): DeliveryChannel {
  const url = new URL(email.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const transport = nodemailer.createTransport({
    host,
    ...(url.port ? { port: Number(url.port) } : {}),
    secure,
    ...(user ? { auth: { user, pass }, requireTLS: !secure && !isLoopbackHost(host) } : {}),
    ...smtpTimeouts,
    ...timeouts,
  });
  return {
    async send(payload): Promise<DeliveryResult> {
      try {
        const { subject, text, html } = JSON.parse(payload) as EmailPayload;
        await transport.sendMail({ from: email.from, to: email.to, subject, text, ...(html === undefined ? {} : { html }) });
        return { ok: true };
      } catch (error) {
        // The server's own words (e.g. "Invalid login: 535 …") say what to fix; the password never appears in them, but is scrubbed in case.
        const reason = errorSummary(error);
        return { ok: false, reason: pass ? reason.split(pass).join('***') : reason };
      }
    },
    close: () => transport.close(),
  };
}
