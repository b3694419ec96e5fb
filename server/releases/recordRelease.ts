import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import { parseReleaseFiles, readReleaseFile, type ReleaseFile } from './releaseFile';
import { releaseNote } from './releaseNote';

/** How a release's stamp is written for people: its first twelve hex digits. */
export const shortStamp = (stamp: string) => stamp.slice(0, 12);

export interface RecordedRelease {
  /** True when this call wrote the row; false when an instance had recorded the release already (this one or another). */
  recorded: boolean;
  firstServedAt: Date;
  note: string;
}

/**
 * Records a release once: its stamp, when it was first served, its files, and a note of the content
 * and artwork changed since the release recorded before it (the newest by first_served_at with another
 * stamp). Several instances starting on the same build race to the same insert; `on conflict do
 * nothing` keeps the first row written, and each reads back the row that stands.
 */
export async function recordRelease(db: Kysely<Schema>, release: ReleaseFile, servedAt: Date): Promise<RecordedRelease> {
  const existing = await db.selectFrom('releases').select(['first_served_at', 'note']).where('stamp', '=', release.stamp).executeTakeFirst();
  if (existing) return { recorded: false, firstServedAt: new Date(Number(existing.first_served_at)), note: existing.note };
  const previous = await db
    .selectFrom('releases')
    .select('files')
    .where('stamp', '<>', release.stamp)
    .orderBy('first_served_at', 'desc')
    .orderBy('stamp')
    .limit(1)
    .executeTakeFirst();
  const previousFiles = previous && (parseReleaseFiles(safeJson(previous.files)) ?? {});
  const note = releaseNote(previousFiles, release.files);
  const result = await db
    .insertInto('releases')
    .values({ stamp: release.stamp, first_served_at: servedAt.getTime(), files: JSON.stringify(release.files), note })
    .onConflict((conflict) => conflict.column('stamp').doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return { recorded: true, firstServedAt: servedAt, note };
  // Another instance wrote it between the look and the insert: its row stands.
  const winner = await db.selectFrom('releases').select(['first_served_at', 'note']).where('stamp', '=', release.stamp).executeTakeFirstOrThrow();
  return { recorded: false, firstServedAt: new Date(Number(winner.first_served_at)), note: winner.note };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ReleaseRecorder {
  /** Records the release unless done already; never throws. Called at start-up and on every maintenance round until it succeeds. */
  record(): Promise<void>;
}

/**
 * The running instance's release, recorded at start-up; with the database down, the failure is logged
 * in one line and the next maintenance round (every 15 minutes) tries again, with the time the instance
 * started serving it. Nothing here can stop the site.
 */
export function createReleaseRecorder({ db, release, startedAt, logger }: { db: Kysely<Schema>; release: ReleaseFile; startedAt: Date; logger: Logger }): ReleaseRecorder {
  let done = false;
  let failures = 0;
  let running: Promise<void> | undefined;
  const attempt = async () => {
    try {
      const outcome = await recordRelease(db, release, startedAt);
      done = true;
      const served = outcome.firstServedAt.toISOString();
      logger.info(
        outcome.recorded
          ? `Release ${shortStamp(release.stamp)} recorded, first served ${served}: ${outcome.note}`
          : `Release ${shortStamp(release.stamp)} was first served ${served}`,
      );
    } catch (error) {
      failures += 1;
      // One line for the first failure: during an outage the database's own line says the rest.
      if (failures === 1) logger.error(`release ${shortStamp(release.stamp)} not recorded yet (${errorSummary(error)}); retried at the next maintenance round`);
    }
  };
  return {
    record() {
      if (done) return Promise.resolve();
      // Never two attempts at once from one instance (a slow database and the next round).
      running ??= attempt().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

/**
 * The recorder of the build in distDir, for start-up: undefined (and a line saying why) when the build
 * has no readable release.json, as a build from before releases were recorded.
 */
export function releaseRecorderOf(db: Kysely<Schema>, distDir: string, logger: Logger, startedAt: Date = new Date()): ReleaseRecorder | undefined {
  const read = readReleaseFile(distDir);
  if ('problem' in read) {
    logger.warning(`This release is not recorded: ${read.problem}`);
    return undefined;
  }
  return createReleaseRecorder({ db, release: read.release, startedAt, logger });
}
