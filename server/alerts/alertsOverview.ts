import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { AlertChannel } from './alertTypes';
import { incidentOf, type Incident } from './incidents';
import { deliveriesOf, type Delivery } from './outbox';

/** /admin lists the alerts of this many days. */
export const overviewDays = 30;
/** And at most this many incidents: far more than a month of any working site's. */
export const maxOverviewIncidents = 200;
/** How long before the 30 days an incident that closed within them may have opened and still be found on incidents_by_time. */
const lookbackDays = 90;

const dayMs = 86_400_000;

export interface IncidentWithDeliveries extends Incident {
  /** Its outbox rows: the alert's and the recovery's, one per channel. */
  deliveries: Delivery[];
}

/** What /admin's Alerts section shows; plain data, so it can be handed to the report worker that renders the page. */
export interface AlertsOverview {
  /** The channels configured; none when alerts are off (incidents are still recorded). */
  channels: AlertChannel[];
  /** Open now, oldest first. */
  open: IncidentWithDeliveries[];
  /** Opened or closed in the last 30 days and closed now, newest first. */
  recent: IncidentWithDeliveries[];
  /** True when more than maxOverviewIncidents matched and the oldest were left out. */
  truncated: boolean;
}

const columns = ['id', 'rule', 'subject', 'opened_at', 'closed_at', 'summary', 'recovery'] as const;

/**
 * The open incidents and the last 30 days', with each one's deliveries. Three reads, each bounded
 * whatever the tables' age: the open ones (incidents_open), those opened in the 30 days and the 90
 * before them that are closed and were opened or closed within the 30 days (incidents_by_time), and
 * their outbox rows (outbox_by_incident).
 */
export async function readAlertsOverview(db: Kysely<Schema>, channels: readonly AlertChannel[], now: number): Promise<AlertsOverview> {
  const since = now - overviewDays * dayMs;
  const [openRows, closedRows] = await Promise.all([
    db.selectFrom('incidents').select(columns).where('closed_at', 'is', null).orderBy('opened_at').limit(maxOverviewIncidents).execute(),
    db
      .selectFrom('incidents')
      .select(columns)
      .where('opened_at', '>=', since - lookbackDays * dayMs)
      .where('closed_at', 'is not', null)
      .where((where) => where.or([where('opened_at', '>=', since), where('closed_at', '>=', since)]))
      .orderBy('opened_at', 'desc')
      .limit(maxOverviewIncidents + 1)
      .execute(),
  ]);
  const open = openRows.map(incidentOf);
  const recent = closedRows.slice(0, maxOverviewIncidents).map(incidentOf);
  const deliveries = await deliveriesOf(db, [...open, ...recent].map((incident) => incident.id));
  const byIncident = new Map<number, Delivery[]>();
  for (const delivery of deliveries) byIncident.set(delivery.incidentId, [...(byIncident.get(delivery.incidentId) ?? []), delivery]);
  const withDeliveries = (incident: Incident): IncidentWithDeliveries => ({ ...incident, deliveries: byIncident.get(incident.id) ?? [] });
  return { channels: [...channels], open: open.map(withDeliveries), recent: recent.map(withDeliveries), truncated: closedRows.length > maxOverviewIncidents };
}
