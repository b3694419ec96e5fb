/** How a message leaves: the webhook or e-mail. Built once from the settings, used by the sender for every row of its channel. */
export interface DeliveryChannel {
  /** Sends one outbox row's payload (JSON); never throws: a failure comes back with a short reason that holds no secret. */
  send(payload: string): Promise<DeliveryResult>;
  /** Lets go of connections, at shutdown. */
  close(): void;
}

export type DeliveryResult = { ok: true } | { ok: false; reason: string };
