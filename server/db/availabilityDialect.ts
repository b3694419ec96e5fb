import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import type { Availability, DatabaseOperation } from './availability';
import type { SqliteFileGuard } from './sqliteFileGuard';

/** A statement that changes rows or the schema (a WITH that ends in one too): what a full disk refuses. */
const writeStatement = /^\s*(?:insert|update|delete|replace|upsert|merge|create|drop|alter|vacuum|reindex|truncate|with\b[\s\S]*\b(?:insert|update|delete)\b)/i;

/** Whether a compiled query reads or writes. */
export const operationOf = (query: CompiledQuery): DatabaseOperation => (writeStatement.test(query.sql) ? 'write' : 'read');

/**
 * Wraps a Kysely driver so that taking a connection, running a query and committing all report to the
 * availability tracker, each as what it is (availability.ts: a connection, a read or a write). A pool
 * that cannot connect fails in acquireConnection, before any query: that is why the driver, and not
 * Kysely's query log, is the place to watch.
 */
class AvailabilityDriver implements Driver {
  readonly #originals = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly availability: Availability,
    private readonly guard: SqliteFileGuard | undefined,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.availability.watch(this.inner.acquireConnection(), 'connect');
    const watched: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const kind = operationOf(query);
        return this.availability.watch(kind === 'write' ? this.guarded(() => connection.executeQuery<R>(query)) : connection.executeQuery<R>(query), kind);
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    this.#originals.set(watched, connection);
    return watched;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.original(connection), settings);
  }

  /** A commit is where a write can fail last (PostgreSQL writes its log then): it counts as a write. */
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.availability.watch(this.guarded(() => this.inner.commitTransaction(this.original(connection))), 'write');
  }

  /**
   * A write into the file that is at CLICKS_DB, checked before and after (sqliteFileGuard.ts): one that
   * landed in a file removed or replaced meanwhile fails, so its report is not acknowledged.
   */
  private async guarded<T>(write: () => Promise<T>): Promise<T> {
    this.guard?.check();
    const result = await write();
    this.guard?.check();
    return result;
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.original(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.original(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private original(connection: DatabaseConnection): DatabaseConnection {
    return this.#originals.get(connection) ?? connection;
  }
}

export function withAvailability(dialect: Dialect, availability: Availability, guard?: SqliteFileGuard): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new AvailabilityDriver(dialect.createDriver(), availability, guard),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
