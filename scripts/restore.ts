/**
 * npm run restore -- FILE [--db TARGET]
 *
 * Puts a backup (npm run backup's clicks-YYYY-MM-DD.sqlite, or any copy of the database) in place of the
 * SQLite statistics database (--db, else CLICKS_DB or data/clicks.sqlite). The backup is checked first
 * (integrity_check, a click database at a schema this version can run); a target in use (a running server
 * has it open) or written by a newer version is refused. The current file is moved aside, with its -wal
 * and -shm, as TARGET.before-restore-YYYYMMDDTHHMMSSZ, never deleted; the backup is renamed into place.
 * Then npm run migrate, or starting the server, brings an older backup's schema up to date.
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { RestoreError, restoreSqlite } from '../server/backup/sqliteRestore';
import { commandDatabaseSettings } from './commandDatabase';
import { commandProgress, noProgress, pagesShown, quietHelp } from './commandProgress';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'Usage: npm run restore -- FILE [--db TARGET] [--quiet]';

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 restored, 1 refused (the backup fails its check, the target is in use or newer) or failed with the target untouched, 64 bad arguments.';

export const main: CommandMain = async (argv, env, out, err, context) => {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' }, quiet: { type: 'boolean', short: 'q' } }, allowPositionals: true, strict: true });
  } catch (error) {
    err(`restore: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${usage}\n${quietHelp}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1 || !positionals[0]!.trim()) {
    err(`restore: name one backup file to restore\n${usage}\n`);
    return 64;
  }
  if (values.db !== undefined && !values.db.trim()) {
    err(`restore: --db needs a file name\n${usage}\n`);
    return 64;
  }
  const settings = commandDatabaseSettings('restore', values.db, env, err);
  if (!settings) return 1;
  if (settings.engine === 'postgres') {
    err('restore: DATABASE_URL is set: this command restores the SQLite file; restore PostgreSQL with pg_restore (see docs/backups.md)\n');
    return 1;
  }
  if (settings.file === ':memory:') {
    err('restore: CLICKS_DB is :memory:, which no file can be restored into\n');
    return 1;
  }
  const progress = values.quiet ? noProgress : commandProgress('restore', 'pages', err, env, context);
  try {
    const { schema, counts, movedAside } = await restoreSqlite({ backup: positionals[0]!, target: settings.file, now: new Date(), onPages: pagesShown(progress) });
    progress.end();
    out(`Restored ${positionals[0]} (schema ${schema}, integrity ok) to ${settings.file}.\n`);
    if (movedAside) out(`The database that was there is kept as ${movedAside}.\n`);
    out(`Rows restored: ${Object.entries(counts).map(([table, rows]) => `${table} ${rows}`).join(', ')}\n`);
    return 0;
  } catch (error) {
    progress.end();
    if (!(error instanceof RestoreError)) throw error;
    err(`restore: ${error.message}\n`);
    return 1;
  }
};

if (require.main === module) runCommand(main, 'restore');
