import { isCampaignValue } from '../../shared/trafficSource';
import { parseCsvRecords, type CsvRecord } from '../conversions/csvRecords';
import { looksLikeDate, parseDay, slashDateOrder, type DateOrder } from './costReportDates';
import { columnIndex, findHeader, headerSearchRecords, normalize, type CostPlatform } from './costReportHeader';
import type { CostRow } from './costRow';
import { quoted } from './quoted';

export type { CostPlatform } from './costReportHeader';
export type { DateOrder } from './costReportDates';
export { quoted } from './quoted';

/**
 * Reading the ad platforms' daily campaign reports as they export them (issue 27), pure: text in, cost
 * rows and the reasons for the rows refused out. The rules (which header is which platform, dates,
 * amounts, totals, duplicates) are the ones docs/costs.md states; each is written once below.
 */

export interface CostReportOptions {
  /** The utm_source every row gets, instead of the platform's usual one (a plain file's own column still wins). */
  source?: string;
  /** ISO 4217: the currency of rows whose report names none, in a column or in the amount's header. */
  currency?: string;
  /** The platform's campaign name → the utm_campaign its ads carry; a name not in it is used as it is. */
  campaignMap?: ReadonlyMap<string, string>;
  /** The order of slash dates with the year last (--dates), for a file whose every such date could be either. */
  dates?: DateOrder;
}

export interface RejectedCostRow {
  /** The line of the file the row starts on (the file's first line is 1, title lines included). */
  line: number;
  reason: string;
}

export interface CostReport {
  platform: CostPlatform;
  /** One row per day, source, campaign and ad: rows of the same four in one file summed. */
  rows: CostRow[];
  rejected: RejectedCostRow[];
  /** Total, summary, note and empty rows: not costs, and not errors. */
  skipped: number;
  /**
   * The lines of rows whose amount cell is empty or "--": the platform said nothing of that row's cost,
   * so nothing is set for it, and the rest of the file is applied (no platform's documentation or
   * export found writes an empty amount for a cost of 0; docs/costs.md).
   */
  noAmount: number[];
  /** The amount column's name as the header writes it (or "the amount column" when it holds more than plain words). */
  amountName: string;
  /** Data rows (below the header) read: rows.length + summed + rejected.length + noAmount.length + skipped. */
  read: number;
  /** Rows added into an earlier row of the same day, source, campaign and ad. */
  summed: number;
}

/** An amount's upper bound in whole units (a billion), so micros and their sums stay exact integers. */
const maxAmountUnits = 1_000_000_000;
const microsPerUnit = 1_000_000;

const currencySymbols: ReadonlyArray<{ symbol: string; currency?: string }> = [
  { symbol: 'US$', currency: 'USD' },
  { symbol: 'A$', currency: 'AUD' },
  { symbol: 'C$', currency: 'CAD' },
  { symbol: '$' },
  { symbol: '€', currency: 'EUR' },
  { symbol: '£', currency: 'GBP' },
  { symbol: '₹', currency: 'INR' },
  { symbol: '¥' },
];

/**
 * An amount in micros: digits with an optional decimal point and at most six decimals; commas only as
 * thousands separators between groups of three ("1,234.56"); a currency symbol may stand before it.
 * A decimal comma ("12,50"), a negative amount or anything else is refused.
 */
const noAmount = 'no amount';

function parseAmount(cell: string): { micros: number; symbolCurrency?: string } | { error: string } {
  let text = cell.replace(/\s+/g, '');
  if (text === '' || text === '--') return { error: noAmount };
  if (text.startsWith('-') || text.startsWith('−') || (text.startsWith('(') && text.endsWith(')'))) return { error: `the amount ${quoted(cell)} is negative; a cost is at least 0` };
  const symbol = currencySymbols.find((known) => text.startsWith(known.symbol));
  if (symbol) text = text.slice(symbol.symbol.length);
  if (text.startsWith('-')) return { error: `the amount ${quoted(cell)} is negative; a cost is at least 0` };
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return { error: `${quoted(cell)} is not an amount (digits, a decimal point, commas between thousands: 1,234.56)` };
  const [, whole, fraction = ''] = match;
  if (fraction.length > 6) return { error: `the amount ${quoted(cell)} has more than 6 decimals` };
  const units = Number(whole!.replaceAll(',', ''));
  if (units >= maxAmountUnits) return { error: `the amount ${quoted(cell)} is over ${maxAmountUnits.toLocaleString('en-US')}` };
  return { micros: units * microsPerUnit + Number(fraction.padEnd(6, '0')), symbolCurrency: symbol?.currency };
}

let knownCurrencies: ReadonlySet<string> | undefined;
/** ISO 4217 codes as this Node knows them. */
export function isCurrencyCode(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code);
}

/** "Total", "Total: Account", "Total of 3 results", "Totals": a summary's first word. */
const totalWord = /^totals?\b/i;

/**
 * The stated rule for rows that are not costs: skipped and counted, never rejected. A row is a summary or
 * a note when its day cell is not a date and (a cell begins with "Total", or the day cell is empty, or the
 * row has one value only, as Microsoft's copyright line does); on a platform's form also when the
 * campaign is empty or "--" (Meta's summary row carries the report's dates and no campaign).
 */
function isSummary(cells: readonly string[], dayCell: string, campaignCell: string, platform: CostPlatform): boolean {
  if (platform !== 'plain' && (campaignCell === '' || campaignCell === '--')) return true;
  if (looksLikeDate(dayCell)) return false;
  const values = cells.filter((cell) => cell !== '');
  return dayCell === '' || values.length === 1 || values.some((cell) => totalWord.test(cell));
}

const describeValue = (what: string) => `${what} longer than 100 characters or holding control characters, which no utm value can be`;

/**
 * The aggregation a Microsoft Advertising report's title block names ("Report Aggregation: Weekly"),
 * lower case: its TimePeriod of a week or a month is written as a day (yyyy-mm-dd), so only the title tells.
 */
function reportAggregation(above: readonly CsvRecord[]): string | undefined {
  for (const record of above) {
    const match = /^report aggregation:\s*(\S.*)$/i.exec((record.fields[0] ?? '').trim());
    if (match) return match[1]!.trim().toLowerCase();
  }
  return undefined;
}

/** Reads a cost report; a file whose header cannot be found or which names no currency at all is one error. */
export function readCostReport(text: string, options: CostReportOptions = {}): CostReport | { error: string } {
  const found = findHeader(text);
  if (!found) {
    return {
      error:
        `no header line of a known report was found in its first ${headerSearchRecords} lines: Google Ads (Day, Campaign, Cost), Microsoft Advertising (Gregorian date or TimePeriod, Campaign name, Spend), ` +
        'Meta (Reporting starts, Campaign name, Amount spent (USD)), TikTok (By Day, Campaign name, Cost) or the plain form (day, source, campaign, content, cost, currency)',
    };
  }
  if ('withoutDay' in found) return { error: `it is ${found.withoutDay.addDay}; a cost is held per day, so a report without days cannot be imported` };
  const { columns, rows } = found;
  const { layout } = columns;
  const aggregation = reportAggregation(found.above);
  if (aggregation !== undefined && aggregation !== 'daily') {
    return { error: `its title names the aggregation ${quoted(aggregation)}, so its rows are not days: run the report with daily aggregation (the time unit Day)` };
  }
  if (columns.currency === undefined && !columns.headerCurrency && !options.currency) {
    return { error: `the report names no currency (no currency column, and "${printableName(columns.amountName)}" names none): give --currency` };
  }
  const cellOf = (record: CsvRecord, index: number | undefined) => (index === undefined ? '' : (record.fields[index] ?? '').trim());
  const dateCells = rows.flatMap((record) => [columns.day, columns.ends].map((index) => ({ cell: cellOf(record, index), line: record.line })));
  const dateOrder = slashDateOrder(dateCells, columns.dayName, options.dates);
  if ('error' in dateOrder) return { error: dateOrder.error };
  const { order } = dateOrder;

  const report: CostReport = { platform: layout.platform, rows: [], rejected: [], noAmount: [], amountName: printableName(columns.amountName), skipped: 0, read: rows.length, summed: 0 };
  const byKey = new Map<string, { row: CostRow; line: number }>();
  for (const record of rows) {
    const reject = (reason: string) => report.rejected.push({ line: record.line, reason });
    if (record.error) {
      reject(record.error);
      continue;
    }
    const cells = record.fields.map((field) => field.trim());
    const dayCell = cellOf(record, columns.day);
    const campaignName = cellOf(record, columns.campaign);
    if (cells.every((cell) => cell === '') || isSummary(cells, dayCell, campaignName, layout.platform)) {
      report.skipped += 1;
      continue;
    }
    const day = parseDay(dayCell, order);
    if ('error' in day) {
      reject(`column "${columns.dayName}": ${day.error}`);
      continue;
    }
    if (columns.ends !== undefined) {
      const ends = cellOf(record, columns.ends);
      const last = ends === '' ? day : parseDay(ends, order);
      if ('error' in last || last.day !== day.day) {
        reject('the row covers more than one day; export the report broken down by day');
        continue;
      }
    }
    const campaign = options.campaignMap?.get(campaignName) ?? campaignName;
    if (!isCampaignValue(campaign)) {
      reject(describeValue('a campaign'));
      continue;
    }
    const content = cellOf(record, columns.content);
    if (!isCampaignValue(content)) {
      reject(describeValue('an ad name'));
      continue;
    }
    const source = (layout.sourceColumn ? cellOf(record, columns.source) || options.source : (options.source ?? layout.source))?.trim() ?? '';
    if (source === '') {
      reject('no source: the source cell is empty and no --source was given');
      continue;
    }
    if (!isCampaignValue(source)) {
      reject(describeValue('a source'));
      continue;
    }
    const amount = parseAmount(cellOf(record, columns.amount));
    if ('error' in amount && amount.error === noAmount) {
      report.noAmount.push(record.line);
      continue;
    }
    if ('error' in amount) {
      reject(`column "${printableName(columns.amountName)}": ${amount.error}`);
      continue;
    }
    const currencyCell = cellOf(record, columns.currency).toUpperCase();
    if (currencyCell && columns.headerCurrency && currencyCell !== columns.headerCurrency) {
      reject(`the currency ${quoted(currencyCell)} differs from the amount's header, ${columns.headerCurrency}`);
      continue;
    }
    const currency = currencyCell || columns.headerCurrency || options.currency?.toUpperCase() || '';
    if (!isCurrencyCode(currency)) {
      reject(currency ? `column "${columns.currencyName ?? 'currency'}": ${quoted(currency)} is not an ISO 4217 currency code` : 'no currency: the currency cell is empty and no --currency was given');
      continue;
    }
    if (amount.symbolCurrency && amount.symbolCurrency !== currency) {
      reject(`the amount's symbol is ${amount.symbolCurrency}, the row's currency ${currency}`);
      continue;
    }
    const key = JSON.stringify([day.day, source, campaign, content]);
    const earlier = byKey.get(key);
    if (!earlier) {
      const row: CostRow = { day: day.day, source, campaign, content, amountMicros: amount.micros, currency };
      byKey.set(key, { row, line: record.line });
      report.rows.push(row);
    } else if (earlier.row.currency !== currency) {
      reject(`the same day, campaign and ad is on line ${earlier.line} in ${earlier.row.currency}, here in ${currency}; two currencies are never added`);
    } else if (earlier.row.amountMicros + amount.micros >= maxAmountUnits * microsPerUnit) {
      reject(`the same day, campaign and ad adds up to over ${maxAmountUnits.toLocaleString('en-US')} with line ${earlier.line}`);
    } else {
      earlier.row.amountMicros += amount.micros;
      report.summed += 1;
    }
  }
  return report;
}

/** A header's name as a message may quote it: the known names are plain words, but the currency part came from the file. */
function printableName(name: string): string {
  return /^[\p{L}\p{N} ()]{1,40}$/u.test(name) ? name : 'the amount column';
}

/**
 * A campaign map, name,utm_campaign per line (a header line naming those two columns first): the
 * platform's campaign name → the utm_campaign its ads carry. One error names the first bad line.
 */
export function readCampaignMap(text: string): { map: Map<string, string> } | { error: string } {
  const [header, ...rows] = parseCsvRecords(text);
  const names = header?.fields.map(normalize) ?? [];
  const nameIndex = columnIndex(names, ['name', 'campaign name', 'campaign']);
  const utmIndex = columnIndex(names, ['utm_campaign']);
  if (!header || header.error || nameIndex === undefined || utmIndex === undefined) return { error: 'its first line must be the header name,utm_campaign' };
  const map = new Map<string, string>();
  for (const row of rows) {
    const name = (row.fields[nameIndex] ?? '').trim();
    const utm = (row.fields[utmIndex] ?? '').trim();
    if (row.error || name === '' || !isCampaignValue(utm)) return { error: `line ${row.line} is not a campaign name and a utm_campaign of at most 100 characters` };
    if (map.has(name) && map.get(name) !== utm) return { error: `line ${row.line} maps ${quoted(name)} a second time, to another utm_campaign` };
    map.set(name, utm);
  }
  return { map };
}
