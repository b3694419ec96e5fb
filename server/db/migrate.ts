import { sql, type Kysely } from 'kysely';
import type { Engine } from './databaseSettings';
import { migrations } from './migrations/index';

/** A database written by a newer version of the site: this one must not touch it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
  constructor(readonly found: number) {
    super(`schema ${found}, this version of the site knows ${migrations.length}`);
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
