import type BetterSqlite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept per connection: a report's 30 or so for each range asked for, the recording's, the jobs'; each compiled one holds some kilobytes. */
const defaultLimit = 128;

/**
 * A SQLite connection for Kysely that keeps the statements it has prepared, by their SQL, the least
 * recently used dropped past `limit`. Kysely prepares every query anew, and SQLite compiles each one
 * again: for /admin's 30 days, some 30 statements with windows and unions, 4-5 ms of a 50 ms report. A
 * statement compiled once runs again with new parameters (better-sqlite3 resets it after each run), and
 * SQLite recompiles it itself should the schema change underneath. Nothing here streams a query, which
 * would hold its statement busy.
 */
export function keepingStatements(database: BetterSqlite.Database, limit = defaultLimit): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(source: string): SqliteStatement {
      const found = kept.get(source);
      if (found) {
        // The most recently used last, so the first in the map is the one to drop.
        kept.delete(source);
        kept.set(source, found);
        return found;
      }
      const statement = database.prepare(source);
      kept.set(source, statement);
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}
