import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { errorCode, errorSummary } from '../lib/errorText';
import { utcDay } from '../lib/utcDay';
import { backupFileName, backupsToPrune } from './backupFiles';

/** A backup that could not be made or did not pass its checks: one line saying which and why; the folder keeps no partial file. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Rows per table, by name, every table of the file. */
export type TableCounts = Record<string, number>;

export interface BackupResult {
  /** The backup written, DIR/clicks-YYYY-MM-DD.sqlite. */
  file: string;
  /** Each table's rows, the same in the copy as in the database at the moment of the copy. */
  counts: TableCounts;
  /** Older copies deleted by the retention rule (server/backup/backupFiles.ts). */
  pruned: string[];
}

export interface BackupOptions {
  /** The SQLite file the site writes (CLICKS_DB). */
  source: string;
  /** The folder the copies are kept in. */
  dir: string;
  /** Names the copy's day. */
  now: Date;
  /** Create the folder when missing (the server, for BACKUP_DIR); a command refuses instead, as a typo should not make a folder. */
  createDir?: boolean;
  /** Called after each step of the copy with the pages copied and the file's pages, and once all are (npm run backup's progress). */
  onPages?: (done: number, total: number) => void;
}

/** Pages copied per step: 1 MB at the usual 4 KB page, a fraction of a millisecond each, between which the thread does other work. */
const pagesPerStep = 256;

/** better-sqlite3's progress callback: one step's pages each time, and what the steps have copied told to onPages. */
export function stepsReported(onPages: ((done: number, total: number) => void) | undefined) {
  return ({ totalPages, remainingPages }: { totalPages: number; remainingPages: number }) => {
    onPages?.(totalPages - remainingPages, totalPages);
    return pagesPerStep;
  };
}

/** Every table of an open file and its rows, read in the connection's current transaction. */
export function countTables(database: BetterSqlite.Database): TableCounts {
  const tables = database.prepare(`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' order by name`).pluck().all() as string[];
  return Object.fromEntries(tables.map((table) => [table, Number(database.prepare(`select count(*) from "${table.replaceAll('"', '""')}"`).pluck().get())]));
}

/** The whole-file check, 'ok' or the first problems it names. */
export function integrityOf(database: BetterSqlite.Database): string {
  const lines = (database.pragma('integrity_check(5)') as { integrity_check: string }[]).map((row) => row.integrity_check);
  return lines.join('; ');
}

function checkFolder(dir: string, createDir: boolean): void {
  if (!existsSync(dir)) {
    if (!createDir) throw new BackupError(`the folder ${dir} does not exist; create it first`);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new BackupError(`cannot create the folder ${dir} (${errorSummary(error)})`);
    }
  }
  if (!statSync(dir).isDirectory()) throw new BackupError(`${dir} is not a folder`);
}

/** The folder's entry written to disk too, so a rename survives a power cut. Some file systems refuse; the file itself is synced already. */
export function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}

function removeFile(file: string): void {
  for (const name of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) rmSync(name, { force: true });
}

function differences(expected: TableCounts, found: TableCounts): string | undefined {
  const tables = [...new Set([...Object.keys(expected), ...Object.keys(found)])].sort();
  const wrong = tables.filter((table) => expected[table] !== found[table]).map((table) => `${table} ${found[table] ?? 'missing'} of ${expected[table] ?? 'none'}`);
  return wrong.length ? wrong.join(', ') : undefined;
}

/**
 * A consistent copy of a SQLite database the site may be writing at that moment, checked, then kept.
 *
 * The copy is SQLite's online backup (better-sqlite3's backup()), made on a read-only connection of its
 * own inside one read transaction: under WAL that transaction is a snapshot, so the copy is the database as
 * it was at its start, in many small steps, never restarted by the site's writes and never holding them up,
 * and the same snapshot gives each table's row count. The copy is then checked on its own: integrity_check
 * must say ok and every table must hold exactly the rows the snapshot held. Only then is it renamed into
 * place (a temporary name first, so DIR never holds half a copy under a backup's name) and the retention
 * rule applied, which deletes only older clicks-YYYY-MM-DD.sqlite files.
 */
export async function backupSqlite({ source, dir, now, createDir = false, onPages }: BackupOptions): Promise<BackupResult> {
  if (source === ':memory:') throw new BackupError('an in-memory database has nothing to back up');
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source}`);
  checkFolder(dir, createDir);
  const file = path.join(dir, backupFileName(utcDay(now)));
  const partial = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    closeSync(openSync(partial, 'wx'));
  } catch (error) {
    throw new BackupError(`cannot write in ${dir} (${errorCode(error) ?? errorSummary(error)}); check that the folder is writable by this user`);
  }
  try {
    const counts = await copySnapshot(source, partial, onPages);
    const copy = new BetterSqlite(partial, { fileMustExist: true });
    try {
      // A file of its own: no -wal beside it to lose when it is copied elsewhere (the server turns WAL back on when it opens a restored copy).
      copy.pragma('journal_mode = DELETE');
      const integrity = integrityOf(copy);
      if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check (${integrity}); the database itself may be damaged`);
      const wrong = differences(counts, countTables(copy));
      if (wrong) throw new BackupError(`the copy does not hold the rows the database held: ${wrong}`);
    } finally {
      copy.close();
    }
    renameSync(partial, file);
    syncFolder(dir);
    const pruned = backupsToPrune(readdirSync(dir));
    for (const name of pruned) rmSync(path.join(dir, name), { force: true });
    return { file, counts, pruned };
  } catch (error) {
    removeFile(partial);
    if (error instanceof BackupError) throw error;
    throw new BackupError(`the backup of ${source} stopped: ${errorSummary(error)}`);
  }
}

/** Copies the database as of one snapshot into target, and gives each table's rows in that snapshot. */
async function copySnapshot(source: string, target: string, onPages: BackupOptions['onPages']): Promise<TableCounts> {
  let database: BetterSqlite.Database;
  try {
    database = new BetterSqlite(source, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`cannot open ${source} (${errorSummary(error)})`);
  }
  try {
    database.pragma('busy_timeout = 5000');
    database.exec('BEGIN');
    // The first read starts the snapshot; the counts and every step of the copy read that same one.
    const counts = countTables(database);
    if (counts.schema_migrations === undefined) throw new BackupError(`${source} is not a click database (it has no schema_migrations table)`);
    const copied = await database.backup(target, { progress: stepsReported(onPages) });
    onPages?.(copied.totalPages, copied.totalPages);
    database.exec('COMMIT');
    return counts;
  } finally {
    database.close();
  }
}
