/**
 * npm run stats: clicks and unique visitors per affiliate placement, read from the click database
 * (CLICKS_DB, default data/clicks.sqlite). Safe to run while the server is running.
 *
 *   npm run stats                          the last 30 days
 *   npm run stats -- --days 7              the last 7 days
 *   npm run stats -- --from 2026-01-01 --to 2026-01-31
 *   npm run stats -- --json | --csv        for export
 */
import { parseArgs } from 'node:util';
import { readClickReport, reportRange, ReportRangeError } from '../server/clicks/clickReport';
import { ClickStoreError, openClickStoreReadOnly } from '../server/clicks/clickStore';
import { formatReportCsv, formatReportJson, formatReportTable } from '../server/clicks/formatReport';
import { defaultClicksDb } from '../server/config';

const usage = `Usage: npm run stats -- [--days N | --from YYYY-MM-DD [--to YYYY-MM-DD]] [--json | --csv] [--db FILE]`;

/** Exit codes: 0 printed, 1 no usable database, 64 bad arguments (as sysexits' EX_USAGE). */
export function main(argv: string[], env: Record<string, string | undefined>, out: (text: string) => void, err: (text: string) => void): number {
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
    out(`${usage}\n`);
    return 0;
  }
  if (values.json && values.csv) {
    err(`stats: choose one of --json and --csv\n${usage}\n`);
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

  const file = values.db ?? (env.CLICKS_DB?.trim() || defaultClicksDb);
  let db;
  try {
    db = openClickStoreReadOnly(file);
  } catch (error) {
    if (!(error instanceof ClickStoreError)) throw error;
    err(`stats: ${error.message}\n`);
    return 1;
  }
  try {
    const report = readClickReport(db, range);
    out(values.json ? formatReportJson(report) : values.csv ? formatReportCsv(report) : formatReportTable(report));
  } finally {
    db.close();
  }
  return 0;
}

if (require.main === module) {
  process.exitCode = main(
    process.argv.slice(2),
    process.env,
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  );
}
