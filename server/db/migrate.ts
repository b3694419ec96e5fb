import { sql, type Kysely } from 'kysely';
import type { Engine } from './databaseSettings';
import { migrationNames, migrations } from './migrations/index';

/** A database written by a newer version of the site: this one must not touch it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
  constructor(readonly found: number) {
    super(`schema ${found}, this version of the site knows ${migrations.length}`);
  }
}

/** A database whose schema is older than this code's, opened by a command that must not migrate it. */
export class SchemaBehindError extends Error {
  override name = 'SchemaBehindError';
  constructor(readonly found: number) {
    super(`schema ${found}, and this version of the site needs ${migrations.length}`);
  }
}

/** Any number that fits: the key PostgreSQL's advisory lock takes, so instances starting together migrate one at a time. */
const migrationLockKey = 7_305_141_922;

async function appliedVersion(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom('schema_migrations').select((eb) => eb.fn.max<number | null>('version').as('version')).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Brings the schema up to date in one transaction. On PostgreSQL the transaction first takes an advisory
 * lock, so when several instances start together one migrates and the others then find nothing to do.
 */
export async function migrate(db: Kysely<any>, engine: Engine, now: () => number = Date.now): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(migrationLockKey)})`.execute(trx);
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (column) => column.primaryKey())
      .addColumn('applied_at', 'bigint', (column) => column.notNull())
      .execute();
    const version = await appliedVersion(trx);
    if (version > migrations.length) throw new SchemaTooNewError(version);
    for (let next = version + 1; next <= migrations.length; next += 1) {
      await migrations[next - 1]!(trx, engine);
      await trx.insertInto('schema_migrations').values({ version: next, applied_at: now() }).execute();
    }
    return migrations.length;
  });
}

/** For readers that must not write (npm run stats): the version the database is at, checked against this code. */
export async function checkSchemaVersion(db: Kysely<any>): Promise<number> {
  const version = await appliedVersion(db);
  if (version > migrations.length) throw new SchemaTooNewError(version);
  return version;
}

/** Where a database's schema stands against this code: its version, this code's, and the steps not yet applied. */
export interface SchemaStatus {
  version: number;
  known: number;
  /** `018-leaveClicks`, …: empty when up to date (or newer than this code). */
  pending: string[];
}

/** The status of a database that has schema_migrations (0 when it has none: an empty database). */
export async function schemaStatus(db: Kysely<any>): Promise<SchemaStatus> {
  const version = await appliedVersion(db).catch(async (error: unknown) => {
    if (await hasMigrationsTable(db)) throw error;
    return 0;
  });
  const pending = migrationNames.slice(Math.min(version, migrations.length)).map((name, index) => `${String(version + index + 1).padStart(3, '0')}-${name}`);
  return { version, known: migrations.length, pending };
}

async function hasMigrationsTable(db: Kysely<any>): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((table) => table.name === 'schema_migrations');
}
