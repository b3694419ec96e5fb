import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { ChannelName } from './deliveryChannel';

/** opened: an incident began; recovered: it ended; digest: the weekly e-mail. */
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
  /** For an alert or a recovery: what the webhook's JSON carries beside `text` (the rule is one of server/alerts/rules/). */
  alert?: { rule: string; subject: string; state: 'opened' | 'recovered'; at: string; site: string; incident: number };
}

/**
 * The outbox: every message to deliver (an alert, its recovery, the weekly digest), one row per channel.
 * The rules enqueue inside the transaction that opens or closes an incident, so a message exists exactly
 * when its incident does; any instance's sender (outboxSender.ts) then claims due rows one by one with an
 * optimistic update, so two instances never send the same row, and a failure is retried with backoff from
 * whichever instance is up, until it is sent or given up.
 */

/** The limits of a delivery's life; tests pass their own. */
export interface DeliveryLimits {
  /** How long a claimed row belongs to its sender: longer than any send may take (the channels' timeouts), so only a sender that died loses it. */
  leaseMs: number;
  /** Attempts before the row is given up. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles after each one, up to maxRetryMs. */
  firstRetryMs: number;
  maxRetryMs: number;
}

/** 30 s doubling to 1 h, 30 attempts: about 23 hours of trying (a receiver down for a day is a receiver to fix). */
export const deliveryLimits: DeliveryLimits = { leaseMs: 5 * 60_000, maxAttempts: 30, firstRetryMs: 30_000, maxRetryMs: 3_600_000 };

/** What the webhook receives: Slack displays `text`, Discord's incoming webhook `content`; `alert` is for programs. */
export interface WebhookBody {
  text: string;
  content: string;
  alert: OutboxMessage['alert'] | null;
}

/** What the e-mail channel sends. */
export interface EmailPayload {
  subject: string;
  text: string;
  html?: string;
}

/** Discord refuses a message over 2,000 characters. */
const discordLimit = 2_000;

export function webhookBody(message: OutboxMessage): WebhookBody {
  const content = message.text.length > discordLimit ? `${message.text.slice(0, discordLimit - 1)}…` : message.text;
  return { text: message.text, content, alert: message.alert ?? null };
}

export function emailPayload(message: OutboxMessage): EmailPayload {
  return { subject: message.subject, text: message.text, ...(message.html === undefined ? {} : { html: message.html }) };
}

/** What a channel sends of a message, as the outbox keeps it and the channel's send() takes it. */
export function channelPayload(channel: ChannelName, message: OutboxMessage): string {
  return JSON.stringify(channel === 'webhook' ? webhookBody(message) : emailPayload(message));
}

/**
 * Puts the message in the outbox, one row per channel, due at once (the digest goes by e-mail only).
 * Call it with the transaction that opens or closes the incident (a Transaction is a Kysely), then wake
 * the sender once that transaction has committed.
 */
export async function enqueue(db: Kysely<Schema>, message: OutboxMessage, channels: readonly ChannelName[], now: number): Promise<void> {
  const wanted = [...new Set(message.event === 'digest' ? channels.filter((channel) => channel === 'email') : channels)];
  if (wanted.length === 0) return;
  await db
    .insertInto('outbox')
    .values(
      wanted.map((channel) => ({
        incident_id: message.incidentId,
        event: message.event,
        channel,
        payload: channelPayload(channel, message),
        created_at: now,
        next_attempt_at: now,
      })),
    )
    .execute();
}

/** A row this sender has claimed: its own until `claimedUntil`. */
export interface ClaimedDelivery {
  id: number;
  incidentId: number | null;
  event: string;
  channel: string;
  /** JSON: a WebhookBody or an EmailPayload. */
  payload: string;
  /** Counting this one. */
  attempts: number;
  claimedUntil: number;
}

/**
 * Claims up to `limit` due rows, oldest due first (the outbox_due index). Each claim is one update that
 * succeeds only while the row still shows the next_attempt_at read, so of two instances reading the same
 * row, one gets it and the other sees no row changed and moves on.
 */
export async function claimDue(db: Kysely<Schema>, now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const due = await db
    .selectFrom('outbox')
    .select(['id', 'incident_id', 'event', 'channel', 'payload', 'attempts', 'next_attempt_at'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const claimed: ClaimedDelivery[] = [];
  for (const row of due) {
    const claimedUntil = now + leaseMs;
    const result = await db
      .updateTable('outbox')
      .set({ next_attempt_at: claimedUntil, attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) continue;
    claimed.push({
      id: row.id,
      incidentId: row.incident_id,
      event: row.event,
      channel: row.channel,
      payload: row.payload,
      attempts: row.attempts + 1,
      claimedUntil,
    });
  }
  return claimed;
}

/** Records the delivery; false when the claim had lapsed and another sender holds the row. */
export async function markSent(db: Kysely<Schema>, delivery: ClaimedDelivery, now: number): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ sent_at: now, next_attempt_at: null, last_error: null })
    .where('id', '=', delivery.id)
    // Only while the claim holds: a sender whose lease ran out must not overwrite the next one's work.
    .where('next_attempt_at', '=', delivery.claimedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A reason is a line for /admin, not a transcript. */
const maxErrorLength = 300;

export type FailureOutcome = { kind: 'retry'; at: number } | { kind: 'given-up' } | { kind: 'lost' };

/**
 * Records a failed attempt: due again after the backoff, or given up after the last attempt. `reason`
 * is stored for /admin, so it must hold no secret (the channels say what failed, never the address).
 */
export async function markFailed(
  db: Kysely<Schema>,
  delivery: ClaimedDelivery,
  now: number,
  reason: string,
  limits: DeliveryLimits = deliveryLimits,
  random: () => number = Math.random,
): Promise<FailureOutcome> {
  const last_error = reason.slice(0, maxErrorLength);
  const givingUp = delivery.attempts >= limits.maxAttempts;
  const at = now + retryDelayMs(delivery.attempts, limits, random);
  const result = await db
    .updateTable('outbox')
    .set(givingUp ? { given_up_at: now, next_attempt_at: null, last_error } : { next_attempt_at: at, last_error })
    .where('id', '=', delivery.id)
    .where('next_attempt_at', '=', delivery.claimedUntil)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { kind: 'lost' };
  return givingUp ? { kind: 'given-up' } : { kind: 'retry', at };
}

/** Ends a claimed row without sending it (its channel is no longer configured, say). */
export async function markGivenUp(db: Kysely<Schema>, delivery: ClaimedDelivery, now: number, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ given_up_at: now, next_attempt_at: null, last_error: reason.slice(0, maxErrorLength) })
    .where('id', '=', delivery.id)
    .where('next_attempt_at', '=', delivery.claimedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The wait after the nth failed attempt: firstRetryMs doubling up to maxRetryMs, within ±20 % so instances and rows spread out. */
export function retryDelayMs(attempts: number, limits: DeliveryLimits = deliveryLimits, random: () => number = Math.random): number {
  const base = Math.min(limits.firstRetryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30), limits.maxRetryMs);
  return Math.round(base * (0.8 + 0.4 * random()));
}

export type DeliveryStatus =
  | { state: 'sent'; at: number }
  | { state: 'pending'; attempts: number; nextAttemptAt: number; lastError: string | null }
  | { state: 'given-up'; at: number; attempts: number; lastError: string | null };

/** One row of the outbox as /admin shows it. */
export interface Delivery {
  incidentId: number;
  event: string;
  channel: string;
  createdAt: number;
  status: DeliveryStatus;
}

/** At most this many incidents per query, so the IN list stays small whatever the caller passes. */
const incidentsPerQuery = 200;

/** The deliveries of the given incidents (the outbox_by_incident index), by incident, then oldest first. */
export async function deliveriesOf(db: Kysely<Schema>, incidentIds: readonly number[]): Promise<Delivery[]> {
  const ids = [...new Set(incidentIds)];
  const deliveries: Delivery[] = [];
  for (let start = 0; start < ids.length; start += incidentsPerQuery) {
    const rows = await db
      .selectFrom('outbox')
      .select(['id', 'incident_id', 'event', 'channel', 'created_at', 'attempts', 'next_attempt_at', 'sent_at', 'given_up_at', 'last_error'])
      .where('incident_id', 'in', ids.slice(start, start + incidentsPerQuery))
      .orderBy('incident_id')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const status: DeliveryStatus =
        row.sent_at !== null
          ? { state: 'sent', at: row.sent_at }
          : row.given_up_at !== null
            ? { state: 'given-up', at: row.given_up_at, attempts: row.attempts, lastError: row.last_error }
            : { state: 'pending', attempts: row.attempts, nextAttemptAt: row.next_attempt_at ?? row.created_at, lastError: row.last_error };
      deliveries.push({ incidentId: row.incident_id!, event: row.event, channel: row.channel, createdAt: row.created_at, status });
    }
  }
  return deliveries;
}

/** Deletes finished rows (sent or given up) created before `before`: for the daily maintenance, so the table stays small. */
export async function forgetDeliveriesBefore(db: Kysely<Schema>, before: number): Promise<void> {
  await db.deleteFrom('outbox').where('created_at', '<', before).where('next_attempt_at', 'is', null).execute();
}
