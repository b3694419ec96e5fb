import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

/*
 * SQLite has one writer at a time, across processes: while `npm run costs:import` (or conversions:import,
 * costs:set, a restore) writes the file, the server's next write must wait for the lock. SQLite's own
 * busy_timeout waits inside the statement, and better-sqlite3 runs statements synchronously, so that wait
 * stopped the serving thread: every page and asset waited with the click, up to a slice of the import
 * (GET / at p99 80 ms during an import against 18 ms alone). Here the serving connection's busy_timeout is
 * 0 and a statement that finds the file locked is tried again after a timer instead, so the thread goes on
 * serving pages meanwhile and only the write itself waits, as long as it did before.
 *
 * Only a statement that changed nothing may be tried again: one on its own (SQLite ran none of it), or the
 * BEGIN of a transaction. Transactions begin IMMEDIATE, taking the write lock at BEGIN, so that no statement
 * inside one can find the file locked halfway (in WAL only a write can, and a deferred transaction meeting
 * it after a read must start again, which is not this layer's to decide); one that still does fails as it did.
 */

/** How long a write waits for the lock in all: what the connection's busy_timeout was. */
export const lockWaitMs = 5_000;
/** The pauses between tries: short at first (the import's slices leave a pause of 30 ms), then steady. */
const retryDelaysMs = [1, 2, 4, 8];

export const isLockedError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it does not find the file locked, waiting between tries, for up to `waitMs`. */
export async function waitingForLock<T>(attempt: () => Promise<T>, waitMs = lockWaitMs): Promise<T> {
  const started = performance.now();
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLockedError(error) || performance.now() - started >= waitMs) throw error;
    }
    await pause(retryDelaysMs[Math.min(tries, retryDelaysMs.length - 1)]!);
  }
}

class LockWaitingConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.inTransaction ? this.inner.executeQuery<R>(query) : waitingForLock(() => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Kysely's SQLite driver with its one connection wrapped (see above); transactions begin immediate. */
class LockWaitingDriver implements Driver {
  #connection: LockWaitingConnection | undefined;

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    if (this.#connection?.inner !== connection) this.#connection = new LockWaitingConnection(connection);
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    (connection as LockWaitingConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    (connection as LockWaitingConnection).inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      (connection as LockWaitingConnection).inTransaction = false;
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as LockWaitingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** A SQLite dialect whose writes wait for another process's lock off the serving thread (see above). */
export function waitingForLocks(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new LockWaitingDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
