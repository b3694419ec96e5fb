import type { ReportRange } from '../dayCounts/reportRange';
import { addDays, dayMs, dayStart, utcDay } from '../lib/utcDay';

/** When the digest goes out: a day of the week (0 is Sunday, as Date.getUTCDay) and an hour, UTC. */
export interface DigestSchedule {
  day: number;
  hour: number;
}

/** The seven days a digest reports and the seven before them, and the week it is claimed under. */
export interface DigestWeek {
  /** The ISO week the digest is sent in, e.g. 2026-W04: what claimJobRun('digest', …) claims. */
  period: string;
  current: ReportRange;
  previous: ReportRange;
}

const hourMs = 3_600_000;

/** The ISO 8601 week of a UTC day, e.g. 2026-W01 (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7;
  // The Thursday of the same week decides the year and the week's number.
  const thursday = new Date(date.getTime() + (3 - weekday) * dayMs);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * dayMs));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The latest moment the schedule names at or before now: the digest that is due, sent or not. */
export function latestSendingTime(now: Date, { day, hour }: DigestSchedule): Date {
  const today = dayStart(utcDay(now));
  const daysBack = (now.getUTCDay() - day + 7) % 7;
  const candidate = today - daysBack * dayMs + hour * hourMs;
  return new Date(candidate <= now.getTime() ? candidate : candidate - 7 * dayMs);
}

/** The digest of the seven complete days ending on lastDay, against the seven before. */
export function weekEnding(lastDay: string, period: string): DigestWeek {
  const from = addDays(lastDay, -6);
  return { period, current: { from, to: lastDay }, previous: { from: addDays(from, -7), to: addDays(from, -1) } };
}

/**
 * The digest due at now: the seven complete days before the latest scheduled moment, claimed under that
 * moment's ISO week. Sent late (the server was down at the hour), it still reports the same days, and
 * its week is claimed once whenever it goes; a week the servers missed entirely is followed by the next.
 */
export function scheduledDigestWeek(now: Date, schedule: DigestSchedule): DigestWeek & { due: Date } {
  const due = latestSendingTime(now, schedule);
  const sendingDay = utcDay(due);
  return { ...weekEnding(addDays(sendingDay, -1), isoWeek(sendingDay)), due };
}

/** The last seven complete UTC days before now (for npm run digest). */
export function lastCompleteWeek(now: Date): DigestWeek {
  const today = utcDay(now);
  return weekEnding(addDays(today, -1), isoWeek(today));
}
