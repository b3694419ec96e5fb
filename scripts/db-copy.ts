/**
 * npm run db:copy -- --to postgres://user:password@host/db [--from FILE]
 *
 * Copies the statistics of a SQLite database (--from, default CLICKS_DB or data/clicks.sqlite) into
 * PostgreSQL: raw clicks and page views, conversions and their history, the closed days' totals (of
 * the days whose raw rows are gone), the folded conversions, and link checks. An empty target's schema is created
 * first; a target at an older schema is refused (npm run migrate brings it up to date), the source may be at any.
 * Running it again copies nothing twice. A conversion whose txid the target already holds in another
 * state is not copied: the target's state wins, and the txid is printed. Safe while the server still
 * writes to the file.
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { ConfigError, defaultClicksDb, loadConfig } from '../server/config';
import { copyDatabase, type CopyReport } from '../server/dbCopy/copyDatabase';
import type { CopyCounts } from '../server/dbCopy/copyKeyedRows';
import { DatabaseError, openDatabase, type AppDatabase } from '../server/db/openDatabase';
import { errorSummary, printable } from '../server/lib/errorText';
import { silentLogger } from '../server/lib/logger';
import { commandProgress, noProgress, quietHelp } from './commandProgress';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'Usage: npm run db:copy -- --to postgres://user:password@host:5432/db [--from FILE] [--quiet]';

const line = (what: string, { copied, present, skipped }: CopyCounts, why = 'the target holds other figures for them and keeps its own') =>
  `  ${what}: ${copied} copied, ${present} already there${skipped > 0 ? `, ${skipped} skipped (${why})` : ''}\n`;

/** At most this many skipped txids are named, one line each. */
const txidsNamed = 20;

function summary(report: CopyReport): string {
  const { skippedTxids } = report.conversions;
  return [
    line('raw clicks', report.clicks, 'the target holds their click ID already, and a click ID counts once'),
    line('page views', report.views),
    line('leave reports', report.leaves),
    line('conversions', report.conversions, 'the target holds these txids in another state and keeps its own'),
    ...skippedTxids.slice(0, txidsNamed).map((txid) => `    kept the target's state of txid ${JSON.stringify(txid)}\n`),
    skippedTxids.length > txidsNamed ? `    and ${skippedTxids.length - txidsNamed} more\n` : '',
    line('conversion history', report.conversionEvents, 'their conversion was skipped'),
    line('daily totals of closed days', report.dailyCounts, 'the target closed those days with other figures and keeps its own'),
    line('closed days', report.closedDays),
    line('daily conversion totals', report.dailyConversions),
    line('daily conversion totals in experiments', report.dailyVariantConversions),
    line('daily conversion totals in campaigns', report.dailyCampaignConversions),
    line('link checks', report.linkChecks),
    line('reports not counted (per day, beacon and reason)', report.filteredCounts, 'the target counted those days itself and keeps its own'),
    line('releases', report.releases, 'the target recorded those builds first and keeps its own'),
    line('incidents', report.incidents, 'the target holds its own version of them, or its own open incident of the same rule'),
    line('daily costs', report.costs, 'the target holds other amounts for those days and keeps its own'),
    line('fixed-cost rules', report.fixedCosts),
    line('claim verdicts', report.claimStates),
    line('claim evidence', report.claimEvidence),
  ].join('');
}

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 copied, 1 a database cannot be used, 64 bad arguments.';

export const main: CommandMain = async (argv, env, out, err, context) => {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { to: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' }, quiet: { type: 'boolean', short: 'q' } }, strict: true }));
  } catch (error) {
    err(`db:copy: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n${quietHelp}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (!values.to) {
    err(`db:copy: --to is required\n${usage}\n`);
    return 64;
  }
  let target;
  try {
    // The server's own check of a DATABASE_URL, so the message and the redaction are the same.
    target = loadConfig({ DATABASE_URL: values.to }).statistics!.database;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`db:copy: --to: ${error.message.replace(/^DATABASE_URL\b/, 'the address')}\n`);
    return 64;
  }
  const file = values.from ?? (env.CLICKS_DB?.trim() || defaultClicksDb);

  const opened: AppDatabase[] = [];
  const progress = values.quiet ? noProgress : commandProgress('db:copy', 'rows', err, env, context);
  try {
    const from = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger, readOnly: true, schema: 'known' });
    opened.push(from);
    const to = await openDatabase(target, { logger: silentLogger, schema: 'current' });
    opened.push(to);
    const report = await copyDatabase(from.db, to.db, progress.update);
    progress.end();
    out(`Copied ${from.name} into ${to.name}:\n`);
    if (report.sourceSchema < 4) out(`  (${from.name} is at schema ${report.sourceSchema}, from an older version of the site: it has no page views, click IDs or sources to copy)\n`);
    out(summary(report));
    return 0;
  } catch (error) {
    progress.end();
    if (error instanceof DatabaseError) {
      err(`db:copy: ${error.message}\n`);
      return 1;
    }
    // Mid-copy (a query timeout, a connection dropped): each availability tracker knows whether its database failed.
    const failed = opened.find((database) => !database.availability.available);
    const what = printable(errorSummary(error));
    err(`db:copy: the copy stopped at an error${failed ? ` from ${failed.name}` : ''}: ${what}; what was copied is kept, and running the copy again adds only the rest\n`);
    return 1;
  } finally {
    // A database that stopped answering may fail to close too; that must not hide the line above.
    await Promise.all(opened.map((database) => database.close().catch(() => {})));
  }
};

if (require.main === module) runCommand(main, 'db:copy');
