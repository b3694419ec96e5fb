import BetterSqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Engine } from '../../server/db/databaseSettings';
import { migrations } from '../../server/db/migrations/index';
import { createTestDatabase } from './postgres';

/**
 * A bare database of the engine brought to schema `version`, as a released version of the site left it:
 * for tests of what a later migration does to the rows an older one held. SQLite in `file` (in memory
 * unless given), PostgreSQL in a database of its own (at `url`), dropped on close.
 */
export async function databaseAtSchema(engine: Engine, version: number, file = ':memory:'): Promise<{ db: Kysely<any>; url?: string; close(): Promise<void> }> {
  let db: Kysely<any>;
  let url: string | undefined;
  let drop = async () => {};
  if (engine === 'sqlite') {
    db = new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite(file) }) });
  } else {
    const created = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: created.url });
    // pool.end() resolves before its connections have closed, so the drop's WITH (FORCE) can end one
    // still closing; the pool reports that as an error, which here is expected and not the test's.
    pool.on('error', () => {});
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    url = created.url;
    drop = created.drop;
  }
  await db.schema
    .createTable('schema_migrations')
    .addColumn('version', 'integer', (column) => column.primaryKey())
    .addColumn('applied_at', 'bigint', (column) => column.notNull())
    .execute();
  for (const [index, step] of migrations.slice(0, version).entries()) {
    await step(db, engine);
    await db.insertInto('schema_migrations').values({ version: index + 1, applied_at: 0 }).execute();
  }
  return {
    db,
    ...(url !== undefined && { url }),
    close: async () => {
      await db.destroy();
      await drop();
    },
  };
}
