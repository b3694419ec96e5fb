import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type Dialect } from 'kysely';
import pg from 'pg';
import type { Logger } from '../lib/logger';
import { errorSummary } from '../lib/errorText';
import { createAvailability, type Availability } from './availability';
import { withAvailability } from './availabilityDialect';
import { lockWaitMs, waitingForLocks } from './sqliteLockWait';
import { keepingStatements } from './keptStatements';
import { sqliteFileGuard } from './sqliteFileGuard';
import { describeDatabase, type DatabaseSettings, type Engine } from './databaseSettings';
import { migrations } from './migrations/index';
import { checkSchemaVersion, migrate, SchemaBehindError, schemaStatus, SchemaTooNewError } from './migrate';
import type { Schema } from './schema';

/** The open statistics database, whichever engine holds it. Opened by server/main.ts (or a script), never by createApp. */
export interface AppDatabase {
  readonly engine: Engine;
  readonly db: Kysely<Schema>;
  /** How messages name it: "CLICKS_DB data/clicks.sqlite" or "DATABASE_URL postgres://user:***@host/db". */
  readonly name: string;
  readonly availability: Availability;
  /**
   * SQLite (a file the server writes): whether the file at CLICKS_DB is still the one open; when not, the
   * outage is logged (once) and every write is refused from then on (sqliteFileGuard.ts). Run from the schedule.
   */
  checkFile?(): void;
  close(): Promise<void>;
}

/** The database cannot be used: one line that names the variable and says what to do; never a password. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

export interface OpenDatabaseOptions {
  logger: Logger;
  /** For readers such as npm run stats: no file is created, no schema step run, nothing written. */
  readOnly?: boolean;
  /**
   * What is done with the schema. `migrate` (the default when writing: the server, and npm run migrate's own
   * step) brings it up to date. `current` (the default read-only, and every operator command) refuses a
   * schema older than this code's with one line naming npm run migrate, so a command run from a freshly
   * pulled checkout never changes the schema under the server still running the old code; a new, empty
   * database is still set up. `known`, read-only, reads any schema up to this code's (npm run db:copy's source);
   * `as-is` checks nothing but the connection (npm run db:status, npm run migrate before its step).
   */
  schema?: 'migrate' | 'current' | 'known' | 'as-is';
}

/**
 * Opens the database, checks the connection, brings the schema up to date (or, read-only, checks that
 * this code can read it) and proves a write, so the server refuses to start rather than run without counting.
 */
export async function openDatabase(settings: DatabaseSettings, { logger, readOnly = false, schema = readOnly ? 'current' : 'migrate' }: OpenDatabaseOptions): Promise<AppDatabase> {
  const name = describeDatabase(settings);
  const availability = createAvailability(name, logger);
  const { dialect, explain } = settings.engine === 'sqlite' ? sqliteDialect(settings.file, readOnly) : postgresDialect(settings.url, availability);
  const guard = settings.engine === 'sqlite' && !readOnly && settings.file !== ':memory:' ? sqliteFileGuard(settings.file) : undefined;
  const db = new Kysely<Schema>({ dialect: withAvailability(dialect, availability, guard) });
  const fail = async (error: unknown): Promise<never> => {
    await db.destroy().catch(() => {});
    if (error instanceof SchemaTooNewError) {
      throw new DatabaseError(`${name} was written by a newer version of this site (${error.message}); run that version, or point the variable elsewhere`);
    }
    if (error instanceof SchemaBehindError) {
      throw new DatabaseError(`${name} is at ${error.message}: run npm run migrate first (after a backup: docs/deploy.md#6-updating)`);
    }
    throw error instanceof DatabaseError ? error : new DatabaseError(`${name} ${explain(error)}`);
  };
  try {
    await sql`select 1`.execute(db);
    if (schema === 'as-is') {
      // Nothing more: the caller reads the schema's status itself.
    } else if (readOnly) {
      const version = await readableVersion(db);
      if (version === 0) {
        throw new DatabaseError(`${name} is not a click database this version of the site can read: start the server once with it to set it up`);
      }
      if (schema === 'current') refuseBehind(version);
    } else {
      if (schema === 'current') refuseBehind((await schemaStatus(db)).version);
      await migrate(db, settings.engine);
      await proveWrite(db);
    }
  } catch (error) {
    return fail(error);
  }
  availability.opened();
  const checkFile = guard
    ? () => {
        try {
          guard.check();
        } catch (error) {
          availability.failed(error, 'write');
        }
      }
    : undefined;
  return { engine: settings.engine, db, name, availability, ...(checkFile && { checkFile }), close: () => db.destroy() };
}

/** A schema this code is newer than: the command stops, and migrate (run by the operator) is named. */
function refuseBehind(version: number): void {
  if (version > 0 && version < migrations.length) throw new SchemaBehindError(version);
}

async function readableVersion(db: Kysely<Schema>): Promise<number> {
  try {
    return await checkSchemaVersion(db);
  } catch (error) {
    if (error instanceof SchemaTooNewError) throw error;
    return 0; // No schema_migrations table: an empty file, another program's database, or one from before version 2.
  }
}

/** A write rolled back: what fails on a read-only file or a role without INSERT, now rather than at the first click. */
async function proveWrite(db: Kysely<Schema>): Promise<void> {
  const rollback = new Error('rollback');
  await db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('job_runs').values({ job: 'write-check', period: randomUUID(), claimed_at: Date.now() }).execute();
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

interface EngineDialect {
  dialect: Dialect;
  /** The end of a sentence that starts with the database's name. */
  explain(error: unknown): string;
}

function sqliteDialect(file: string, readOnly: boolean): EngineDialect {
  const explain = (error: unknown) => explainSqlite(error);
  if (file !== ':memory:') {
    const resolved = path.resolve(file);
    if (existsSync(resolved) && statSync(resolved).isDirectory()) {
      throw new DatabaseError(`CLICKS_DB ${file} is a folder; name a file inside it, such as ${path.join(file, 'clicks.sqlite')}`);
    }
    if (readOnly && !existsSync(resolved)) {
      throw new DatabaseError(`there is no click database at ${file} yet: the server creates it when it first starts with click counting on`);
    }
  }
  let database: BetterSqlite.Database;
  try {
    if (file !== ':memory:' && !readOnly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    database = new BetterSqlite(file, readOnly ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    throw new DatabaseError(`CLICKS_DB ${file} ${explain(error)}`);
  }
  try {
    // WAL lets readers (npm run stats) work while the server writes; NORMAL still keeps every committed
    // transaction through a crash of this process (only a power cut can lose the last few).
    if (!readOnly) {
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
    }
    // The server's own connection waits for another process's write lock off its thread, between tries
    // (sqliteLockWait.ts); a reader, such as npm run stats, lets SQLite wait as it reads.
    database.pragma(`busy_timeout = ${readOnly ? lockWaitMs : 0}`);
    // The server checks the whole file once at start-up (2.4 s for a year of a busy site's rows); a reader
    // such as npm run stats does not, and a damaged page it meets fails its query with one line instead.
    if (!readOnly) {
      const check = database.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new DatabaseError(`CLICKS_DB ${file} is damaged (${String(check)}); move it aside to start counting afresh`);
    }
  } catch (error) {
    database.close();
    throw error instanceof DatabaseError ? error : new DatabaseError(`CLICKS_DB ${file} ${explain(error)}`);
  }
  const dialect = new SqliteDialect({ database: keepingStatements(database) });
  return { dialect: readOnly ? dialect : waitingForLocks(dialect), explain };
}

function explainSqlite(error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? '');
  const detail = errorSummary(error);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return `is damaged or not a SQLite database (${detail}); move it aside to start counting afresh`;
  }
  if (['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'EACCES', 'ENOTDIR', 'EEXIST'].some((prefix) => code.startsWith(prefix))) {
    return `cannot be opened for writing (${detail}); check that the file and its folder are writable by this user`;
  }
  return `cannot be used: ${detail}`;
}

/** PostgreSQL's bigint (count(*), sums, millisecond times) as a JavaScript number: every value here fits in 2^53. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A pool on a PostgreSQL URL, with bigints read as numbers; the URL's own sslmode (disable, require, verify-full, ...) decides TLS, as libpq's clients do. */
export function postgresPool(url: string, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, types: pgTypes, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, application_name: 'auctions-guide', ...options });
  // A connection the server ends while it is checked out (between a transaction's statements, say) emits
  // 'error' on its client, where the pool does not listen then: unhandled, it would end the process, the
  // site or a command with a stack trace. The statement under way, or the next one, fails on its own.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * synchronous_commit on for every session, whatever the server's postgresql.conf says: a 2xx is sent only
 * once its commit is in the WAL on disk. Off (a common tuning), PostgreSQL acknowledges a commit still in
 * its WAL buffers, and a crash loses it: on a full disk, the PANIC when pg_wal cannot grow dropped reports
 * answered 204 (tests/server/fullDisk.test.ts). A startup parameter, as the report worker's work_mem.
 */
const durableCommits = '-c synchronous_commit=on';

function postgresDialect(url: string, availability: Availability): EngineDialect {
  const pool = postgresPool(url, { max: 10, query_timeout: 10_000, options: durableCommits });
  // An idle pooled connection that the server closes (a restart, an outage) emits 'error'; unhandled, it would end the process.
  pool.on('error', (error) => availability.failed(error));
  return { dialect: new PostgresDialect({ pool }), explain: explainPostgres };
}

const postgresCodes: Record<string, string> = {
  ECONNREFUSED: 'refused the connection: is PostgreSQL running and listening there?',
  ENOTFOUND: 'names a host that cannot be found',
  EAI_AGAIN: 'names a host that cannot be looked up right now',
  ECONNRESET: 'closed the connection',
  '28P01': 'refused the password',
  '28000': 'does not let this user connect',
  '3D000': 'names a database that does not exist',
  '42501': 'does not let this user create or write the tables it needs',
};

function explainPostgres(error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? '');
  const known = postgresCodes[code];
  const detail = errorSummary(error);
  if (known) return `${known} (${detail})`;
  if (/timeout/i.test(detail)) return `did not answer within 5 s (${detail})`;
  return `cannot be used: ${detail}`;
}
