import { statSync } from 'node:fs';
import BetterSqlite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { postgresWriter, sqliteWriter, type BulkWriter } from './bulkWriter';
import { seconds } from './volumeFigures';

export interface ClosedState {
  count: number;
  last: string;
  lastMonth: string;
  lastWeek: string;
}

/** What closed_days, closed_months and closed_weeks hold, in one statement either engine runs. */
const closedStateQuery = `select (select count(*) from closed_days) as count, (select max(day) from closed_days) as last,
  (select max(month) from closed_months) as last_month, (select max(week) from closed_weeks) as last_week`;

type ClosedStateRow = {
  count: number | string;
  last: string | null;
  last_month: string | null;
  last_week: string | null;
};

const closedState = (row: ClosedStateRow | undefined): ClosedState => ({
  count: Number(row?.count ?? 0),
  last: row?.last ?? '',
  lastMonth: row?.last_month ?? '',
  lastWeek: row?.last_week ?? '',
});

/** One engine's database: how to reach it, write to it and read how many days are closed. */
export interface EngineSetup {
  name: string;
  settings: DatabaseSettings;
  /** The variable that names it to the server and to npm run stats. */
  variables: Record<string, string>;
  writer(bulk: boolean): Promise<BulkWriter>;
  /** What a real installation's housekeeping would have done to freshly loaded tables. */
  afterLoad?(): Promise<string>;
  /** The same after many rows were deleted (PostgreSQL keeps them as dead rows until a vacuum). */
  afterDelete?(): Promise<void>;
  size(): Promise<number>;
  /** How many days are closed and the last one; the last month and week summed ('' for none). */
  closedDays(): Promise<ClosedState>;
}

export function sqliteSetup(file: string): EngineSetup {
  return {
    name: 'SQLite',
    settings: { engine: 'sqlite', file },
    variables: { CLICKS_DB: file },
    writer: async (bulk) => sqliteWriter(file, { bulk }),
    size: async () => ['', '-wal'].reduce((sum, suffix) => sum + (statSync(`${file}${suffix}`, { throwIfNoEntry: false })?.size ?? 0), 0),
    closedDays: async () => {
      const database = new BetterSqlite(file, { readonly: true, fileMustExist: true });
      try {
        return closedState(database.prepare(closedStateQuery).get() as ClosedStateRow | undefined);
      } finally {
        database.close();
      }
    },
  };
}

export function postgresSetup(url: string): EngineSetup {
  const query = async <Row extends pg.QueryResultRow>(text: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    name: 'PostgreSQL',
    settings: { engine: 'postgres', url },
    variables: { DATABASE_URL: url },
    writer: () => postgresWriter(url),
    afterLoad: async () => {
      const started = performance.now();
      await query('vacuum analyze');
      return `vacuum analyze (what autovacuum would have done to a year of inserts) ${seconds(performance.now() - started)}`;
    },
    afterDelete: async () => void (await query('vacuum analyze views')),
    size: async () => Number((await query<{ size: string }>('select pg_database_size(current_database()) as size'))[0]!.size),
    closedDays: async () => closedState((await query<ClosedStateRow>(closedStateQuery))[0]),
  };
}
