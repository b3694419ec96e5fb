import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';

/**
 * What an operation asked of the database: a connection, a read, or a write (a statement that changes
 * rows or the schema, or a commit).
 */
export type DatabaseOperation = 'connect' | 'read' | 'write';

/**
 * Whether the database answers. Every query and connection passes through watch() (see
 * availabilityDialect.ts), so an outage is logged once, when it starts, and once more when the database
 * answers again: never once per request, whatever fails. What ends an outage is an answer to what failed,
 * once nothing has failed for recoveryQuietMs: an outage that began with a failed write (a full disk:
 * connections and reads still succeed) ends when a write succeeds; any other when a read or a write does. A
 * connection taken proves nothing either way, since the pool or the file hands one out before the
 * database is asked anything; and on a full disk a write that fits in a page the file already had
 * succeeds between the ones that fail, which is why one success alone is not the end.
 */
export interface Availability {
  readonly available: boolean;
  /** When the current outage began (ms since the epoch); undefined while the database answers. */
  readonly downSince: number | undefined;
  watch<T>(operation: Promise<T>, kind?: DatabaseOperation): Promise<T>;
  /** An error reported outside a query, such as an idle pooled connection that the server closed, or the SQLite file found gone (a write failure). */
  failed(error: unknown, kind?: DatabaseOperation): void;
  /** Called once start-up has opened the database: before that, a failure is the start-up error's to report. */
  opened(): void;
}

/** An outage ends at an answer that comes at least this long after the last failure. */
export const recoveryQuietMs = 5_000;

export function createAvailability(name: string, logger: Logger, now: () => number = Date.now): Availability {
  let downSince: number | undefined;
  let lastFailureAt = 0;
  /** Whether the current outage began with a write, and so ends only with one. */
  let writesFailed = false;
  let isOpen = false;
  const failed = (error: unknown, kind: DatabaseOperation = 'read') => {
    if (!isOpen) return;
    lastFailureAt = now();
    if (downSince !== undefined) return;
    downSince = lastFailureAt;
    writesFailed = kind === 'write';
    logger.error(`the database stopped answering (${name}): ${errorSummary(error)}; click reports get 503 and /admin is unavailable until it is back`);
  };
  const succeeded = (kind: DatabaseOperation) => {
    if (downSince === undefined || kind === 'connect' || (writesFailed && kind !== 'write') || now() - lastFailureAt < recoveryQuietMs) return;
    const seconds = Math.round((now() - downSince) / 1000);
    downSince = undefined;
    logger.info(`the database answers again (${name}) after ${seconds} s; counting resumed`);
  };
  return {
    get available() {
      return downSince === undefined;
    },
    get downSince() {
      return downSince;
    },
    watch(operation, kind = 'read') {
      return operation.then(
        (value) => {
          succeeded(kind);
          return value;
        },
        (error: unknown) => {
          failed(error, kind);
          throw error;
        },
      );
    },
    failed: (error, kind) => failed(error, kind),
    opened() {
      isOpen = true;
    },
  };
}
