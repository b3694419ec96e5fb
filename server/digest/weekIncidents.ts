import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { ReportRange } from '../funnelReport/reportRange';
import { incidentOf, type Incident } from '../alerts/incidents';

/** How far before the week an incident that closed in it may have opened and still be found by the time index. */
export const incidentLookbackDays = 90;
/** More than a week of any site's incidents; a digest lists no more. */
export const maxDigestIncidents = 50;

const dayMs = 86_400_000;

/**
 * The week's incidents: those opened or closed in it, and those still open, oldest first. Two reads, each
 * bounded whatever the table's age: one on incidents_by_time over the week and the 90 days before it
 * (so an incident that closed in the week is found if it opened within that time, as /admin's alerts
 * overview finds its own), one on incidents_open (at most one open incident per rule and subject), for one open longer.
 */
export async function readWeekIncidents(db: Kysely<Schema>, { from, to }: ReportRange): Promise<Incident[]> {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + dayMs;
  const columns = ['id', 'rule', 'subject', 'opened_at', 'closed_at', 'summary', 'recovery'] as const;
  const [recent, open] = await Promise.all([
    db
      .selectFrom('incidents')
      .select(columns)
      .where('opened_at', '>=', start - incidentLookbackDays * dayMs)
      .where('opened_at', '<', end)
      .where((where) => where.or([where('closed_at', 'is', null), where('closed_at', '>=', start)]))
      .orderBy('opened_at', 'desc')
      .limit(maxDigestIncidents)
      .execute(),
    db
      .selectFrom('incidents')
      .select(columns)
      .where('closed_at', 'is', null)
      .where('opened_at', '<', start - incidentLookbackDays * dayMs)
      .orderBy('opened_at', 'desc')
      .limit(maxDigestIncidents)
      .execute(),
  ]);
  const byId = new Map([...open, ...recent].map((row) => [Number(row.id), row]));
  return [...byId.values()]
    .sort((a, b) => Number(a.opened_at) - Number(b.opened_at) || Number(a.id) - Number(b.id))
    .slice(-maxDigestIncidents)
    .map(incidentOf);
}
