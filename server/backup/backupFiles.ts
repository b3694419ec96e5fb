import { addDays, dayStart, isDay } from '../lib/utcDay';

/** A backup's file name: one per UTC day, so a second backup the same day replaces the first. */
export const backupFileName = (day: string): string => `clicks-${day}.sqlite`;

const backupNamePattern = /^clicks-(\d{4}-\d{2}-\d{2})\.sqlite$/;

/** The day a backup's file name holds, or undefined for any other file (which retention never touches). */
export function backupDay(name: string): string | undefined {
  const day = backupNamePattern.exec(name)?.[1];
  return day !== undefined && isDay(day) ? day : undefined;
}

/** How many copies are kept: the newest 7 (one a day), then the newest of each of 4 weeks before them. */
export const keptDaily = 7;
export const keptWeekly = 4;

/** The Monday (UTC) of a day's ISO week. */
function weekOf(day: string): string {
  const weekday = (new Date(dayStart(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/**
 * Which backups of a folder to delete, from its file names: the newest `daily` copies are kept, and of the
 * older ones the newest copy of each week (Monday to Sunday, UTC) for the `weekly` newest such weeks; the
 * rest go. Only names of the form clicks-YYYY-MM-DD.sqlite count; every other file is left alone.
 */
export function backupsToPrune(names: readonly string[], { daily = keptDaily, weekly = keptWeekly } = {}): string[] {
  const days = [...new Set(names.map(backupDay).filter((day): day is string => day !== undefined))].sort().reverse();
  const kept = new Set(days.slice(0, daily));
  const weeks = new Set<string>();
  for (const day of days.slice(daily)) {
    const week = weekOf(day);
    if (weeks.has(week) || weeks.size >= weekly) continue;
    weeks.add(week);
    kept.add(day);
  }
  return days.filter((day) => !kept.has(day)).map(backupFileName);
}
