import BetterSqlite from 'better-sqlite3';
import pg from 'pg';

export type ColumnType = 'text' | 'bigint';

/** Where the rows go: one connection to either engine, used by one caller at a time. */
export interface BulkWriter {
  readonly engine: 'sqlite' | 'postgres';
  /** Runs a statement without parameters: every value written into one here is a checked whole number or a day. */
  run(statement: string): Promise<void>;
  /** Inserts rows (each in the order of columns) in batches. */
  insert(table: string, columns: readonly (readonly [name: string, type: ColumnType])[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /** A WITH clause that defines series(i) for from..to, both included. */
  series(from: number, to: number): string;
  close(): Promise<void>;
}

/** A whole number written into SQL: checked, so nothing but digits ever reaches a statement. */
export function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: ${value}`);
  return String(value);
}

export function dayLiteral(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `'${day}'`;
}

/**
 * SQLite through better-sqlite3 directly. For the bulk load (nothing else has the file open) the journal
 * is off and nothing is synced, then WAL is turned back on; otherwise it writes as any second connection would.
 */
export function sqliteWriter(file: string, { bulk }: { bulk: boolean }): BulkWriter {
  const database = new BetterSqlite(file);
  database.pragma('busy_timeout = 10000');
  if (bulk) {
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    database.pragma('cache_size = -524288');
  }
  const statements = new Map<string, BetterSqlite.Statement>();
  return {
    engine: 'sqlite',
    run: async (statement) => void database.exec(statement),
    insert: async (table, columns, rows) => {
      const text = `insert into ${table} (${columns.map(([name]) => name).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = database.prepare(text)));
      const insertAll = database.transaction((all: readonly (readonly unknown[])[]) => {
        for (const row of all) statement.run(...row);
      });
      insertAll(rows);
    },
    series: (from, to) => `with recursive series(i) as (select ${int(from)} union all select i + 1 from series where i < ${int(to)})`,
    close: async () => {
      if (bulk) database.pragma('journal_mode = WAL');
      database.close();
    },
  };
}

/** PostgreSQL on one connection of its own; batches go in as arrays (insert ... select from unnest). */
export async function postgresWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  // The load's own commits need not wait for the disk; the server's writes keep the cluster's durable defaults.
  await client.query('set synchronous_commit = off');
  const batch = 10_000;
  return {
    engine: 'postgres',
    run: async (statement) => void (await client.query(statement)),
    insert: async (table, columns, rows) => {
      const text = `insert into ${table} (${columns.map(([name]) => name).join(', ')}) select * from unnest(${columns.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')})`;
      for (let start = 0; start < rows.length; start += batch) {
        const part = rows.slice(start, start + batch);
        await client.query(text, columns.map((_, k) => part.map((row) => row[k] ?? null)));
      }
    },
    series: (from, to) => `with series(i) as (select generate_series(${int(from)}::bigint, ${int(to)}::bigint))`,
    close: () => client.end(),
  };
}
