/**
 * npm run db:status [-- --db FILE]
 *
 * Where the statistics database's schema stands (DATABASE_URL, else CLICKS_DB or data/clicks.sqlite, or the
 * file --db names): its version, this code's, and the steps npm run migrate would apply. Opens it read-only
 * and changes nothing, so it is safe beside a running server and in a deploy script before the migration.
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { schemaStatus } from '../server/db/migrate';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';
import { runCommand, type CommandMain } from './runCommand';

export const usage = `Usage: npm run db:status [-- --db FILE]
Prints the schema's version, this code's, and the steps npm run migrate would apply; changes nothing.
Exit codes: 0 up to date, 1 steps pending (or a schema newer than this code, or no usable database), 64 bad arguments.`;

export const main: CommandMain = async (argv, env, out, err) => {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    err(`db:status: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n`);
    return 0;
  }
  if (values.db !== undefined && !values.db.trim()) {
    err(`db:status: --db needs a file name\n${usage}\n`);
    return 64;
  }
  const settings = commandDatabaseSettings('db:status', values.db, env, err);
  const database = settings && (await openCommandDatabase('db:status', settings, err, { readOnly: true, schema: 'as-is' }));
  if (!database) return 1;
  try {
    const { version, known, pending } = await schemaStatus(database.db);
    if (version > known) {
      out(`${database.name}: schema ${version}, newer than this version of the site (${known}): run the version that wrote it\n`);
      return 1;
    }
    if (pending.length === 0) {
      out(`${database.name}: schema ${version}, up to date\n`);
      return 0;
    }
    out(`${database.name}: schema ${version}, this version of the site needs ${known}; ${pending.length} ${pending.length === 1 ? 'step' : 'steps'} pending:\n`);
    for (const step of pending) out(`  ${step}\n`);
    out('Run npm run migrate to apply them, after a backup (docs/deploy.md#6-updating).\n');
    return 1;
  } finally {
    await database.close();
  }
};

if (require.main === module) runCommand(main, 'db:status');
