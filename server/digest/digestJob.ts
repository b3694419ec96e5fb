import type { Kysely } from 'kysely';
import { enqueue } from '../delivery/outbox';
import type { Schema } from '../db/schema';
import { claimJobRun, isJobRunClaimed } from '../jobs/jobRuns';
import { firstLine, messageOf } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import type { ReportReader } from '../reports/reportReader';
import { scheduledDigestWeek, type DigestSchedule } from './digestWeek';
import { oneAtATime } from '../lib/oneAtATime';

/** How often each instance looks whether the digest is due: a missed hour costs at most this much delay. */
export const digestCheckIntervalMs = 5 * 60_000;

export interface DigestJobOptions {
  db: Kysely<Schema>;
  /** Where the digest is read and written: the report worker, off the serving thread. */
  reports: Pick<ReportReader, 'readDigest'>;
  schedule: DigestSchedule;
  siteUrl: string;
  logger: Logger;
  /** While the database is down its own availability logs the outage once; the job then stays quiet. */
  availability?: { available: boolean };
  /** Called once the digest is enqueued and committed: wakes the outbox's sender. */
  enqueued?: () => void;
  now?: () => number;
}

/**
 * What a check did: 'sent' when this instance enqueued the week's digest; 'done' when the week's was
 * claimed already (by any instance, now or before); 'failed' when reading or enqueueing failed (the next
 * check tries again, the week still unclaimed).
 */
export type DigestCheck = { outcome: 'sent' | 'done' | 'failed'; period: string };

export interface DigestJob {
  /** One check, now (the schedule runs one every digestCheckIntervalMs, server/schedule/schedule.ts). Never throws; checks never overlap (a second call while one runs gets its result). */
  check(): Promise<DigestCheck>;
}

/**
 * The weekly digest, on every instance. Each check finds the digest due at this moment (the latest
 * scheduled day and hour, UTC; see digestWeek.ts) and, unless its week is claimed already, has the
 * report worker read and write it, then claims the week and enqueues the e-mail in one transaction:
 * whichever instance commits first sends it, and a claim never exists without its e-mail (nor the
 * e-mail without its claim). The outbox retries the delivery. A server that was down at the hour sends
 * it at its next check, the same seven days as it would have, and never a second time.
 */
export function createDigestJob(options: DigestJobOptions): DigestJob {
  const { db, reports, schedule, siteUrl, logger, availability, enqueued = () => {}, now = Date.now } = options;
  // The week this instance knows is claimed: later checks in it cost no query.
  let donePeriod: string | undefined;

  const run = async (): Promise<DigestCheck> => {
    const at = now();
    const week = scheduledDigestWeek(new Date(at), schedule);
    const { period } = week;
    if (donePeriod === period) return { outcome: 'done', period };
    try {
      if (await isJobRunClaimed(db, 'digest', period)) {
        donePeriod = period;
        return { outcome: 'done', period };
      }
      const message = await reports.readDigest(week, { siteUrl });
      const claimed = await db.transaction().execute(async (trx) => {
        if (!(await claimJobRun(trx, 'digest', period, new Date(at)))) return false;
        await enqueue(trx, message, ['email'], at);
        return true;
      });
      donePeriod = period;
      if (!claimed) return { outcome: 'done', period };
      logger.info(`Weekly digest of ${week.current.from} to ${week.current.to} enqueued for e-mail`);
      enqueued();
      return { outcome: 'sent', period };
    } catch (error) {
      if (availability?.available !== false) logger.error(`weekly digest not sent: ${firstLine(messageOf(error))}; the next check tries again`);
      return { outcome: 'failed', period };
    }
  };

  return { check: oneAtATime(run) };
}
