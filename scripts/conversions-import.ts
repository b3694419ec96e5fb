/**
 * npm run conversions:import -- FILE.csv: a network's CSV report of sales, refunds and chargebacks, for
 * networks without postbacks (CJ) or to fill a gap. The same rules as a postback, row by row; running it
 * again on the same file adds nothing. Writes to PostgreSQL when DATABASE_URL is set, otherwise to the
 * SQLite file CLICKS_DB (default data/clicks.sqlite) or the file --db names; safe while the server runs.
 *
 *   npm run conversions:import -- report.csv --txid-column "Order ID" --subid-column SID \
 *     --payout-column Commission --status-column Status --status-map "New=sale,Locked=sale,Corrected=refund"
 */
import '../server/nodeVersion';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatPayout, statusMapFromPairs } from '../server/conversions/conversionFields';
import { importConversions, ImportSetupError, type ImportOptions } from '../server/conversions/conversionImport';
import { decodeCsvText } from '../server/conversions/csvText';
import { createConversionStore, readConversionTotals } from '../server/conversions/conversionStore';
import { errorSummary, printable } from '../server/lib/errorText';
import { commandProgress, noProgress, quietHelp } from './commandProgress';
import { runCommand, type CommandMain } from './runCommand';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';

const usage = `Usage: npm run conversions:import -- FILE.csv [--txid-column NAME] [--subid-column NAME] [--payout-column NAME]
         [--currency-column NAME] [--status-column NAME] [--status-map "Locked=sale,Reversed=refund,Disputed=chargeback"]
         [--currency CODE] [--delimiter ";"] [--db FILE]
Columns default to txid, subid, payout, currency and status (matched without case); only txid is required.`;

const columnOptions = { txid: 'txid-column', subid: 'subid-column', payout: 'payout-column', currency: 'currency-column', status: 'status-column' } as const;

/** Every line as a terminal may show it: whatever a value from the file or the command line holds, only line ends stay. */
const printableLines = (write: (text: string) => void) => (text: string) => write(text.split('\n').map(printable).join('\n'));

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 every row imported or already there, 1 a row rejected (or no usable file or database), 64 bad arguments.';

export const main: CommandMain = async (argv, env, writeOut, writeErr, context) => {
  const out = printableLines(writeOut);
  const err = printableLines(writeErr);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'txid-column': { type: 'string' },
        'subid-column': { type: 'string' },
        'payout-column': { type: 'string' },
        'currency-column': { type: 'string' },
        'status-column': { type: 'string' },
        'status-map': { type: 'string' },
        currency: { type: 'string' },
        delimiter: { type: 'string' },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        quiet: { type: 'boolean', short: 'q' },
      },
      strict: true,
    });
  } catch (error) {
    err(`conversions:import: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${usage}\n${quietHelp}\n${exitCodeHelp}\n`);
    return 0;
  }
  const bad = (message: string) => {
    err(`conversions:import: ${message}\n${usage}\n`);
    return 64;
  };
  if (positionals.length !== 1) return bad('name one CSV file');
  const statusMap = statusMapFromPairs(typeof values['status-map'] === 'string' ? values['status-map'] : '');
  if (statusMap.error !== undefined) return bad(statusMap.error);
  const delimiter = typeof values.delimiter === 'string' ? values.delimiter.replace(/^\\t$|^tab$/i, '\t') : ',';
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\r' || delimiter === '\n') return bad('--delimiter must be one character, such as ";" or tab');
  const currency = typeof values.currency === 'string' ? values.currency.trim().toUpperCase() : undefined;
  if (currency !== undefined && !Intl.supportedValuesOf('currency').includes(currency)) return bad('--currency must be an ISO 4217 currency code such as EUR');
  const columns: ImportOptions['columns'] = {};
  for (const [field, option] of Object.entries(columnOptions) as Array<[keyof typeof columnOptions, (typeof columnOptions)[keyof typeof columnOptions]]>) {
    const name = values[option];
    if (typeof name === 'string') columns[field] = name;
  }

  const file = positionals[0]!;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    err(`conversions:import: cannot read ${file}: ${errorSummary(error)}\n`);
    return 1;
  }
  const decoded = decodeCsvText(bytes);
  if (decoded.error !== undefined) {
    err(`conversions:import: ${file} is not CSV text: ${decoded.error}\n`);
    return 1;
  }
  const { text } = decoded;

  const settings = commandDatabaseSettings('conversions:import', typeof values.db === 'string' ? values.db : undefined, env, err);
  const database = settings && (await openCommandDatabase('conversions:import', settings, err));
  if (!database) return 1;
  // Written as is: its terminal control characters are the point (err writes them out as text).
  const progress = values.quiet ? noProgress : commandProgress('conversions:import', 'rows', writeErr, env, context);
  try {
    const result = await importConversions(text, { columns, statusMap: statusMap.map, currency, delimiter, onRow: progress.update }, createConversionStore(database.db));
    progress.end();
    out(`imported ${result.imported}, duplicate ${result.duplicate}, rejected ${result.rejected.length}\n`);
    for (const { line, reason } of result.rejected) out(`  line ${line}: ${reason}\n`);
    const totals = await readConversionTotals(database.db);
    const revenue = totals.revenue.map((row) => `${formatPayout(row.payoutMicros)} ${row.currency}`).join(', ') || 'no payouts';
    const conversions = `${totals.conversions} conversion${totals.conversions === 1 ? '' : 's'}`;
    out(`now recorded: ${conversions} (${revenue}), ${totals.reversed} reversed\n`);
    return result.rejected.length > 0 ? 1 : 0;
  } catch (error) {
    progress.end();
    if (error instanceof ImportSetupError) {
      if (error.fromOptions) return bad(`${file}: ${error.message}`);
      err(`conversions:import: ${file}: ${error.message}\n`);
      return 1;
    }
    err(`conversions:import: the database stopped answering: ${errorSummary(error)}; rows before it are recorded, run the import again\n`);
    return 1;
  } finally {
    // A database that stopped answering may fail to close too; that must not hide the line above.
    await database.close().catch(() => {});
  }
};

if (require.main === module) runCommand(main, 'conversions:import');
