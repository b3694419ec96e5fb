import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ClickStatsConfig } from '../config';
import { migrations } from './migrations';
import { utcDay } from './utcDay';

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';
/** How the click reached us: JavaScript's sendBeacon, or the link's own ping attribute without it. */
export type ClickChannel = 'beacon' | 'ping';

export interface Click {
  at: Date;
  placement: string;
  page: string;
  referrerHost: string | null;
  device: DeviceClass;
  visitor: string;
  via: ClickChannel;
}

/** A click database that cannot be used: the message says which file and what to do. */
export class ClickStoreError extends Error {
  override name = 'ClickStoreError';
}

export interface ClickStore {
  readonly db: Database.Database;
  /** Writes one click; when it returns, the click is committed. */
  record(click: Click): void;
  /** Folds raw clicks from before the retention period into daily totals; returns how many rows were folded. */
  foldOldClicks(now?: Date): number;
  close(): void;
}

interface SqliteError extends Error {
  code?: string;
}

/** Turns SQLite's terse codes into a sentence an operator can act on. */
function explain(file: string, error: unknown): ClickStoreError {
  const code = (error as SqliteError).code ?? '';
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new ClickStoreError(`CLICKS_DB ${file} is damaged or not a SQLite database (${detail}); move it aside to start counting afresh`);
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM') || code === 'EACCES') {
    return new ClickStoreError(`CLICKS_DB ${file} cannot be opened for writing (${detail}); check that the file and its folder are writable by this user`);
  }
  return new ClickStoreError(`CLICKS_DB ${file} cannot be used: ${detail}`);
}

function migrate(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    throw new ClickStoreError(`CLICKS_DB ${file} was written by a newer version of this site (schema ${version}, this one knows ${migrations.length})`);
  }
  const apply = db.transaction(() => {
    migrations.slice(version).forEach((sql, index) => {
      db.exec(sql);
      db.pragma(`user_version = ${version + index + 1}`);
    });
  });
  apply.immediate();
}

/** Fails now, rather than at the first click, if the file is damaged or cannot be written. */
function checkUsable(db: Database.Database, file: string): void {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new ClickStoreError(`CLICKS_DB ${file} is damaged (${String(check)}); move it aside to start counting afresh`);
  // Taking the write lock is what fails on a read-only file or folder.
  db.exec('BEGIN IMMEDIATE; ROLLBACK');
}

/**
 * Opens (creating it, and its folder, when missing) the click database, brings its schema up to date and
 * folds clicks past the retention period. Any problem is a ClickStoreError, so the server refuses to
 * start rather than run without counting.
 */
export function openClickStore(config: ClickStatsConfig, now: Date = new Date()): ClickStore {
  const file = config.dbPath;
  let db: Database.Database;
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    db = new Database(file);
  } catch (error) {
    throw explain(file, error);
  }
  try {
    // WAL lets `npm run stats` read while the server writes; NORMAL still keeps every committed
    // transaction through a crash of this process (only a power cut can lose the last few).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    checkUsable(db, file);
    migrate(db, file);
  } catch (error) {
    db.close();
    throw error instanceof ClickStoreError ? error : explain(file, error);
  }

  const insert = db.prepare(
    'INSERT INTO clicks (at, day, placement, page, referrer_host, device, visitor, via) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const foldBefore = db.transaction((cutoffDay: string) => {
    // The outer WHERE is SQLite's rule for an upsert fed by a SELECT (it would otherwise read ON as a join).
    db.prepare(
      `INSERT INTO daily_totals (day, placement, clicks, visitors)
       SELECT day, placement, clicks, visitors FROM (
         SELECT day, placement, count(*) AS clicks, count(DISTINCT visitor) AS visitors FROM clicks WHERE day < @cutoff GROUP BY day, placement
         UNION ALL
         SELECT day, '*', count(*), count(DISTINCT visitor) FROM clicks WHERE day < @cutoff GROUP BY day
       ) WHERE true
       ON CONFLICT (day, placement) DO UPDATE SET clicks = clicks + excluded.clicks, visitors = visitors + excluded.visitors`,
    ).run({ cutoff: cutoffDay });
    return db.prepare('DELETE FROM clicks WHERE day < ?').run(cutoffDay).changes;
  });

  const store: ClickStore = {
    db,
    record(click) {
      insert.run(click.at.getTime(), utcDay(click.at), click.placement, click.page, click.referrerHost, click.device, click.visitor, click.via);
    },
    foldOldClicks(at = new Date()) {
      const cutoff = new Date(at.getTime() - config.retentionDays * 86_400_000);
      return foldBefore(utcDay(cutoff));
    },
    close() {
      if (db.open) db.close();
    },
  };
  try {
    store.foldOldClicks(now);
  } catch (error) {
    db.close();
    throw explain(file, error);
  }
  return store;
}

/**
 * Opens an existing click database for reading only (npm run stats), while the server may be writing it.
 */
export function openClickStoreReadOnly(file: string): Database.Database {
  if (!existsSync(file)) {
    throw new ClickStoreError(`there is no click database at ${file} yet: the server creates it when it first starts with click counting on`);
  }
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0 || version > migrations.length) {
      db.close();
      throw new ClickStoreError(`CLICKS_DB ${file} is not a click database this version of the site can read (schema ${version})`);
    }
  } catch (error) {
    throw error instanceof ClickStoreError ? error : explain(file, error);
  }
  return db;
}
