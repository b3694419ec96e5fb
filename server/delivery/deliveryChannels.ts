import type { DeliveryChannels, DeliverySettings } from './deliveryChannel';
import { createEmailChannel } from './emailChannel';
import { createWebhookChannel } from './webhookChannel';

/**
 * The channels the settings configure, built once at start-up (server/backgroundWork.ts) and handed to
 * the sender and to the database alert, which goes straight through them; closed once, at shutdown.
 */
export function createDeliveryChannels(settings: DeliverySettings): DeliveryChannels {
  return {
    ...(settings.webhookUrl ? { webhook: createWebhookChannel(settings.webhookUrl) } : {}),
    ...(settings.email ? { email: createEmailChannel(settings.email) } : {}),
  };
}

/** Lets go of every channel's connections. */
export function closeDeliveryChannels(channels: DeliveryChannels): void {
  for (const channel of Object.values(channels)) channel?.close();
}
