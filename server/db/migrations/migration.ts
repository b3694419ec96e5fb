import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * The engines, as databaseSettings.ts names them: spelled out here so that the steps import nothing
 * from the folder that runs them.
 */
type Engine = 'sqlite' | 'postgres';

/** One step of the schema's history, for either engine; run inside migrate's transaction. */
export type Migration = (db: Kysely<any>, engine: Engine) => Promise<void>;

/** An auto-numbered primary key: SQLite's rowid alias, or a PostgreSQL identity column. */
export function idColumn(engine: Engine) {
  return [
    engine === 'postgres' ? 'bigint' : 'integer',
    (column: ColumnDefinitionBuilder) => (engine === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey()),
  ] as const;
}
