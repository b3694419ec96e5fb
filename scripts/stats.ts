/**
 * npm run stats: the affiliate funnel (visitors, visitors who clicked, conversions and revenue) per
 * placement, per source and per day, read from the statistics database:
 * PostgreSQL when DATABASE_URL is set, otherwise the SQLite file CLICKS_DB (default data/clicks.sqlite),
 * or the file --db names. Safe to run while the server is running: it only reads.
 *
 *   npm run stats                          the last 30 days
 *   npm run stats -- --days 7              the last 7 days
 *   npm run stats -- --from 2026-01-01 --to 2026-01-31
 *   npm run stats -- --json | --csv        for export
 *   npm run stats -- --csv --spend         spend and profit per source, campaign and ad, for a spreadsheet
 *   npm run stats -- --csv --reach         reach per page section and per placement (docs/reach.md)
 *   npm run stats -- --all-sources         every source, not the top 20 of the range and top 5 of each day
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { readFunnelReport, type FunnelReport } from '../server/funnelReport/funnelReport';
import { reportRange, ReportRangeError } from '../server/dayCounts/reportRange';
import { amountText } from '../server/dayCounts/reportNumbers';
import { formatReportCsv, formatReportJson, formatReportTable } from '../server/funnelReport/formatReport';
import { formatSpendCsv } from '../server/funnelReport/formatCosts';
import { formatReachCsv } from '../server/funnelReport/formatReach';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';
import { runCommand, type CommandMain } from './runCommand';

const usage = `Usage: npm run stats -- [--days N | --from YYYY-MM-DD [--to YYYY-MM-DD]] [--json | --csv [--spend | --reach]] [--all-sources] [--db FILE]`;

/** The CSV's revenue column holds one currency; this says which, on stderr, so a redirected file stays plain CSV. */
function csvCurrencyNote({ currency, all }: FunnelReport): string {
  const others = Object.entries(all.revenueByCurrency).filter(([code]) => code !== currency);
  const left = others.map(([code, amount]) => amountText(amount, code)).join(' + ');
  return `stats: revenue is in ${currency}${others.length > 0 ? `; ${left} earned in other currencies is not in the CSV (--json has it)` : ''}`;
}

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 printed, 1 no usable database, 64 bad arguments (as sysexits\' EX_USAGE).';

export const main: CommandMain = async (argv, env, out, err) => {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        days: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        spend: { type: 'boolean' },
        reach: { type: 'boolean' },
        'all-sources': { type: 'boolean' },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    err(`stats: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  if (values.help) {
    out(`${usage}\n${exitCodeHelp}\n`);
    return 0;
  }
  if (values.json && values.csv) {
    err(`stats: choose one of --json and --csv\n${usage}\n`);
    return 64;
  }
  if (values.spend && !values.csv) {
    err(`stats: --spend is a form of --csv (the table and --json carry spend already)\n${usage}\n`);
    return 64;
  }
  if (values.reach && (!values.csv || values.spend)) {
    err(`stats: --reach is a form of --csv, apart from --spend (the table and --json carry reach already)\n${usage}\n`);
    return 64;
  }
  if (values.days !== undefined && !/^\d+$/.test(values.days)) {
    err(`stats: --days must be a whole number, got "${values.days}"\n`);
    return 64;
  }

  let range;
  try {
    range = reportRange({ days: values.days === undefined ? undefined : Number(values.days), from: values.from, to: values.to });
  } catch (error) {
    if (!(error instanceof ReportRangeError)) throw error;
    err(`stats: ${error.message.replace(/^(from|to|days)\b/, '--$1')}\n`);
    return 64;
  }

  const settings = commandDatabaseSettings('stats', values.db, env, err);
  const database = settings && (await openCommandDatabase('stats', settings, err, { readOnly: true }));
  if (!database) return 1;
  try {
    const report = await readFunnelReport(database.db, range, values['all-sources'] ? { sources: 'all', daySources: 'all' } : {});
    const csv = values.spend ? formatSpendCsv : values.reach ? formatReachCsv : formatReportCsv;
    out(values.json ? formatReportJson(report) : values.csv ? csv(report) : formatReportTable(report));
    if (values.csv && !values.spend && report.currencies.length > 0) err(`${csvCurrencyNote(report)}\n`);
    // On stderr, so the JSON and CSV stay files of their own: how to have every source instead of the top ones.
    const folded = report.otherSources || report.days.some((day) => day.otherSources);
    if (values.json && folded) {
      err(`stats: sources past the top ${report.sources.length} of the range and the top 5 of each day are added up in otherSources; --all-sources lists every one\n`);
    }
    if (values.csv && !values.spend && !values.reach && folded) err('stats: the CSV has no sources; npm run stats -- --json --all-sources lists every one\n');
  } finally {
    await database.close();
  }
  return 0;
};

if (require.main === module) runCommand(main);
