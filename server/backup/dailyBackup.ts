import { existsSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../lib/logger';
import { distDir } from '../lib/paths';
import { utcDay } from '../lib/utcDay';
import { backupFileName, keptDaily, keptWeekly } from './backupFiles';
import type { BackupWorkerAnswer, BackupWorkerData } from './backupWorker';
import { backupSqlite, type BackupResult } from './sqliteBackup';

/** How often the server looks whether today's copy is made: within an hour of midnight UTC, and at every start. */
export const backupCheckIntervalMs = 3_600_000;

/** The built worker: bundled by build.ts next to dist/server/main.cjs. */
export const backupWorkerFile = path.join(distDir, 'server', 'backupWorker.cjs');

export interface DailyBackupOptions {
  /** The SQLite file (CLICKS_DB). */
  source: string;
  /** BACKUP_DIR. */
  dir: string;
  logger: Logger;
  /** The clock that names the day; tests move it with the schedule's. */
  now?: () => number;
  /** Unbuilt (the test runner before a build), the backup runs in this thread. */
  workerFile?: string;
}

function inWorker(workerFile: string, data: BackupWorkerData): Promise<BackupResult> {
  const worker = new Worker(workerFile, { workerData: data });
  return new Promise<BackupResult>((resolve, reject) => {
    worker.once('message', (answer: BackupWorkerAnswer) => ('error' in answer ? reject(new Error(answer.error)) : resolve(answer.result)));
    worker.once('error', reject);
    void once(worker, 'exit').then(() => reject(new Error('the backup thread stopped')));
  });
}

/**
 * The server's own backup (BACKUP_DIR): once each UTC day, the first look after midnight (or the first
 * start that day) copies CLICKS_DB into BACKUP_DIR/clicks-YYYY-MM-DD.sqlite, checked, and prunes the
 * older copies, off the serving thread. A day that has its copy already is left alone, so a restart does
 * not copy twice. SQLite only: one instance, so there is nothing to claim across instances.
 */
export function createDailyBackup({ source, dir, logger, now = Date.now, workerFile = backupWorkerFile }: DailyBackupOptions) {
  return {
    /** Today's copy, unless there is one: the path written, or undefined when it was there already. A failure rejects (the schedule logs it). */
    async run(): Promise<string | undefined> {
      const at = now();
      if (existsSync(path.join(dir, backupFileName(utcDay(new Date(at)))))) return undefined;
      const result = existsSync(workerFile) ? await inWorker(workerFile, { source, dir, now: at }) : await backupSqlite({ source, dir, now: new Date(at), createDir: true });
      const rows = Object.values(result.counts).reduce((sum, count) => sum + count, 0);
      const pruned = result.pruned.length ? `; removed ${result.pruned.join(', ')} (keeping ${keptDaily} daily and ${keptWeekly} weekly copies)` : '';
      logger.info(`Backed up ${source} to ${result.file} (integrity ok, ${rows} rows in ${Object.keys(result.counts).length} tables as in the database)${pruned}`);
      return result.file;
    },
  };
}
