import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Availability } from '../db/availability';
import type { Schema } from '../db/schema';
import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import type { ChannelName, DeliveryChannel, DeliveryChannels } from '../delivery/deliveryChannel';
import { channelPayload } from '../delivery/outbox';
import { alertMessage } from './alertMessage';
import type { IncidentStore } from './incidents';
import { noOutage, outageStep, type OutageNames, type OutageWatch } from './rules/databaseRule';

/** How an instance names itself in the database alert: several may run on one host, so the pid too. */
export const thisInstance = (): string => `${hostname()} pid ${process.pid}`;

export interface DatabaseOutageOptions {
  db: Kysely<Schema>;
  availability: Pick<Availability, 'downSince'>;
  incidents: IncidentStore;
  /** The configured channels (none when alerts are off: the outage is then only recorded for /admin). */
  channels: DeliveryChannels;
  names: OutageNames;
  siteUrl: string;
  logger: Logger;
}

/**
 * The database rule on one instance (rules/databaseRule.ts decides; this does). Its alert is sent here,
 * straight through the channels, since the outbox lives in the database that is down; the recovery is
 * enqueued with the incident recorded once the database answers.
 */
export class DatabaseOutage {
  private watch: OutageWatch = noOutage;
  /** The channels this outage's alert went out on. */
  private readonly sentOn = new Set<string>();

  constructor(private readonly options: DatabaseOutageOptions) {}

  /**
   * One look, every minute: asks the database something small first, so an outage is seen (and its end)
   * even while no visitor asks anything. Never throws.
   */
  async check(now: number): Promise<void> {
    const { db, availability, incidents, channels, names, siteUrl, logger } = this.options;
    // The answer does not matter: availability (which watches every query) learns from it either way.
    await sql`select 1`.execute(db).catch(() => {});
    const { watch, step } = outageStep(this.watch, availability.downSince, now, names);
    if (watch.downSince === undefined) this.sentOn.clear();
    this.watch = watch;
    if (step.action === 'alert') {
      // The incident's id is not known yet (it is recorded once the database answers): 0 says so.
      const message = alertMessage({ id: 0, rule: 'database', subject: names.instance, openedAt: watch.downSince!, summary: step.summary }, siteUrl);
      const pending = Object.entries(channels).filter((entry): entry is [ChannelName, DeliveryChannel] => entry[1] !== undefined && !this.sentOn.has(entry[0]));
      await Promise.all(
        pending.map(async ([channel, delivery]) => {
          const result = await delivery.send(channelPayload(channel, message)).catch((error: unknown) => ({ ok: false as const, reason: errorSummary(error) }));
          if (result.ok) this.sentOn.add(channel);
          else logger.error(`the database alert could not be sent by ${channel} (${result.reason}); trying again in a minute`);
        }),
      );
      // Sent on every channel (or there is none): not again for this outage. A channel that failed is tried at the next look.
      if (Object.entries(channels).every(([channel, delivery]) => delivery === undefined || this.sentOn.has(channel))) {
        this.watch = { ...watch, alerted: true };
        logger.error(step.summary);
      }
    } else if (step.action === 'record') {
      try {
        await incidents.recordPast('database', names.instance, step.summary, step.openedAt, step.recovery, step.closedAt);
        this.watch = noOutage;
        this.sentOn.clear();
      } catch {
        // Down again: the next look records it, once the database answers.
      }
    }
  }
}
