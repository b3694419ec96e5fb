import { conversionFieldNames, parseConversion, type ConversionFieldName, type ConversionFields, type StatusMap } from './conversionFields';
import type { ConversionStore } from './conversionStore';
import { printable } from '../lib/errorText';
import { parseCsvRecords } from './csvRecords';

export interface ImportOptions {
  /** The report's column for each of our fields, where it differs from the field's own name (txid, subid, ...). */
  columns: Partial<Record<ConversionFieldName, string>>;
  /** The network's status names, e.g. Locked → sale, Reversed → refund. */
  statusMap: StatusMap;
  /** The currency of rows whose currency cell is missing or empty; USD when not given. */
  currency?: string;
  delimiter?: string;
  /** Told the rows handled so far of the file's rows, before each (npm run conversions:import's progress). */
  onRow?: (done: number, total: number) => void;
}

export interface RejectedRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  reason: string;
}

export interface ImportResult {
  /** Rows that changed something: a new sale, a reversal, or a reversal kept for a txid not seen yet. */
  imported: number;
  /** Rows already recorded: a sale of a known txid, or a reversal of one already reversed. */
  duplicate: number;
  rejected: RejectedRow[];
}

/** The file cannot be imported at all (no header, or a named column is missing): nothing was written. */
export class ImportSetupError extends Error {
  override name = 'ImportSetupError';
  /** True when an option names what the file lacks, so the fix is in the command rather than the file. */
  constructor(message: string, readonly fromOptions = false) {
    super(message);
  }
}

/**
 * Imports a network's CSV report through the same rules as a postback: each row is parsed by the same
 * field parser and applied by the same store, so importing a file twice adds nothing the second time
 * (every txid is already there), and a row that would be refused as a postback is rejected with its
 * line. Rows are applied in file order, so a refund after its sale in the same file reverses it.
 */
export async function importConversions(text: string, options: ImportOptions, store: Pick<ConversionStore, 'record'>, now: () => Date = () => new Date()): Promise<ImportResult> {
  const [header, ...rows] = parseCsvRecords(text, options.delimiter);
  if (!header || header.error) throw new ImportSetupError(header ? `the header line cannot be read: ${header.error}` : 'the file is empty');
  const columns = columnIndexes(header.fields, options.columns);
  const result: ImportResult = { imported: 0, duplicate: 0, rejected: [] };
  for (const [index, row] of rows.entries()) {
    options.onRow?.(index, rows.length);
    if (row.error) {
      result.rejected.push({ line: row.line, reason: row.error });
      continue;
    }
    const fields: ConversionFields = {};
    for (const [field, { index }] of columns) fields[field] = row.fields[index];
    if (!fields.currency?.trim() && options.currency) fields.currency = options.currency;
    const parsed = parseConversion(fields, options.statusMap);
    if (parsed.error) {
      const column = columns.get(parsed.error.field as ConversionFieldName)?.name;
      result.rejected.push({ line: row.line, reason: column ? `column "${printable(column)}": ${parsed.error.message}` : parsed.error.message });
      continue;
    }
    const outcome = await store.record(parsed.report, 'import', now());
    if (outcome === 'duplicate' || outcome === 'already reversed') result.duplicate += 1;
    else result.imported += 1;
  }
  return result;
}

/**
 * Where each of our fields is in the header, matched without case. The txid column must be there, and
 * so must any column the options name; a default name (subid, payout, ...) that is absent means the
 * report has no such column.
 */
function columnIndexes(header: string[], named: ImportOptions['columns']): Map<ConversionFieldName, { index: number; name: string }> {
  const normalized = header.map((name) => name.trim().toLowerCase());
  const found = new Map<ConversionFieldName, { index: number; name: string }>();
  for (const field of conversionFieldNames) {
    const name = named[field] ?? field;
    const index = normalized.indexOf(name.trim().toLowerCase());
    if (index !== -1) found.set(field, { index, name: header[index]!.trim() });
    else if (field === 'txid' || named[field] !== undefined) {
      const option = `--${field}-column`;
      // Names from the file and the command line are quoted with their control characters written out.
      const columns = header.map((column) => `"${printable(column.trim())}"`).join(', ');
      throw new ImportSetupError(`the header has no column "${printable(name)}" for ${option} (its columns: ${columns})`, true);
    }
  }
  return found;
}
