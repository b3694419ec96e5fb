import type { Kysely } from 'kysely';
import type { Availability } from '../db/availability';
import type { Schema } from '../db/schema';
import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import type { ChannelName, DeliveryChannels } from './deliveryChannel';
import { claimDue, deliveryLimits, markFailed, markGivenUp, markSent, type ClaimedDelivery, type DeliveryLimits } from './outbox';

/** Often enough that a message leaves within seconds even when no one wakes the sender (another instance enqueued it). */
export const outboxPollMs = 5_000;

/** Messages sent at once; an incident makes one per channel, so a few cover a burst without a crowd of connections. */
const batchSize = 4;

/** Rounds one tick may run back to back while full batches keep coming; the next tick takes the rest. */
const roundsPerTick = 10;

export interface OutboxSenderOptions {
  db: Kysely<Schema>;
  /** Built once by the caller, who closes them after stop(). */
  channels: DeliveryChannels;
  logger: Logger;
  /** While the database is down its own availability logs the outage once; the sender then stays quiet. */
  availability?: Availability;
  now?: () => number;
  random?: () => number;
  limits?: DeliveryLimits;
}

/** What one round did, by outbox row id. */
export interface SendRound {
  sent: number[];
  /** Failed, due again later. */
  retried: number[];
  gaveUp: number[];
  /** Claimed, but the claim had lapsed when the outcome was written (another sender holds the row now). */
  lost: number[];
  /** The database (or something unforeseen) failed the round; nothing was sent. */
  error?: string;
}

export interface OutboxSender {
  /**
   * One poll (the schedule runs it every outboxPollMs, server/schedule/schedule.ts): rounds back to back
   * while full batches keep coming, up to a bound. A poll asked for while one runs makes that one go on.
   */
  poll(): Promise<void>;
  /** Polls soon: call it after the transaction that enqueued a message has committed. */
  wake(): void;
  /** One round, now: claims up to a few due rows, sends them, records each outcome. Never throws. Rounds never overlap. */
  sendDue(): Promise<SendRound>;
  /** No new round starts; resolves once the one under way has finished (its sends are bounded by the channels' timeouts). */
  stop(): Promise<void>;
}

/**
 * Delivers the outbox from this instance. Every instance runs one; the claims in the database
 * (outbox.ts) make each row go out once. All work is asynchronous I/O in small batches, so a hanging
 * receiver holds one of a few sends until its timeout, and never a request.
 */
export function createOutboxSender(options: OutboxSenderOptions): OutboxSender {
  const { db, channels, logger, availability, now = Date.now, random = Math.random, limits = deliveryLimits } = options;
  let stopped = false;
  let ticking = false;
  let wokenDuringTick = false;
  let queue: Promise<unknown> = Promise.resolve();
  let lastLoggedError: string | undefined;

  const deliver = async (delivery: ClaimedDelivery, report: SendRound) => {
    const channel = channels[delivery.channel as ChannelName];
    const at = now();
    if (!channel) {
      // Enqueued while the channel was configured, and it no longer is: nothing can ever send it.
      const ended = await markGivenUp(db, delivery, at, `the ${delivery.channel} channel is no longer configured`);
      (ended ? report.gaveUp : report.lost).push(delivery.id);
      if (ended) logger.warning(`alert delivery ${delivery.id} (${delivery.event}, ${delivery.channel}) dropped: that channel is no longer configured`);
      return;
    }
    if (delivery.attempts > limits.maxAttempts) {
      // Claimed again after its senders stopped mid-attempt (their leases lapsed) more times than the bound.
      if (await markGivenUp(db, delivery, at, 'its senders stopped during every attempt')) {
        report.gaveUp.push(delivery.id);
        logger.error(`alert delivery ${delivery.id} (${delivery.event}, ${delivery.channel}) given up after ${delivery.attempts - 1} attempts`);
      }
      return;
    }
    const result = await channel.send(delivery.payload);
    const done = now();
    if (result.ok) {
      (await markSent(db, delivery, done) ? report.sent : report.lost).push(delivery.id);
      return;
    }
    const outcome = await markFailed(db, delivery, done, result.reason, limits, random);
    if (outcome.kind === 'lost') report.lost.push(delivery.id);
    else if (outcome.kind === 'retry') {
      report.retried.push(delivery.id);
      if (delivery.attempts === 1) logger.warning(`alert delivery ${delivery.id} (${delivery.event}, ${delivery.channel}) failed (${result.reason}); retrying with backoff`);
    } else {
      report.gaveUp.push(delivery.id);
      logger.error(`alert delivery ${delivery.id} (${delivery.event}, ${delivery.channel}) given up after ${delivery.attempts} attempts (last error: ${result.reason})`);
    }
  };

  const round = async (): Promise<SendRound> => {
    const result: SendRound = { sent: [], retried: [], gaveUp: [], lost: [] };
    try {
      const claimed = await claimDue(db, now(), batchSize, limits.leaseMs);
      // Each send is on its own: one failing (or the database failing under it) leaves the others' outcomes.
      const outcomes = await Promise.allSettled(claimed.map((delivery) => deliver(delivery, result)));
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
      lastLoggedError = undefined;
    } catch (error) {
      result.error = errorSummary(error);
      // A database outage is logged once by its availability; anything else once per distinct message.
      const quiet = availability !== undefined && !availability.available;
      if (!quiet && result.error !== lastLoggedError) logger.error('sending alerts failed; retrying on the next round', error);
      lastLoggedError = result.error;
    }
    return result;
  };

  const sendDue = (): Promise<SendRound> => {
    const next = queue.then(round);
    queue = next.catch(() => {});
    return next;
  };

  const poll = async () => {
    if (ticking) {
      wokenDuringTick = true;
      return;
    }
    ticking = true;
    try {
      for (let rounds = 0; rounds < roundsPerTick && !stopped; rounds += 1) {
        wokenDuringTick = false;
        const done = await sendDue();
        const handled = done.sent.length + done.retried.length + done.gaveUp.length + done.lost.length;
        if (done.error || (handled < batchSize && !wokenDuringTick)) break;
      }
    } finally {
      ticking = false;
    }
  };

  return {
    poll,
    wake() {
      if (stopped) return;
      // Not now: the caller may be inside a request, and its own work comes first.
      setImmediate(() => void poll()).unref();
    },
    sendDue,
    async stop() {
      stopped = true;
      await queue;
    },
  };
}
