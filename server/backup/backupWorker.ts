/**
 * The thread a running server makes its daily backup in (see dailyBackup.ts): the copy steps yield, but
 * the integrity check and the row counts are synchronous and take seconds on a large file, which in the
 * serving thread would hold up every page for as long.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorSummary } from '../lib/errorText';
import { backupSqlite, type BackupResult } from './sqliteBackup';

export interface BackupWorkerData {
  source: string;
  dir: string;
  /** The moment that names the copy's day, in milliseconds. */
  now: number;
}

export type BackupWorkerAnswer = { result: BackupResult } | { error: string };

const { source, dir, now } = workerData as BackupWorkerData;
backupSqlite({ source, dir, now: new Date(now), createDir: true }).then(
  (result) => parentPort!.postMessage({ result } satisfies BackupWorkerAnswer),
  (error: unknown) => parentPort!.postMessage({ error: errorSummary(error) } satisfies BackupWorkerAnswer),
);
