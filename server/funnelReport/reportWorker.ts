/**
 * The worker thread that reads reports from a SQLite file (see reportReader.ts). better-sqlite3 runs
 * every query synchronously, so a year's report read in the serving thread would hold up every page
 * for as long as it takes; here it holds up only this thread. It opens the file read-only: WAL lets it
 * read while the serving thread writes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Schema } from '../db/schema';
import { inProcessReportReader, type ReportRequest, type ReportResponse } from './reportReader';

const { file } = workerData as { file: string };
const database = new BetterSqlite(file, { readonly: true, fileMustExist: true });
database.pragma('busy_timeout = 5000');
const reader = inProcessReportReader(new Kysely<Schema>({ dialect: new SqliteDialect({ database }) }));

parentPort!.on('message', (request: ReportRequest) => {
  const answer = request.kind === 'funnel' ? reader.readFunnel(request.range, request.options) : reader.readRawDay(request.day);
  void (answer as Promise<unknown>).then(
    (result) => parentPort!.postMessage({ id: request.id, result } satisfies ReportResponse),
    (error: unknown) => parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ReportResponse),
  );
});
