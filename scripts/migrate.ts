/**
 * npm run migrate [-- --db FILE]
 *
 * Brings the statistics database's schema up to date (DATABASE_URL, else CLICKS_DB or data/clicks.sqlite,
 * or the file --db names), in one transaction: every step applies, or none. The server does the same at
 * start-up; every other command refuses a database whose schema is behind and names this one. Take a
 * backup first (docs/deploy.md#6-updating): a step is not undone by the older version.
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { migrate, schemaStatus, SchemaTooNewError } from '../server/db/migrate';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';
import { runCommand, type CommandMain } from './runCommand';

export const usage = `Usage: npm run migrate [-- --db FILE]
Applies the schema steps the database lacks (npm run db:status lists them), all in one transaction; a new database is set up.
Exit codes: 0 up to date (migrated, or nothing to do), 1 not migrated (a schema newer than this code, no usable database, a step failed), 64 bad arguments.`;

export const main: CommandMain = async (argv, env, out, err) => {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    err(`migrate: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n`);
    return 0;
  }
  if (values.db !== undefined && !values.db.trim()) {
    err(`migrate: --db needs a file name\n${usage}\n`);
    return 64;
  }
  const settings = commandDatabaseSettings('migrate', values.db, env, err);
  const database = settings && (await openCommandDatabase('migrate', settings, err, { schema: 'as-is' }));
  if (!database) return 1;
  try {
    const before = await schemaStatus(database.db);
    if (before.pending.length === 0 && before.version === before.known) {
      out(`${database.name}: schema ${before.version}, up to date; nothing to do\n`);
      return 0;
    }
    await migrate(database.db, database.engine);
    out(`${database.name}: migrated from schema ${before.version} to ${before.known}: ${before.pending.join(', ')}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof SchemaTooNewError)) throw error;
    err(`migrate: ${database.name} was written by a newer version of this site (${error.message}); nothing was changed\n`);
    return 1;
  } finally {
    await database.close();
  }
};

if (require.main === module) runCommand(main, 'migrate');
