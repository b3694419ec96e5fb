import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import type { Availability } from './availability';

/**
 * Wraps a Kysely driver so that taking a connection and running a query both report to the
 * availability tracker. A pool that cannot connect fails in acquireConnection, before any query: that
 * is why the driver, and not Kysely's query log, is the place to watch.
 */
class AvailabilityDriver implements Driver {
  readonly #originals = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly availability: Availability,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.availability.watch(this.inner.acquireConnection());
    const watched: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => this.availability.watch(connection.executeQuery<R>(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    this.#originals.set(watched, connection);
    return watched;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.original(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.original(connection));
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

export function withAvailability(dialect: Dialect, availability: Availability): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new AvailabilityDriver(dialect.createDriver(), availability),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
