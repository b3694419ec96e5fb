/**
 * npm run digest: writes the weekly digest (the e-mail the server sends when ALERT_EMAIL_TO and SMTP_URL
 * are set) to files, without sending it: FILE.html and, beside it, its text part as FILE.txt. It reads
 * the last seven complete UTC days against the seven before, from DATABASE_URL, CLICKS_DB or --db FILE,
 * as npm run stats does; it only reads, so it is safe while the server runs. Its links start with SITE_URL.
 *
 *   npm run digest -- --to digest.html                           the last complete week
 *   npm run digest -- --to digest.html --week-ending 2026-01-18  the seven days ending on that day
 */
import '../server/nodeVersion';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config';
import type { DatabaseSettings } from '../server/db/databaseSettings';
import { isoWeek, lastCompleteWeek, weekEnding } from '../server/digest/digestWeek';
import { firstReportDay, reportRange, ReportRangeError } from '../server/dayCounts/reportRange';
import { errorSummary } from '../server/lib/errorText';
import { inProcessReportReader } from '../server/reports/reportReader';
import { runCommand, type CommandMain } from './runCommand';
import { openCommandDatabase } from './commandDatabase';

const usage = 'usage: npm run digest -- --to FILE.html [--week-ending YYYY-MM-DD] [--db FILE]';

/** The text part's file: FILE.txt for FILE.html, else the name with .txt added. */
export const textFileOf = (htmlFile: string) => (/\.html?$/i.test(htmlFile) ? htmlFile.replace(/\.html?$/i, '.txt') : `${htmlFile}.txt`);

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 written, 1 no usable database or a file that cannot be written, 64 bad arguments (as sysexits\' EX_USAGE).';

export const main: CommandMain = async (argv, env, out, err) => {
  const refuse = (problem: string) => {
    err(`digest: ${problem} (${usage})\n`);
    return 64;
  };
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { to: { type: 'string' }, 'week-ending': { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    return refuse((error as Error).message);
  }
  if (values.help) {
    out(`${usage}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (!values.to) return refuse('--to FILE.html is required: where to write the digest');

  let week = lastCompleteWeek(new Date());
  const lastDay = values['week-ending'];
  if (lastDay !== undefined) {
    try {
      // The same checks of a day as every report's.
      reportRange({ from: lastDay, to: lastDay });
    } catch (error) {
      if (!(error instanceof ReportRangeError)) throw error;
      return refuse(`--week-ending ${error.message.replace(/^(from|to) /, '')}`);
    }
    week = weekEnding(lastDay, isoWeek(lastDay));
    if (week.previous.from < firstReportDay) return refuse(`--week-ending must leave two weeks after ${firstReportDay}, got "${lastDay}"`);
  }

  let settings: DatabaseSettings;
  let siteUrl: string;
  try {
    // The server's own reading of these variables, so the digest names the same database and links to the same site.
    const config = loadConfig({ DATABASE_URL: env.DATABASE_URL, CLICKS_DB: env.CLICKS_DB, SITE_URL: env.SITE_URL, HOST: env.HOST, PORT: env.PORT, CONTACT_EMAIL: env.CONTACT_EMAIL });
    settings = values.db ? { engine: 'sqlite', file: values.db } : config.statistics!.database;
    siteUrl = config.siteUrl;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`digest: ${error.message}\n`);
    return 1;
  }
  const database = await openCommandDatabase('digest', settings, err, { readOnly: true });
  if (!database) return 1;
  let message;
  try {
    message = await inProcessReportReader(database.db).readDigest(week, { siteUrl });
  } finally {
    await database.close();
  }
  const textFile = textFileOf(values.to);
  try {
    await writeFile(values.to, message.html ?? '');
    await writeFile(textFile, message.text);
  } catch (error) {
    err(`digest: cannot write the digest: ${errorSummary(error)}\n`);
    return 1;
  }
  out(`Subject: ${message.subject}\nWrote ${values.to} and ${textFile} (not sent)\n`);
  return 0;
};

if (require.main === module) runCommand(main);
