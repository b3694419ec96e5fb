import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Kysely, PostgresDialect } from 'kysely';
import type { DatabaseSettings } from '../db/databaseSettings';
import { postgresPool } from '../db/openDatabase';
import type { Schema } from '../db/schema';
import { distDir } from '../paths';
import { OpenDayCounter } from './openDays';
import { readRawDayCounts, type DayCounts } from './rawDayCounts';
import { readFunnelReport, type FunnelReport, type FunnelReportOptions } from './funnelReport';
import type { ReportRange } from './reportRange';

/**
 * Where reports are read: apart from where visits are recorded, as Plausible keeps stats apart from
 * ingestion. A report is bounded by the days and values it lists (see funnelQueries.ts), and still it
 * runs where it cannot hold up a page: SQLite in a worker thread with a read-only connection of its own,
 * PostgreSQL on a small pool of its own whose queries the server stops after reportTimeoutMs.
 */
export interface ReportReader {
  readFunnel(range: ReportRange, options?: FunnelReportOptions): Promise<FunnelReport>;
  /** One day's counts from its raw rows, for closing the day (server/jobs/closeDays.ts). */
  readRawDay(day: string): Promise<DayCounts>;
  close(): Promise<void>;
}

/** How long a report may take before it is stopped: far beyond what a bounded report needs. */
export const reportTimeoutMs = 20_000;

/** At most this many reports wait for the SQLite worker; more are refused rather than queued without end. */
const maxQueuedReports = 8;

/** A report was stopped because it took too long, or too many were asked for at once: not an outage. */
export class SlowReportError extends Error {
  override name = 'SlowReportError';
}

/** Reads in this process, on the database given: tests' in-memory SQLite, and npm run stats. */
export function inProcessReportReader(db: Kysely<Schema>): ReportReader {
  const openDays = new OpenDayCounter();
  return {
    readFunnel: (range, options) => readFunnelReport(db, range, { ...options, openDays }),
    readRawDay: (day) => readRawDayCounts(db, day),
    close: async () => {},
  };
}

type ReportQuestion = { kind: 'funnel'; range: ReportRange; options?: FunnelReportOptions } | { kind: 'rawDay'; day: string };
export type ReportRequest = ReportQuestion & { id: number };
export type ReportResponse = { id: number; result: unknown } | { id: number; error: string };

/** The built worker: bundled by build.ts next to dist/server/main.cjs. */
export const reportWorkerFile = path.join(distDir, 'server', 'reportWorker.cjs');

/**
 * Reads a SQLite file in a worker thread, started at the first report and kept. A report still running
 * after reportTimeoutMs ends the worker (the only way to stop a synchronous query) and is refused with
 * SlowReportError; the next report starts a fresh worker.
 */
export function workerReportReader(file: string, { timeoutMs = reportTimeoutMs, workerFile = reportWorkerFile } = {}): ReportReader {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { worker: Worker; resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();

  /** Fails the reports a worker was reading: an ended worker's, never those a fresh one has taken since. */
  const failAll = (ended: Worker, error: Error) => {
    for (const [id, request] of pending) {
      if (request.worker !== ended) continue;
      clearTimeout(request.timer);
      pending.delete(id);
      request.reject(error);
    }
  };
  const start = (): Worker => {
    const started = new Worker(workerFile, { workerData: { file } });
    started.unref();
    started.on('message', (response: ReportResponse) => {
      const request = pending.get(response.id);
      if (!request) return;
      pending.delete(response.id);
      clearTimeout(request.timer);
      if ('error' in response) request.reject(new Error(response.error));
      else request.resolve(response.result);
    });
    started.on('error', (error) => failAll(started, error));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll(started, new Error('the report worker stopped'));
    });
    return started;
  };
  const ask = <T>(request: ReportQuestion): Promise<T> => {
    if (pending.size >= maxQueuedReports) return Promise.reject(new SlowReportError(`${maxQueuedReports} reports are already being read; try again in a moment`));
    worker ??= start();
    const id = nextId++;
    const running = worker;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new SlowReportError(`the report took longer than ${timeoutMs / 1000} s and was stopped; try a shorter range`));
        // The query cannot be interrupted in its thread: end the thread. Its other reports fail with it.
        if (worker === running) worker = undefined;
        void running.terminate();
      }, timeoutMs);
      pending.set(id, { worker: running, resolve: resolve as (value: unknown) => void, reject, timer });
      running.postMessage({ ...request, id });
    });
  };
  return {
    readFunnel: (range, options) => ask<FunnelReport>({ kind: 'funnel', range, options }),
    readRawDay: (day) => ask<DayCounts>({ kind: 'rawDay', day }),
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}

/** PostgreSQL's code for a statement the server cancelled (here: past statement_timeout). */
const queryCanceled = '57014';

/** Reads PostgreSQL on a pool of two connections of its own, whose statements the server stops after timeoutMs. */
export function postgresReportReader(url: string, { timeoutMs = reportTimeoutMs } = {}): ReportReader {
  // work_mem: counting a busy day's distinct visitors per value sorts its raw rows, which spilled to disk
  // past PostgreSQL's default 4 MB; a report's two connections may use 64 MB each instead.
  const pool = postgresPool(url, { max: 2, statement_timeout: timeoutMs, application_name: 'auctions-guide reports', options: '-c work_mem=64MB' });
  // An idle connection that the server closes emits 'error'; the next report simply takes a new one.
  pool.on('error', () => {});
  const reader = inProcessReportReader(new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }));
  const slow = (error: unknown): never => {
    if ((error as { code?: unknown }).code === queryCanceled) throw new SlowReportError(`the report took longer than ${timeoutMs / 1000} s and was stopped; try a shorter range`);
    throw error;
  };
  return {
    readFunnel: (range, options) => reader.readFunnel(range, options).catch(slow),
    readRawDay: (day) => reader.readRawDay(day).catch(slow),
    close: () => pool.end(),
  };
}

/**
 * The reader for the server's database: a worker for a SQLite file (in this process when the worker is
 * not built, as under the test runner without a build, or for ':memory:'), a pool of its own for PostgreSQL.
 */
export function openReportReader(settings: DatabaseSettings, db: Kysely<Schema>): ReportReader {
  if (settings.engine === 'postgres') return postgresReportReader(settings.url);
  if (settings.file === ':memory:' || !existsSync(reportWorkerFile)) return inProcessReportReader(db);
  return workerReportReader(path.resolve(settings.file));
}
