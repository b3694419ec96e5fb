import { errorSummary } from '../lib/errorText';
import type { Logger } from '../lib/logger';

/**
 * Whether the database answered its last request. Every query and connection passes through watch()
 * (see availabilityDialect.ts), so an outage is logged once, when it starts, and once more when the
 * database answers again: never once per request.
 */
export interface Availability {
  readonly available: boolean;
  /** When the current outage began (ms since the epoch); undefined while the database answers. */
  readonly downSince: number | undefined;
  watch<T>(operation: Promise<T>): Promise<T>;
  /** An error reported outside a query, such as an idle pooled connection that the server closed. */
  failed(error: unknown): void;
  /** Called once start-up has opened the database: before that, a failure is the start-up error's to report. */
  opened(): void;
}

export function createAvailability(name: string, logger: Logger, now: () => number = Date.now): Availability {
  let downSince: number | undefined;
  let isOpen = false;
  const failed = (error: unknown) => {
    if (!isOpen || downSince !== undefined) return;
    downSince = now();
    logger.error(`the database stopped answering (${name}): ${errorSummary(error)}; click reports get 503 and /admin is unavailable until it is back`);
  };
  const succeeded = () => {
    if (downSince === undefined) return;
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
    watch(operation) {
      return operation.then(
        (value) => {
          succeeded();
          return value;
        },
        (error: unknown) => {
          failed(error);
          throw error;
        },
      );
    },
    failed,
    opened() {
      isOpen = true;
    },
  };
}
