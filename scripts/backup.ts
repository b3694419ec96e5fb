/**
 * npm run backup -- --to DIR [--db FILE]
 *
 * A consistent copy of the SQLite statistics database (--db, else CLICKS_DB or data/clicks.sqlite), made
 * while the site runs and writes, checked (integrity_check, and every table's rows against the database at
 * the moment of the copy), and written as DIR/clicks-YYYY-MM-DD.sqlite (UTC), replacing that day's copy if
 * there is one. Older copies are pruned: the newest 7, and the newest of each of 4 weeks before them, are
 * kept; no other file in DIR is touched. PostgreSQL is backed up with pg_dump (docs/backups.md).
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { keptDaily, keptWeekly } from '../server/backup/backupFiles';
import { BackupError, backupSqlite } from '../server/backup/sqliteBackup';
import { commandDatabaseSettings } from './commandDatabase';
import { commandProgress, noProgress, pagesShown, quietHelp } from './commandProgress';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'Usage: npm run backup -- --to DIR [--db FILE] [--quiet]';

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 the copy is written and checked, 1 no copy (no such folder or database, unwritable, a failed check), 64 bad arguments.';

export const main: CommandMain = async (argv, env, out, err, context) => {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { to: { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' }, quiet: { type: 'boolean', short: 'q' } }, strict: true }));
  } catch (error) {
    err(`backup: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n${quietHelp}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (!values.to?.trim()) {
    err(`backup: --to DIR is required\n${usage}\n`);
    return 64;
  }
  if (values.db !== undefined && !values.db.trim()) {
    err(`backup: --db needs a file name\n${usage}\n`);
    return 64;
  }
  const settings = commandDatabaseSettings('backup', values.db, env, err);
  if (!settings) return 1;
  if (settings.engine === 'postgres') {
    err('backup: DATABASE_URL is set: this command copies the SQLite file; back PostgreSQL up with pg_dump -Fc (see docs/backups.md)\n');
    return 1;
  }
  const progress = values.quiet ? noProgress : commandProgress('backup', 'pages', err, env, context);
  try {
    const { file, counts, pruned } = await backupSqlite({ source: settings.file, dir: values.to, now: new Date(), onPages: pagesShown(progress) });
    progress.end();
    out(`Backed up ${settings.file} to ${file}: integrity ok, and every table holds the rows the database held at the moment of the copy:\n`);
    for (const [table, rows] of Object.entries(counts)) out(`  ${table}: ${rows}\n`);
    if (pruned.length) out(`Removed ${pruned.length} older ${pruned.length === 1 ? 'copy' : 'copies'} (keeping the newest ${keptDaily}, and the newest of each of ${keptWeekly} weeks before them): ${pruned.join(', ')}\n`);
    return 0;
  } catch (error) {
    progress.end();
    if (!(error instanceof BackupError)) throw error;
    err(`backup: ${error.message}\n`);
    return 1;
  }
};

if (require.main === module) runCommand(main, 'backup');
