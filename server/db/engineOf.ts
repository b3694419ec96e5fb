import { PostgresAdapter, type Kysely } from 'kysely';
import type { Engine } from './databaseSettings';

/** Which engine a Kysely instance talks to, for the few queries whose SQL differs (a JSON table, for one). */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
