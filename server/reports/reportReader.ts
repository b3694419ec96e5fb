import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { adminReportHtml, adminReportOptions, type AdminPageContext } from '../admin/adminHtml';
import type { DatabaseSettings } from '../db/databaseSettings';
import type { Schema } from '../db/schema';
import { readFunnelReport, type FunnelReport, type FunnelReportOptions } from '../funnelReport/funnelReport';
import { OpenDayCounter } from '../dayCounts/openDays';
import { readRawDayCounts, type DayCountsByDimension } from '../dayCounts/rawDayCounts';
import { reportRange, type ReportRange } from '../dayCounts/reportRange';
import { reportTimeoutMs, SlowReportError, tookTooLong } from '../funnelReport/slowReport';
import { distDir } from '../lib/paths';
import { isCancelledStatement } from './reportDatabase';
import type { OutboxMessage } from '../delivery/outbox';
import { readDigestContent, type DigestContext } from '../digest/digestContent';
import { digestMessage } from '../digest/digestMessage';
import type { DigestWeek } from '../digest/digestWeek';

/**
 * Where reports are read and their pages rendered: apart from where visits are recorded, as Plausible
 * keeps stats apart from ingestion. A report is bounded by the days and values it lists (see
 * server/funnelReport/), and still it runs where it cannot hold up a page: in a worker thread with a
 * database connection of its own (a read-only SQLite one, or a small PostgreSQL pool whose statements the
 * server stops), which also renders /admin, so the serving thread only sends the finished HTML.
 */
export interface ReportReader {
  readFunnel(range: ReportRange, options?: FunnelReportOptions): Promise<FunnelReport>;
  /** The /admin page of a range's report, as HTML. */
  readAdminPage(range: ReportRange, context: AdminPageContext): Promise<string>;
  /** The weekly digest of a week against the week before, written (HTML and text) where it was read (server/digest/). */
  readDigest(week: DigestWeek, context: DigestContext): Promise<OutboxMessage>;
  /** One day's counts from its raw rows, for closing the day (server/jobs/closeDays.ts). */
  readRawDay(day: string): Promise<DayCountsByDimension>;
  /**
   * At start-up: has the worker read and render the default range's page once and throw it away, so the
   * first /admin after a start or deploy finds the worker's code compiled and the open days counted. A
   * failure is ignored: /admin says what is wrong when it is asked for.
   */
  warmUp(): void;
  close(): Promise<void>;
}

/** At most this many reports wait for the worker; more are refused rather than queued without end. */
const maxQueuedReports = 8;

/** A cancelled statement (PostgreSQL past statement_timeout) is a slow report, not a failing database. */
function slowWhenCancelled(error: unknown, timeoutMs: number): never {
  if (isCancelledStatement(error)) throw new SlowReportError(tookTooLong(timeoutMs));
  throw error;
}

/**
 * Reads in this process, on the database given: in the worker, on its own connection; in tests without
 * a build, and in npm run stats, on the one open database. Keeps the open days' counts between reports.
 */
export function inProcessReportReader(db: Kysely<Schema>, { timeoutMs = reportTimeoutMs } = {}): ReportReader {
  const openDays = new OpenDayCounter();
  const readFunnel = (range: ReportRange, options?: FunnelReportOptions) => readFunnelReport(db, range, { ...options, openDays }).catch((error: unknown) => slowWhenCancelled(error, timeoutMs));
  return {
    readFunnel,
    readAdminPage: async (range, context) => adminReportHtml({ ...context, report: await readFunnel(range, adminReportOptions) }),
    readDigest: async (week, context) => digestMessage(await readDigestContent(db, readFunnel, week, context)),
    readRawDay: (day) => readRawDayCounts(db, day).catch((error: unknown) => slowWhenCancelled(error, timeoutMs)),
    // In this process (tests, scripts) there is nothing to warm: a command reads one report and ends.
    warmUp: () => {},
    close: async () => {},
  };
}

type ReportQuestion =
  | { kind: 'funnel'; range: ReportRange; options?: FunnelReportOptions }
  | { kind: 'adminPage'; range: ReportRange; context: AdminPageContext }
  | { kind: 'digest'; week: DigestWeek; context: DigestContext }
  | { kind: 'rawDay'; day: string };
export type ReportRequest = ReportQuestion & { id: number };
export type ReportResponse = { id: number; result: unknown } | { id: number; error: string; code?: string; slow: boolean };
/** What the worker is started with. */
export interface ReportWorkerData {
  settings: DatabaseSettings;
  timeoutMs: number;
}

/**
 * An error the worker met, as this thread sees it: its message and code (a driver's, such as
 * ECONNREFUSED), and no stack, since this thread's frames say nothing of where it happened.
 */
function workerError(message: string, code: string | undefined): Error {
  const error = Object.assign(new Error(message), code === undefined ? {} : { code });
  error.stack = `Error: ${message}`;
  return error;
}

/** The built worker: bundled by build.ts next to dist/server/main.cjs. */
export const reportWorkerFile = path.join(distDir, 'server', 'reportWorker.cjs');

/**
 * Reads in a worker thread, started at the first report and kept. A report still running after
 * timeoutMs (on PostgreSQL, a little after: the server stops the statement first) ends the worker, the
 * only way to stop a synchronous SQLite query, and is refused with SlowReportError; the next report
 * starts a fresh worker.
 */

/**
 * V8 sizes the main thread's heap from a memory limit (a cgroup's, as systemd's MemoryMax sets), but a
 * worker thread's from the machine's memory: under 256 MB on a machine of several GB, the report worker
 * let garbage build up to gigabytes' worth of heap before collecting, and closing a year of days at
 * start-up grew it past the limit until the kernel killed the site. Under a limit, the worker's heap is
 * bounded to a share of it, so it collects in time; without one, V8's own sizing stands. The young
 * generation, where a report's short-lived rows and elements are made and die, gets a sixteenth of the
 * limit (16 MB of 256): at a thirty-second, more of one report's garbage was promoted and collected
 * again as old. On the volume bench's SQLite file in 256 MB, alternating runs put /admin for 30 days at a
 * median of 105-118 ms with 8 MB, 90-92 with 16 and 100 with 32, at the same peak memory (140-160 MB).
 */
function workerLimits(): { resourceLimits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } } {
  const limit = process.constrainedMemory?.() ?? 0;
  const megabytes = Math.floor(limit / 1024 / 1024);
  if (megabytes <= 0 || megabytes >= 4096) return {};
  return { resourceLimits: { maxOldGenerationSizeMb: Math.max(48, Math.floor(megabytes * 0.375)), maxYoungGenerationSizeMb: Math.max(4, Math.floor(megabytes / 16)) } };
}

export function workerReportReader(settings: DatabaseSettings, { timeoutMs = reportTimeoutMs, workerFile = reportWorkerFile } = {}): ReportReader {
  const stopAfterMs = settings.engine === 'postgres' ? timeoutMs + 5_000 : timeoutMs;
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
    const started = new Worker(workerFile, { workerData: { settings, timeoutMs } satisfies ReportWorkerData, ...workerLimits() });
    started.unref();
    started.on('message', (response: ReportResponse) => {
      const request = pending.get(response.id);
      if (!request) return;
      pending.delete(response.id);
      clearTimeout(request.timer);
      if ('error' in response) request.reject(response.slow ? new SlowReportError(response.error) : workerError(response.error, response.code));
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
        reject(new SlowReportError(tookTooLong(timeoutMs)));
        // A SQLite query cannot be interrupted in its thread: end the thread. Its other reports fail with it.
        if (worker === running) worker = undefined;
        void running.terminate();
      }, stopAfterMs);
      pending.set(id, { worker: running, resolve: resolve as (value: unknown) => void, reject, timer });
      running.postMessage({ ...request, id });
    });
  };
  return {
    readFunnel: (range, options) => ask<FunnelReport>({ kind: 'funnel', range, options }),
    readAdminPage: (range, context) => ask<string>({ kind: 'adminPage', range, context }),
    readDigest: (week, context) => ask<OutboxMessage>({ kind: 'digest', week, context }),
    readRawDay: (day) => ask<DayCountsByDimension>({ kind: 'rawDay', day }),
    warmUp: () => void ask<string>({ kind: 'adminPage', range: reportRange({}), context: { linkHealth: undefined, affiliateUrl: '' } }).catch(() => {}),
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}

/**
 * The reader for the server's database: a worker (in this process when the worker is not built, as
 * under the test runner without a build, or for an in-memory SQLite database no other connection sees).
 */
export function openReportReader(settings: DatabaseSettings, db: Kysely<Schema>): ReportReader {
  if ((settings.engine === 'sqlite' && settings.file === ':memory:') || !existsSync(reportWorkerFile)) return inProcessReportReader(db);
  return workerReportReader(settings.engine === 'sqlite' ? { ...settings, file: path.resolve(settings.file) } : settings);
}
