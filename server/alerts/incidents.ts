import { dayMs } from '../lib/utcDay';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { alertMessage } from './alertMessage';
import type { ChannelName } from '../delivery/deliveryChannel';
import { enqueue } from '../delivery/outbox';
import type { AlertRule } from './alertTypes';

/** An incident as the rules and /admin read it. */
export interface Incident {
  id: number;
  rule: AlertRule;
  subject: string;
  openedAt: number;
  /** null while open. */
  closedAt: number | null;
  summary: string;
  recovery: string | null;
}

export interface IncidentStore {
  /** The open incidents: at most one per rule and subject (the incidents_open index), so few. */
  openIncidents(): Promise<Incident[]>;
  /**
   * Opens the rule's incident about the subject unless one is open; the one caller whose insert took
   * enqueues the alert, in the same transaction, and gets the incident; every other caller gets undefined.
   */
  open(rule: AlertRule, subject: string, summary: string, now: number): Promise<Incident | undefined>;
  /** Closes the open incident, if any; the one caller whose update changed it enqueues the recovery and gets it. */
  close(rule: AlertRule, subject: string, recovery: string, now: number): Promise<Incident | undefined>;
  /**
   * An incident already over, recorded whole (a database outage, written once the database answers):
   * inserted closed, with its recovery enqueued in the same transaction.
   */
  recordPast(rule: AlertRule, subject: string, summary: string, openedAt: number, recovery: string, closedAt: number): Promise<Incident>;
}

export interface IncidentStoreOptions {
  /** Where alerts go: none when alerts are off, so incidents are only recorded for /admin. */
  channels: readonly ChannelName[];
  /** SITE_URL, named in every message. */
  siteUrl: string;
  /** Called after a message was enqueued and committed: wakes the sender so it need not wait for its next round. */
  enqueued?: () => void;
}

/**
 * More than every rule and subject could have open at once: each rule of rules/allRules.ts over its
 * subjects (the placements, a few instances, the spend rule's sources and campaigns with a cost: a few
 * hundred campaigns on a busy account).
 */
const maxOpenIncidents = 1000;

/**
 * How long before a span an incident that closed within it may have opened and still be found: the
 * reads of closed incidents go by incidents_by_time, so they are bounded by when an incident opened.
 */
export const incidentLookbackDays = 90;

const columns = ['id', 'rule', 'subject', 'opened_at', 'closed_at', 'summary', 'recovery'] as const;
type IncidentRow = Pick<Schema['incidents'], Exclude<(typeof columns)[number], 'id'>> & { id: number };

export function incidentOf(row: IncidentRow): Incident {
  return {
    id: Number(row.id),
    rule: row.rule as AlertRule,
    subject: row.subject,
    openedAt: Number(row.opened_at),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    summary: row.summary,
    recovery: row.recovery,
  };
}

/** The open incidents, oldest first: at most one per rule and subject (incidents_open), so few. */
export async function readOpenIncidents(db: Kysely<Schema>, limit = maxOpenIncidents): Promise<Incident[]> {
  const rows = await db.selectFrom('incidents').select(columns).where('closed_at', 'is', null).orderBy('opened_at').limit(limit).execute();
  return rows.map(incidentOf);
}

/**
 * The incidents (open or closed) opened from `start` to before `end`, newest first, at most `limit`: those
 * /admin's main chart marks over its range, whatever the range's age. Read on incidents_by_time.
 */
export async function readIncidentsOpenedIn(db: Kysely<Schema>, { start, end, limit }: { start: number; end: number; limit: number }): Promise<Incident[]> {
  const rows = await db.selectFrom('incidents').select(columns).where('opened_at', '>=', start).where('opened_at', '<', end).orderBy('opened_at', 'desc').limit(limit).execute();
  return rows.map(incidentOf);
}

/**
 * The closed incidents that were under way at some moment from `start` on (and before `end`, when given):
 * closed at `start` or later, opened before `end`; newest first, at most `limit`. Read on incidents_by_time,
 * from incidentLookbackDays before `start`, so it costs the same whatever the table's age.
 */
export async function readClosedIncidents(db: Kysely<Schema>, { start, end, limit }: { start: number; end?: number; limit: number }): Promise<Incident[]> {
  let query = db
    .selectFrom('incidents')
    .select(columns)
    .where('opened_at', '>=', start - incidentLookbackDays * dayMs)
    .where('closed_at', 'is not', null)
    .where('closed_at', '>=', start);
  if (end !== undefined) query = query.where('opened_at', '<', end);
  const rows = await query.orderBy('opened_at', 'desc').limit(limit).execute();
  return rows.map(incidentOf);
}

/**
 * The incidents table, shared by every instance. Whoever changes a row is the one that alerts: the
 * partial unique index lets one insert of an open (rule, subject) succeed, and of two updates closing
 * it the second finds it closed already (PostgreSQL re-reads the row after waiting for the first; SQLite
 * has one writer at a time), so each alert and each recovery is enqueued exactly once.
 */
export function createIncidentStore(db: Kysely<Schema>, { channels, siteUrl, enqueued = () => {} }: IncidentStoreOptions): IncidentStore {
  const afterCommit = <T>(incident: T | undefined): T | undefined => {
    if (incident !== undefined && channels.length > 0) enqueued();
    return incident;
  };
  return {
    openIncidents: () => readOpenIncidents(db),

    async open(rule, subject, summary, now) {
      const opened = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('incidents')
          .values({ rule, subject, opened_at: now, closed_at: null, summary, recovery: null })
          .onConflict((conflict) => conflict.doNothing())
          .returning(columns)
          .executeTakeFirst();
        if (!row) return undefined;
        const incident = incidentOf(row);
        await enqueue(trx, alertMessage(incident, siteUrl), channels, now);
        return incident;
      });
      return afterCommit(opened);
    },

    async close(rule, subject, recovery, now) {
      const closed = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('incidents')
          .set({ closed_at: now, recovery })
          .where('rule', '=', rule)
          .where('subject', '=', subject)
          .where('closed_at', 'is', null)
          .returning(columns)
          .executeTakeFirst();
        if (!row) return undefined;
        const incident = incidentOf(row);
        await enqueue(trx, alertMessage(incident, siteUrl, { at: now, recovery }), channels, now);
        return incident;
      });
      return afterCommit(closed);
    },

    async recordPast(rule, subject, summary, openedAt, recovery, closedAt) {
      const recorded = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('incidents')
          .values({ rule, subject, opened_at: openedAt, closed_at: closedAt, summary, recovery })
          .returning(columns)
          .executeTakeFirstOrThrow();
        const incident = incidentOf(row);
        await enqueue(trx, alertMessage(incident, siteUrl, { at: closedAt, recovery }), channels, closedAt);
        return incident;
      });
      return afterCommit(recorded)!;
    },
  };
}
