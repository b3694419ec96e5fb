import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { filteredBeacons, filterReasons, type FilteredBeacon, type FilterReason } from '../dayCounts/filterReasons';
import type { ReportRange } from '../dayCounts/reportRange';

/** Page views, clicks and leave reports not counted, for one reason or for all. */
export interface FilteredFigures {
  views: number;
  clicks: number;
  leaves: number;
}

/** Each beacon's figure. */
const figureOf: Record<FilteredBeacon, keyof FilteredFigures> = { view: 'views', click: 'clicks', leave: 'leaves' };
const noFigures = (): FilteredFigures => ({ views: 0, clicks: 0, leaves: 0 });

/** The figures per reason, every reason in filterReasons' order, zeros included. */
export type FilteredByReason = Record<FilterReason, FilteredFigures>;

/**
 * The beacons' reports that were not counted (server/dayCounts/filterReasons.ts), as filtered_counts holds
 * them: a day, a beacon, a reason and a number, nothing about who sent them. The last few seconds before a
 * report are still in the instances' memory (server/beacons/filteredCounter.ts).
 */
export interface FilteredCounts extends FilteredFigures {
  /** Over the range. */
  reasons: FilteredByReason;
  /** The days of the range on which anything was not counted, oldest first; the other days had none. */
  days: ({ day: string; reasons: FilteredByReason } & FilteredFigures)[];
}

const byReason = (): FilteredByReason => Object.fromEntries(filterReasons.map((reason) => [reason, noFigures()])) as FilteredByReason;

/**
 * A range's filtered counts: at most 24 rows a day (three beacons, eight reasons) read by the primary key's
 * leading day, so a range's cost follows its days (at most maxReportDays), never the traffic behind them.
 */
export async function readFilteredCounts(db: Kysely<Schema>, range: ReportRange): Promise<FilteredCounts> {
  const rows = await db
    .selectFrom('filtered_counts')
    .select(['day', 'beacon', 'reason', 'count'])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .where('beacon', 'in', [...filteredBeacons])
    .where('reason', 'in', [...filterReasons])
    .orderBy('day')
    .execute();
  const report: FilteredCounts = { ...noFigures(), reasons: byReason(), days: [] };
  const days = new Map<string, FilteredCounts['days'][number]>();
  for (const row of rows) {
    // PostgreSQL returns a bigint as text.
    const count = Number(row.count);
    const figure = figureOf[row.beacon as FilteredBeacon];
    const reason = row.reason as FilterReason;
    let day = days.get(row.day);
    if (!day) {
      day = { day: row.day, ...noFigures(), reasons: byReason() };
      days.set(row.day, day);
      report.days.push(day);
    }
    day[figure] += count;
    day.reasons[reason][figure] += count;
    report[figure] += count;
    report.reasons[reason][figure] += count;
  }
  return report;
}
