import { dayMs, dayStart } from '../lib/utcDay';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { readClosedIncidents, readIncidentsOpenedIn, readOpenIncidents, type Incident } from './incidents';
import type { ReportRange } from '../dayCounts/reportRange';
import type { ChannelName } from '../delivery/deliveryChannel';
import { deliveriesOf, type Delivery } from '../delivery/outbox';

/** /admin lists the alerts of this many days. */
export const overviewDays = 30;
/** And at most this many incidents: far more than a month of any working site's. */
export const maxOverviewIncidents = 200;
export interface IncidentWithDeliveries extends Incident {
  /** Its outbox rows: the alert's and the recovery's, one per channel. */
  deliveries: Delivery[];
}

/** What /admin's Alerts section shows; plain data, so it can be handed to the report worker that renders the page. */
export interface AlertsOverview {
  /** The channels configured; none when alerts are off (incidents are still recorded). */
  channels: ChannelName[];
  /** Open now, oldest first. */
  open: IncidentWithDeliveries[];
  /** Opened or closed in the last 30 days and closed now, newest first. */
  recent: IncidentWithDeliveries[];
  /** True when more than maxOverviewIncidents matched and the oldest were left out. */
  truncated: boolean;
  /** The incidents opened in the report's range (UTC days), newest first, at most maxOverviewIncidents: the main chart's marks. */
  inRange: Incident[];
}

/**
 * The open incidents and the last 30 days', with each one's deliveries, and those opened in a report's
 * range for its chart. Four reads, each bounded whatever the tables' age: the open ones (incidents_open),
 * the closed ones under way in the 30 days (incidents_by_time, see readClosedIncidents), the range's (the
 * same index), and their outbox rows (outbox_by_incident).
 */
export async function readAlertsOverview(db: Kysely<Schema>, channels: readonly ChannelName[], now: number, range?: ReportRange): Promise<AlertsOverview> {
  const since = now - overviewDays * dayMs;
  // One more than shown, to tell whether any were left out.
  const [open, closed, inRange] = await Promise.all([
    readOpenIncidents(db, maxOverviewIncidents),
    readClosedIncidents(db, { start: since, limit: maxOverviewIncidents + 1 }),
    range ? readIncidentsOpenedIn(db, { start: dayStart(range.from), end: dayStart(range.to) + dayMs, limit: maxOverviewIncidents }) : [],
  ]);
  const recent = closed.slice(0, maxOverviewIncidents);
  const deliveries = await deliveriesOf(db, [...open, ...recent].map((incident) => incident.id));
  const byIncident = new Map<number, Delivery[]>();
  for (const delivery of deliveries) byIncident.set(delivery.incidentId, [...(byIncident.get(delivery.incidentId) ?? []), delivery]);
  const withDeliveries = (incident: Incident): IncidentWithDeliveries => ({ ...incident, deliveries: byIncident.get(incident.id) ?? [] });
  return { channels: [...channels], open: open.map(withDeliveries), recent: recent.map(withDeliveries), truncated: closed.length > maxOverviewIncidents, inRange };
}
