import { ConfigError, loadConfig } from '../server/config';
import type { DatabaseSettings } from '../server/db/databaseSettings';
import { DatabaseError, openDatabase, type AppDatabase, type OpenDatabaseOptions } from '../server/db/openDatabase';
import { silentLogger } from '../server/lib/logger';

/**
 * The statistics database an operator's command works on: the SQLite file --db names, else the server's
 * own reading of DATABASE_URL and CLICKS_DB, so a command and the server name the same database. A bad
 * value is one line on err, `name: what is wrong`, and undefined.
 */
export function commandDatabaseSettings(name: string, dbFile: string | undefined, env: Record<string, string | undefined>, err: (text: string) => void): DatabaseSettings | undefined {
  if (dbFile !== undefined) return { engine: 'sqlite', file: dbFile };
  try {
    return loadConfig({ DATABASE_URL: env.DATABASE_URL, CLICKS_DB: env.CLICKS_DB }).statistics!.database;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`${name}: ${error.message}\n`);
    return undefined;
  }
}

/**
 * The database opened (read-only for a command that only reads), or one line on err saying why not, and
 * undefined. A schema older than this code's is refused, never migrated: that is npm run migrate's work.
 */
export async function openCommandDatabase(
  name: string,
  settings: DatabaseSettings,
  err: (text: string) => void,
  { readOnly = false, schema = 'current' }: Omit<OpenDatabaseOptions, 'logger'> = {},
): Promise<AppDatabase | undefined> {
  try {
    return await openDatabase(settings, { logger: silentLogger, readOnly, schema });
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    err(`${name}: ${error.message}\n`);
    return undefined;
  }
}
