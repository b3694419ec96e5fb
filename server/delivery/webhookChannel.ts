import { errorCode, fieldsOf } from '../lib/errorText';
import type { DeliveryChannel, DeliveryResult } from './deliveryChannel';

/** Slack and Discord answer within a second or two; a receiver silent this long is down. */
export const webhookTimeoutMs = 10_000;

/**
 * ALERT_WEBHOOK_URL's channel: a JSON POST of the stored body ({ text, content, alert }, see outbox.ts).
 * Any 2xx is delivered; another status, a timeout or a network error is a failure whose reason never
 * names the address (its path is the receiver's secret). A redirect counts as a failure too: the
 * operator should set the address it leads to rather than have every alert take a detour.
 */
export function createWebhookChannel(url: string, { timeoutMs = webhookTimeoutMs }: { timeoutMs?: number } = {}): DeliveryChannel {
  return {
    async send(payload): Promise<DeliveryResult> {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'auctions-guide-alerts' },
          body: payload,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        // The answer's body is not read: a receiver that trickles it must not hold the sender.
        await response.body?.cancel().catch(() => {});
        if (response.status >= 200 && response.status < 300) return { ok: true };
        if (response.status >= 300 && response.status < 400) return { ok: false, reason: `HTTP ${response.status}: the webhook redirects; set ALERT_WEBHOOK_URL to where it leads` };
        return { ok: false, reason: `HTTP ${response.status}` };
      } catch (error) {
        return { ok: false, reason: failureReason(error, timeoutMs) };
      }
    },
    close() {},
  };
}

/** fetch's errors carry the address in places; the reason keeps only what kind of failure it was. */
function failureReason(error: unknown, timeoutMs: number): string {
  const { name } = fieldsOf(error) as { name?: unknown };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = errorCode(fieldsOf(error).cause) ?? errorCode(error);
  return code ? `could not reach the webhook (${code})` : 'could not reach the webhook';
}
