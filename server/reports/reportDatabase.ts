import BetterSqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseSettings } from '../db/databaseSettings';
import { keepingStatements } from '../db/keptStatements';
import { postgresPool } from '../db/openDatabase';
import type { Schema } from '../db/schema';

/** PostgreSQL's code for a statement the server cancelled (here: past statement_timeout). */
const queryCanceled = '57014';

export const isCancelledStatement = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === queryCanceled;

/**
 * The report worker's own connection: SQLite read-only (WAL lets it read while the serving thread
 * writes), or a pool of three PostgreSQL connections whose statements the server stops after timeoutMs.
 */
export function openReportDatabase(settings: DatabaseSettings, timeoutMs: number): Kysely<Schema> {
  if (settings.engine === 'sqlite') {
    const database = new BetterSqlite(settings.file, { readonly: true, fileMustExist: true });
    database.pragma('busy_timeout = 5000');
    return new Kysely<Schema>({ dialect: new SqliteDialect({ database: keepingStatements(database) }) });
  }
  // Three connections: a report's reads are many and short, and while this thread turns one's rows into
  // figures the database runs the others (30 days of the volume bench in process: 51-53 ms against 65-66
  // with two, 57-58 with four). work_mem: counting a busy day's distinct visitors per value sorted past
  // PostgreSQL's default 4 MB and spilled to disk; 48 MB a connection, about what two of 64 MB could use.
  // No parallel workers: a report's statements read a few thousand pre-summed rows, and starting two
  // worker processes for one cost more than the read. The campaigns' and ads' statement of 30 days on the
  // volume bench took 29-67 ms with them (its rows summed in 9) and 10 ms without; a year's 30 and 15.
  const pool = postgresPool(settings.url, {
    max: 3,
    statement_timeout: timeoutMs,
    application_name: 'auctions-guide reports',
    options: '-c work_mem=48MB -c max_parallel_workers_per_gather=0',
  });
  // An idle connection that the server closes emits 'error'; the next report simply takes a new one.
  pool.on('error', () => {});
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}
