import { dayMs, dayStart } from '../lib/utcDay';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { ReportRange } from '../dayCounts/reportRange';
import { readClosedIncidents, readOpenIncidents, type Incident } from '../alerts/incidents';

/** More than a week of any site's incidents; a digest lists no more. */
export const maxDigestIncidents = 50;

/**
 * The week's incidents, oldest first: those closed in it or after it that opened before it ended (the
 * same read as /admin's last 30 days), and those still open that opened before it ended. Each read is
 * bounded whatever the table's age (see server/alerts/incidents.ts).
 */
export async function readWeekIncidents(db: Kysely<Schema>, { from, to }: ReportRange): Promise<Incident[]> {
  const start = dayStart(from);
  const end = dayStart(to) + dayMs;
  const [closed, open] = await Promise.all([readClosedIncidents(db, { start, end, limit: maxDigestIncidents }), readOpenIncidents(db)]);
  return [...closed, ...open.filter((incident) => incident.openedAt < end)]
    .sort((a, b) => a.openedAt - b.openedAt || a.id - b.id)
    .slice(-maxDigestIncidents);
}
