import { formatMoment } from '../../lib/utcDay';
import type { AlertRuleDefinition } from './alertRuleDefinition';

/** How long the statistics database may not answer before an instance alerts. */
export const outageSpanMs = 5 * 60_000;

/** What one instance knows of the outage it follows: when it began, and whether its alert went out. */
export interface OutageWatch {
  /** When the outage followed began (availability's downSince when first seen); undefined when none is. */
  downSince?: number;
  alerted: boolean;
}

export const noOutage: OutageWatch = { alerted: false };

export type OutageStep =
  | { action: 'none' }
  /** Send the alert now, directly: the database cannot hold it. Once sent, the caller marks the watch alerted. */
  | { action: 'alert'; summary: string }
  /** The database answers again after an outage past the span: record it, opened and closed, and enqueue its recovery; then the caller clears the watch. */
  | { action: 'record'; openedAt: number; closedAt: number; summary: string; recovery: string };

export interface OutageNames {
  /** This instance: hostname and pid. */
  instance: string;
  /** The database as availability names it, password hidden ("DATABASE_URL postgres://user:***@db/site"). */
  database: string;
}

/**
 * The database rule, for one instance: the database has not answered it for more than outageSpanMs.
 * An alert about the database cannot be claimed in the database, so each instance that sees the outage
 * alerts once, itself, naming itself; once the database answers, the instance records the outage as an
 * incident (opened and closed) for the history, and its recovery goes through the outbox.
 * `downSince` is availability's (undefined while the database answers). Returns the watch to keep (the
 * outage followed) and what to do; the caller marks `alerted` or clears the watch once that is done,
 * so a send or a record that fails is tried again at the next step.
 */
export function outageStep(current: OutageWatch, downSince: number | undefined, now: number, names: OutageNames): { watch: OutageWatch; step: OutageStep } {
  const summary = (since: number) => databaseRule.alertText(names, since);
  if (downSince !== undefined) {
    // Down again before this instance saw it answer: still the outage it follows.
    const watch = current.downSince === undefined ? { downSince, alerted: false } : current;
    const since = watch.downSince!;
    const step: OutageStep = !watch.alerted && now - since > outageSpanMs ? { action: 'alert', summary: summary(since) } : { action: 'none' };
    return { watch, step };
  }
  if (current.downSince === undefined) return { watch: noOutage, step: { action: 'none' } };
  // A short outage is forgotten; availability's log lines are its record.
  if (!current.alerted && now - current.downSince <= outageSpanMs) return { watch: noOutage, step: { action: 'none' } };
  const minutes = Math.max(1, Math.round((now - current.downSince) / 60_000));
  return {
    watch: current,
    step: {
      action: 'record',
      openedAt: current.downSince,
      closedAt: now,
      summary: summary(current.downSince),
      recovery: databaseRule.recoveryText(names, minutes),
    },
  };
}

/**
 * The statistics database not answering one instance: judged by each instance itself, every minute
 * (outageStep above, run by server/alerts/databaseOutage.ts), never read from the database it is about.
 */
export const databaseRule = {
  name: 'database',
  title: (instance: string) => `statistics database not answering ${instance}`,
  alertText: (names: OutageNames, since: number) =>
    `The statistics database (${names.database}) has not answered instance ${names.instance} since ${formatMoment(since)}, more than ${outageSpanMs / 60_000} minutes: ` +
    `the clicks, views and sales reported meanwhile are refused, and /admin is unavailable. The public pages still serve.`,
  recoveryText: (names: OutageNames, minutes: number) => `The statistics database answers instance ${names.instance} again, after about ${minutes} minutes; counting resumed.`,
} satisfies AlertRuleDefinition<'database'>;
