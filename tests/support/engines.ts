import type { Engine } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createTestDatabase } from './postgres';

/** Both engines, for `describe.each(engines)`: the same cases run against each. */
export const engines: readonly Engine[] = ['sqlite', 'postgres'];

export interface TestEngineDatabase {
  database: AppDatabase;
  /** The PostgreSQL URL (undefined for SQLite), for tests that start a server process on the same database. */
  url?: string;
  /** Closes the database and, on PostgreSQL, drops it. */
  close(): Promise<void>;
}

/** A fresh, empty, migrated database of the engine: in-memory SQLite, or a new database on the test PostgreSQL server. */
export async function openTestDatabase(engine: Engine): Promise<TestEngineDatabase> {
  if (engine === 'sqlite') {
    const database = await openDatabase({ engine, file: ':memory:' }, { logger: silentLogger });
    return { database, close: () => database.close() };
  }
  const created = await createTestDatabase({ migrated: true });
  const database = await openDatabase({ engine, url: created.url }, { logger: silentLogger });
  return {
    database,
    url: created.url,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/** A fresh database of the engine for each test of the describe that calls it, closed after the test. */
export function useTestDatabase(engine: Engine): { readonly opened: TestEngineDatabase; db(): AppDatabase['db'] } {
  let opened: TestEngineDatabase;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
  });
  afterEach(() => opened.close());
  return {
    get opened() {
      return opened;
    },
    db: () => opened.database.db,
  };
}
