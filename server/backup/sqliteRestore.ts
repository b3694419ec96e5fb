import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { migrations } from '../db/migrations/index';
import { errorCode, errorSummary } from '../lib/errorText';
import { countTables, integrityOf, stepsReported, syncFolder, type TableCounts } from './sqliteBackup';

/** A restore refused or failed before the target was touched: one line saying why. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

export interface RestoreResult {
  /** The backup's schema version and each table's rows, as now in the target. */
  schema: number;
  counts: TableCounts;
  /** Where the database that was at the target went (with its -wal and -shm, when there were any); undefined when there was none. */
  movedAside: string | undefined;
}

/** How long the restore waits for the target's lock: a held lock means a process has the database open, and waiting longer changes nothing. */
const lockWaitMs = 200;

function schemaVersion(database: BetterSqlite.Database): number {
  return Number(database.prepare('select max(version) from schema_migrations').pluck().get() ?? 0);
}

/** The backup checked as a whole before anything is touched: a SQLite file of this site, undamaged, at a schema this version can run. */
export function verifyBackup(file: string): { schema: number; counts: TableCounts } {
  if (!existsSync(file)) throw new RestoreError(`there is no file at ${file}`);
  if (statSync(file).isDirectory()) throw new RestoreError(`${file} is a folder; name a backup file such as clicks-2026-11-25.sqlite`);
  const database = openBackup(file);
  try {
    return checkedBackup(database, file);
  } finally {
    database.close();
  }
}

function openBackup(file: string): BetterSqlite.Database {
  try {
    return new BetterSqlite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new RestoreError(`cannot open ${file} (${errorSummary(error)})`);
  }
}

function checkedBackup(database: BetterSqlite.Database, file: string): { schema: number; counts: TableCounts } {
  let integrity: string;
  let counts: TableCounts;
  try {
    integrity = integrityOf(database);
    counts = integrity === 'ok' ? countTables(database) : {};
  } catch (error) {
    throw new RestoreError(`${file} is not a readable SQLite database (${errorSummary(error)})`);
  }
  if (integrity !== 'ok') throw new RestoreError(`${file} failed its integrity check (${integrity}); choose another backup`);
  if (counts.schema_migrations === undefined) throw new RestoreError(`${file} is not a click database of this site (it has no schema_migrations table)`);
  const schema = schemaVersion(database);
  if (schema > migrations.length) {
    throw new RestoreError(`${file} was written by a newer version of this site (schema ${schema}, this version knows ${migrations.length}); restore it with that version`);
  }
  return { schema, counts };
}

/**
 * Takes the target's lock and lets it go: refused while another connection has the database open (a
 * running server keeps its connection, and in WAL mode every open connection holds a shared lock, so an
 * exclusive one cannot be had), and refused when the target was written by a newer version of the site
 * than this one. A target too damaged to read is no reason to refuse: it is what a restore is for.
 */
function checkTargetFree(target: string): void {
  let database: BetterSqlite.Database;
  try {
    database = new BetterSqlite(target, { fileMustExist: true, timeout: lockWaitMs });
  } catch (error) {
    throw new RestoreError(`cannot open ${target} to check that nothing uses it (${errorSummary(error)})`);
  }
  let version: number | undefined;
  try {
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
    try {
      version = schemaVersion(database);
    } catch {
      version = undefined; // No schema table, or damaged: nothing in it to protect from an older version.
    }
    database.exec('COMMIT');
  } catch (error) {
    const code = errorCode(error) ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      database.close();
      throw new RestoreError(`${target} is in use: a running server (or a command such as npm run stats) has it open; stop it, then restore`);
    }
  }
  // Closing the last connection folds any -wal into the file, so what is moved aside is whole.
  database.close();
  if (version !== undefined && version > migrations.length) {
    throw new RestoreError(`${target} was written by a newer version of this site (schema ${version}, this version knows ${migrations.length}); restore with that version`);
  }
}


/** now as 20261125T170312Z, for the name of the file moved aside. */
const stampOf = (now: Date) => now.toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z';

/**
 * Puts a backup in place of the SQLite database at target: the backup verified first (verifyBackup),
 * the target refused while in use or when newer (checkTargetFree), the backup copied beside the target
 * under a temporary name and checked again, the current file moved aside with its -wal and -shm (never
 * deleted), and the copy renamed into place, so the target is at every moment either the old file or the whole backup.
 */
export async function restoreSqlite({ backup, target, now, onPages }: { backup: string; target: string; now: Date; onPages?: (done: number, total: number) => void }): Promise<RestoreResult> {
  const { schema, counts } = verifyBackup(backup);
  if (path.resolve(backup) === path.resolve(target)) throw new RestoreError(`${backup} is the target itself`);
  const dir = path.dirname(path.resolve(target));
  const targetExists = existsSync(target);
  if (targetExists && statSync(target).isDirectory()) throw new RestoreError(`${target} is a folder; name the database file inside it`);
  if (targetExists) checkTargetFree(target);
  else mkdirSync(dir, { recursive: true });

  const incoming = path.join(dir, `.${path.basename(target)}.${randomBytes(4).toString('hex')}.restoring`);
  const source = openBackup(backup);
  try {
    const copied = await source.backup(incoming, { progress: stepsReported(onPages) });
    onPages?.(copied.totalPages, copied.totalPages);
    const copy = new BetterSqlite(incoming, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const copied = countTables(copy);
      const integrity = integrityOf(copy);
      if (integrity !== 'ok' || JSON.stringify(copied) !== JSON.stringify(counts)) throw new RestoreError(`the copy of ${backup} next to ${target} did not come out whole (${integrity}); nothing was changed`);
    } finally {
      copy.close();
    }
  } catch (error) {
    for (const name of [incoming, `${incoming}-journal`]) rmSync(name, { force: true });
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`cannot copy ${backup} next to ${target} (${errorSummary(error)}); nothing was changed`);
  } finally {
    source.close();
  }

  let movedAside: string | undefined;
  if (targetExists) {
    // Checked again just before the move: a server started while the backup was being copied wins.
    try {
      checkTargetFree(target);
    } catch (error) {
      rmSync(incoming, { force: true });
      throw error;
    }
    movedAside = `${target}.before-restore-${stampOf(now)}`;
    renameSync(target, movedAside);
    for (const suffix of ['-wal', '-shm']) if (existsSync(`${target}${suffix}`)) renameSync(`${target}${suffix}`, `${movedAside}${suffix}`);
  }
  renameSync(incoming, target);
  syncFolder(dir);
  return { schema, counts, movedAside };
}
