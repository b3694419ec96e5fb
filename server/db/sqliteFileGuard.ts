import { statSync } from 'node:fs';

/**
 * Whether the file at CLICKS_DB is still the file the server opened. SQLite keeps writing into the file it
 * opened, whatever happens to its name: removed (with its -wal and -shm) under the running server, or with a
 * backup moved over it, the server would go on acknowledging reports into a file nobody will open again,
 * and lose them at the next start (issue 28). The guard compares the path's device and inode with the
 * file's: before and after every write (a stat, a few microseconds), so nothing is acknowledged once the
 * file is gone, and every few seconds from the schedule, so it is noticed and logged without traffic.
 * Once gone it stays gone: the server records nothing more until it is restarted, and then opens (and,
 * for a removed file, creates) the file at that path. Refusing rather than switching files keeps one
 * process on one file, which the report worker and the daily backup also have open.
 */
export class DatabaseFileMovedError extends Error {
  override name = 'DatabaseFileMovedError';
  readonly code = 'CLICKS_DB_MOVED';
}

export interface SqliteFileGuard {
  /** Throws DatabaseFileMovedError when the file at the path is not the one opened (removed or replaced), now or before. */
  check(): void;
}

export function sqliteFileGuard(file: string): SqliteFileGuard {
  const opened = statSync(file);
  let moved: DatabaseFileMovedError | undefined;
  return {
    check() {
      if (moved) throw moved;
      const now = statSync(file, { throwIfNoEntry: false });
      const change = !now ? 'removed' : now.ino !== opened.ino || now.dev !== opened.dev ? 'replaced by another file' : undefined;
      if (!change) return;
      moved = new DatabaseFileMovedError(
        `the file at ${file} is not the one this server opened: it was ${change}; nothing more is recorded until the server is restarted, which opens the file now at that path`,
      );
      throw moved;
    },
  };
}
