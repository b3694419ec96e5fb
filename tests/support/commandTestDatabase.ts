import path from 'node:path';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import type { Engine } from '../../server/db/databaseSettings';
import { openTestDatabase } from './engines';

/**
 * A database of the engine that an operator command (npm run stats, …) can open by its environment: a
 * SQLite file in `dir`, or a test database on PostgreSQL; `db` for the test to record into meanwhile.
 */
export async function commandTestDatabase(engine: Engine, dir: string, name = 'command.sqlite') {
  if (engine === 'postgres') {
    const opened = await openTestDatabase(engine);
    return { db: opened.database.db, env: { DATABASE_URL: opened.url! }, close: () => opened.close() };
  }
  const file = path.join(dir, name);
  const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
  return { db: database.db, env: { CLICKS_DB: file }, close: () => database.close() };
}
