import { flushIntervalMs } from '../beacons/filteredCounter';
import { outboxPollMs } from '../delivery/outboxSender';
import { digestCheckIntervalMs } from '../digest/digestJob';
import { maintenanceIntervalMs } from '../jobs/maintenance';
import { watchTickMs } from '../alerts/watch';
import { backupCheckIntervalMs } from '../backup/dailyBackup';
import type { ScheduledTask } from './runSchedule';

/** How often the SQLite file's identity is looked at without traffic: a removed or replaced file is logged within this. */
export const databaseFileCheckMs = 2_000;

/** The work a running instance has to schedule, each part present only when configured. */
export interface ScheduledWork {
  /** With the statistics database (CLICK_STATS on). */
  statistics?: {
    maintain(): Promise<unknown>;
    /** This build recorded as a release; a no-op once done (server/releases/). */
    recordRelease?(): Promise<unknown>;
    flushFiltered(): Promise<unknown>;
    /** The alert watch's look (server/alerts/watch.ts): this instance's database rule, then the rules that read the database. */
    watch(): Promise<unknown>;
    /** With e-mail set and DIGEST_DAY not off. */
    checkDigest?(): Promise<unknown>;
    /** With a webhook or e-mail set: the outbox's sender (server/delivery/). */
    sendOutbox?(): Promise<unknown>;
    /** SQLite: whether the file at CLICKS_DB is still the one open (server/db/sqliteFileGuard.ts); a stat, so often. */
    checkDatabaseFile?(): void;
  };
  /** Unless LINK_CHECK_HOURS is off, with or without the database: each run looks whether a check is due (server/linkHealth/linkMonitor.ts). */
  linkCheck?: { everyMs: number; run(): Promise<unknown> };
  /** Unless CLAIMS_CHECK_HOURS is off, with the database: each run looks whether a check of the claims is due (server/claims/claimsWatch.ts). */
  claimsCheck?: { everyMs: number; run(): Promise<unknown> };
  /** With BACKUP_DIR set (SQLite only): today's copy of CLICKS_DB, unless made already (server/backup/dailyBackup.ts). */
  backup?(): Promise<unknown>;
}

/**
 * Every timer of a running instance, on one screen (server/backgroundWork.ts builds the work and starts
 * this; runSchedule.ts runs it). None overlaps itself, none keeps the process alive, none runs long work
 * on the serving thread. A new timer is a line here (and its part of ScheduledWork).
 */
export function instanceSchedule({ statistics: s, linkCheck, claimsCheck, backup }: ScheduledWork): ScheduledTask[] {
  const table: (ScheduledTask | false | undefined)[] = [
    s && { name: 'maintenance', everyMs: maintenanceIntervalMs, atStart: true, claim: { job: 'fold', per: 'UTC day' }, run: s.maintain },
    s?.recordRelease && { name: 'recording the release', everyMs: maintenanceIntervalMs, atStart: true, run: s.recordRelease },
    s && { name: 'writing the filtered counts', everyMs: flushIntervalMs, atStart: false, run: s.flushFiltered },
    s?.sendOutbox && { name: 'the outbox sender', everyMs: outboxPollMs, atStart: true, run: s.sendOutbox },
    s?.checkDigest && { name: 'the weekly digest', everyMs: digestCheckIntervalMs, atStart: true, claim: { job: 'digest', per: 'ISO week' }, run: s.checkDigest },
    s?.checkDatabaseFile && { name: 'the database file check', everyMs: databaseFileCheckMs, atStart: false, run: async () => s.checkDatabaseFile!() },
    s && { name: 'the alert watch', everyMs: watchTickMs, atStart: true, claim: { job: 'watch', per: '5-minute period' }, run: s.watch },
    backup && { name: 'the daily backup', everyMs: backupCheckIntervalMs, atStart: true, run: backup },
    linkCheck && { name: 'the link check', everyMs: linkCheck.everyMs, atStart: true, claim: { job: 'link-check', per: 'due check (start-up, LINK_CHECK_HOURS, re-check)' }, run: linkCheck.run },
    claimsCheck && { name: 'the claims check', everyMs: claimsCheck.everyMs, atStart: true, claim: { job: 'claims-check', per: 'due check (CLAIMS_CHECK_HOURS, a claim not verified every 15 min)' }, run: claimsCheck.run },
  ];
  return table.filter((task): task is ScheduledTask => Boolean(task));
}
