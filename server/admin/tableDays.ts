import type { FunnelReport } from '../funnelReport/funnelReport';

/**
 * The day-by-day tables show at most this many days, the newest: a year of rows (and a year of each day's
 * sources) made /admin over 600 KB and a quarter of a second of rendering in the serving process, for a
 * table no one reads that far. The charts still show every day; npm run stats -- --csv or --json has them all.
 */
export const maxTableDays = 31;

type Day = FunnelReport['days'][number];

/** The newest days with something in them, at most maxTableDays, newest first; and how many more there were. */
export function tableDays(report: FunnelReport, active: (day: Day) => boolean): { shown: Day[]; more: number } {
  const days = report.days.toReversed().filter(active);
  return { shown: days.slice(0, maxTableDays), more: Math.max(0, days.length - maxTableDays) };
}

/** The line under a table that left older days out. */
export function moreDaysNote(more: number): string {
  return `${more} older ${more === 1 ? 'day is' : 'days are'} not shown here: npm run stats -- --csv or --json lists every day.`;
}
