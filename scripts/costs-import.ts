/**
 * npm run costs:import -- FILE.csv [--source NAME]: an ad platform's daily campaign report (Google Ads,
 * Microsoft Advertising, Meta, TikTok, or the plain form) as the state of each day's spend. Each day,
 * source, campaign and ad in the file replaces what was held for it, so the same file twice changes
 * nothing and a corrected report replaces. Writes to PostgreSQL when DATABASE_URL is set, otherwise to
 * the SQLite file CLICKS_DB (default data/clicks.sqlite) or the file --db names; safe while the server runs.
 *
 *   npm run costs:import -- "Campaign report.csv"
 *   npm run costs:import -- meta-export.csv --source instagram --campaign-map campaigns.csv
 *   npm run costs:import -- costs.csv --dates dmy
 */
import '../server/nodeVersion';
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatPayout } from '../server/conversions/conversionFields';
import { decodeCsvText, type CsvTextOptions } from '../server/conversions/csvText';
import { isCampaignValue } from '../shared/trafficSource';
import { isCurrencyCode, readCampaignMap, readCostReport, type CostPlatform } from '../server/costs/costReports';
import { isDateOrder } from '../server/costs/costReportDates';
import { replaceCosts } from '../server/costs/costStore';
import { errorSummary, printable } from '../server/lib/errorText';
import { commandProgress, noProgress, quietHelp } from './commandProgress';
import { runCommand, type CommandMain } from './runCommand';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';

const usage = `Usage: npm run costs:import -- FILE.csv [--source NAME] [--currency CODE] [--campaign-map FILE.csv] [--dates mdy|dmy] [--db FILE]
Reads Google Ads, Microsoft Advertising, Meta Ads Manager and TikTok Ads Manager daily campaign reports,
and the plain form day,source,campaign,content,cost,currency; CSV or tab-separated, UTF-8, or UTF-16
with its byte-order mark (Google Ads' "Excel CSV").
  --dates mdy|dmy   slash dates with the year last are month first (3/11/2026 is March 11) or day first
                    (November 3); needed only when no date in the file shows which
Exit codes: 0 every row applied (totals and rows without an amount skipped), 1 a row rejected (the rest
applied) or no usable file or database, 64 bad arguments.`;

/** A cost report of a year of daily rows per ad is a few megabytes; a file far beyond that was picked by mistake. */
export const maxReportBytes = 20 * 1024 * 1024;

const platformNames: Record<CostPlatform, string> = {
  google: 'a Google Ads report',
  microsoft: 'a Microsoft Advertising report',
  meta: 'a Meta Ads Manager report',
  tiktok: 'a TikTok Ads Manager report',
  plain: 'a plain cost file',
};

/** Every line as a terminal may show it: whatever a value from the file or the command line holds, only line ends stay. */
const printableLines = (write: (text: string) => void) => (text: string) => write(text.split('\n').map(printable).join('\n'));

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** One line for every row whose amount is empty or "--": named, not applied, and no failure of the import. */
function noAmountLine(lines: readonly number[], column: string): string {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? `, … (${lines.length} rows)` : '');
  return `${lines.length === 1 ? 'line' : 'lines'} ${shown}: no amount in "${column}" (empty or --), so nothing was set for ${lines.length === 1 ? 'that row' : 'those rows'}; the rest is applied`;
}

/** A file's text, or one line on err saying why not (unreadable, too large, not CSV text). */
function readCsvFile(file: string, err: (text: string) => void, options: CsvTextOptions = {}): string | undefined {
  try {
    const { size } = statSync(file);
    if (size > maxReportBytes) {
      err(`costs:import: ${file} is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${maxReportBytes / 1024 / 1024} MB a cost report can be; export fewer days at a time\n`);
      return undefined;
    }
    const decoded = decodeCsvText(readFileSync(file), options);
    if (decoded.error === undefined) return decoded.text;
    err(`costs:import: ${file} is not CSV text: ${decoded.error}\n`);
  } catch (error) {
    err(`costs:import: cannot read ${file}: ${errorSummary(error)}\n`);
  }
  return undefined;
}

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 every row applied (or skipped as a total), 1 a row rejected or no usable file or database, 64 bad arguments.';

export const main: CommandMain = async (argv, env, writeOut, writeErr, context) => {
  const out = printableLines(writeOut);
  const err = printableLines(writeErr);
  const bad = (message: string) => {
    err(`costs:import: ${message}\n${usage}\n`);
    return 64;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        source: { type: 'string' },
        currency: { type: 'string' },
        'campaign-map': { type: 'string' },
        dates: { type: 'string' },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        quiet: { type: 'boolean', short: 'q' },
      },
      strict: true,
    });
  } catch (error) {
    return bad((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${usage}\n${quietHelp}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1) return bad('name one CSV file');
  const source = values.source?.trim();
  if (source !== undefined && (source === '' || !isCampaignValue(source))) return bad('--source must be the utm_source the ads carry: 1 to 100 characters, no control characters');
  const currency = values.currency?.trim().toUpperCase();
  if (currency !== undefined && !isCurrencyCode(currency)) return bad('--currency must be an ISO 4217 currency code such as EUR');
  const dates = values.dates?.trim().toLowerCase();
  if (dates !== undefined && !isDateOrder(dates)) return bad('--dates must be mdy (month first: 3/11/2026 is March 11) or dmy (day first: November 3)');

  let campaignMap: Map<string, string> | undefined;
  if (values['campaign-map'] !== undefined) {
    const mapText = readCsvFile(values['campaign-map'], err);
    if (mapText === undefined) return 1;
    const map = readCampaignMap(mapText);
    if ('error' in map) {
      err(`costs:import: the campaign map ${values['campaign-map']}: ${map.error}\n`);
      return 1;
    }
    campaignMap = map.map;
  }

  const file = positionals[0]!;
  const text = readCsvFile(file, err, { utf16WithMark: true });
  if (text === undefined) return 1;
  const report = readCostReport(text, { source, currency, campaignMap, dates });
  if ('error' in report) {
    err(`costs:import: ${file}: ${report.error}\n`);
    return 1;
  }

  const settings = commandDatabaseSettings('costs:import', values.db, env, err);
  const database = settings && (await openCommandDatabase('costs:import', settings, err));
  if (!database) return 1;
  // Written as is: its terminal control characters are the point (err writes them out as text).
  const progress = values.quiet ? noProgress : commandProgress('costs:import', 'costs', writeErr, env, context);
  try {
    const written = report.rows.length > 0 ? await replaceCosts(database.db, report.rows, new Date(), progress.update) : { changed: 0, unchanged: 0 };
    progress.end();
    const totals = new Map<string, number>();
    for (const row of report.rows) totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.amountMicros);
    const amounts = [...totals].map(([code, micros]) => `${formatPayout(micros)} ${code}`).join(', ') || 'nothing';
    const noAmount = report.noAmount.length > 0 ? `${report.noAmount.length} without an amount, ` : '';
    const summed = report.summed > 0 ? `, ${plural(report.summed, 'row')} added into another of the same day, campaign and ad` : '';
    out(`${file}: ${platformNames[report.platform]}: ${plural(report.rows.length, 'cost')} (${amounts})${summed}, ${plural(report.skipped, 'total or note row')} skipped, ${noAmount}${report.rejected.length} rejected\n`);
    for (const { line, reason } of report.rejected) out(`  line ${line}: ${reason}\n`);
    if (report.noAmount.length > 0) out(`  ${noAmountLine(report.noAmount, report.amountName)}\n`);
    out(`written: ${written.changed} new or changed, ${written.unchanged} already held\n`);
    return report.rejected.length > 0 ? 1 : 0;
  } catch (error) {
    progress.end();
    // On PostgreSQL nothing of the file is written then; on SQLite the slices written before it are kept
    // (costStore's replaceCosts). Either way running it again sets the same amounts and adds nothing.
    err(`costs:import: the database stopped answering: ${errorSummary(error)}; run the import again, which sets the same amounts and adds nothing\n`);
    return 1;
  } finally {
    // A database that stopped answering may fail to close too; that must not hide the line above.
    await database.close().catch(() => {});
  }
};

if (require.main === module) runCommand(main, 'costs:import');
