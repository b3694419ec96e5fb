import { isCampaignValue } from '../../shared/trafficSource';
import { parseCsvRecords, type CsvRecord } from '../conversions/csvRecords';
import type { CostRow } from './costRow';

/**
 * Reading the ad platforms' daily campaign reports as they export them (issue 27), pure: text in, cost
 * rows and the reasons for the rows refused out. The rules (which header is which platform, dates,
 * amounts, totals, duplicates) are the ones docs/costs.md states; each is written once below.
 */

export type CostPlatform = 'google' | 'microsoft' | 'meta' | 'tiktok' | 'plain';

export interface CostReportOptions {
  /** The utm_source every row gets, instead of the platform's usual one (a plain file's own column still wins). */
  source?: string;
  /** ISO 4217: the currency of rows whose report names none, in a column or in the amount's header. */
  currency?: string;
  /** The platform's campaign name → the utm_campaign its ads carry; a name not in it is used as it is. */
  campaignMap?: ReadonlyMap<string, string>;
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
  /** Data rows (below the header) read: rows.length + summed + rejected.length + skipped. */
  read: number;
  /** Rows added into an earlier row of the same day, source, campaign and ad. */
  summed: number;
}

/** A platform's columns, lower case; the first name of each list the header holds is used. */
interface Layout {
  platform: CostPlatform;
  /** The platform's usual utm_source; '' for the plain form, which names its own. */
  source: string;
  day: readonly string[];
  campaign: readonly string[];
  /** The amount's column, also matched with a currency in brackets: "Amount spent (USD)". */
  amount: readonly string[];
  currency: readonly string[];
  content: readonly string[];
  /** Meta's last day of the row's period: a row must cover one day. */
  ends?: readonly string[];
  /** The plain form's source column. */
  sourceColumn?: readonly string[];
}

/**
 * Tried in this order: the plain form first (it alone has a source column), Google last (the fewest names).
 * Microsoft and TikTok share `Campaign name` and are told apart by the amount: `Spend` is Microsoft's, `Cost` TikTok's.
 */
const layouts: readonly Layout[] = [
  { platform: 'plain', source: '', day: ['day', 'date'], campaign: ['campaign'], amount: ['cost', 'amount'], currency: ['currency'], content: ['content'], sourceColumn: ['source'] },
  { platform: 'meta', source: 'facebook', day: ['reporting starts', 'day'], campaign: ['campaign name'], amount: ['amount spent'], currency: ['currency'], content: ['ad name'], ends: ['reporting ends'] },
  { platform: 'microsoft', source: 'bing', day: ['gregorian date', 'time period', 'date', 'day'], campaign: ['campaign name', 'campaign'], amount: ['spend'], currency: ['currency code', 'currency'], content: ['ad name'] },
  { platform: 'tiktok', source: 'tiktok', day: ['by day', 'date', 'day'], campaign: ['campaign name'], amount: ['cost', 'total cost'], currency: ['currency'], content: ['ad name'] },
  { platform: 'google', source: 'google', day: ['day', 'date'], campaign: ['campaign'], amount: ['cost'], currency: ['currency code', 'currency'], content: [] },
];

/** The header is looked for in this many first records: Microsoft's title block is about ten lines. */
const headerSearchRecords = 30;
const delimiters = [',', '\t', ';'] as const;

/** An amount's upper bound in whole units (a billion), so micros and their sums stay exact integers. */
const maxAmountUnits = 1_000_000_000;
const microsPerUnit = 1_000_000;

interface Columns {
  layout: Layout;
  day: number;
  campaign: number;
  amount: number;
  /** The header's own names (one of ours, matched without case), for the reasons. */
  amountName: string;
  dayName: string;
  currencyName?: string;
  headerCurrency?: string;
  currency?: number;
  content?: number;
  ends?: number;
  source?: number;
}

const normalize = (name: string) => name.trim().toLowerCase();

function columnIndex(header: readonly string[], names: readonly string[] | undefined): number | undefined {
  for (const name of names ?? []) {
    const index = header.indexOf(name);
    if (index !== -1) return index;
  }
  return undefined;
}

/** The amount's column, and the currency its name holds: "amount spent (usd)" → USD. */
function amountColumn(header: readonly string[], names: readonly string[]): { index: number; currency?: string } | undefined {
  for (const name of names) {
    for (const [index, cell] of header.entries()) {
      if (cell === name) return { index };
      const bracketed = cell.startsWith(`${name} (`) ? /^\(([a-z]{3})\)$/.exec(cell.slice(name.length + 1)) : null;
      if (bracketed) return { index, currency: bracketed[1]!.toUpperCase() };
    }
  }
  return undefined;
}

function columnsOf(fields: readonly string[]): Columns | undefined {
  const header = fields.map(normalize);
  for (const layout of layouts) {
    const day = columnIndex(header, layout.day);
    const campaign = columnIndex(header, layout.campaign);
    const amount = amountColumn(header, layout.amount);
    const source = columnIndex(header, layout.sourceColumn);
    if (day === undefined || campaign === undefined || !amount || (layout.sourceColumn && source === undefined)) continue;
    return {
      layout,
      day,
      campaign,
      amount: amount.index,
      amountName: fields[amount.index]!.trim(),
      dayName: fields[day]!.trim(),
      currencyName: ((index) => (index === undefined ? undefined : fields[index]!.trim()))(columnIndex(header, layout.currency)),
      headerCurrency: amount.currency,
      currency: columnIndex(header, layout.currency),
      content: columnIndex(header, layout.content),
      ends: columnIndex(header, layout.ends),
      source,
    };
  }
  return undefined;
}

/** The header (after a byte-order mark and any title lines above it) and the records below it, in the first delimiter that finds one. */
function findHeader(text: string): { columns: Columns; rows: CsvRecord[] } | undefined {
  for (const delimiter of delimiters) {
    const records = parseCsvRecords(text, delimiter);
    for (const [index, record] of records.slice(0, headerSearchRecords).entries()) {
      const columns = record.error ? undefined : columnsOf(record.fields);
      if (columns) return { columns, rows: records.slice(index + 1) };
    }
  }
  return undefined;
}

/**
 * A value from the file as a reason may quote it: only when it is short and made of letters, digits and
 * plain punctuation; anything else (control characters, markup, quotes, long text) is described, never shown.
 */
export function quoted(value: string): string {
  return /^[\p{L}\p{N} .,:/$€£¥₹()+\-_']{1,40}$/u.test(value) ? `"${value}"` : `a value of ${value.length} characters`;
}

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const fullMonthNames = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A month's name in English, full or in three letters (Sept too), as 1–12. */
function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = lower === 'sept' ? 8 : Math.max(monthNames.indexOf(lower), fullMonthNames.indexOf(lower));
  return index === -1 ? undefined : index + 1;
}

const isoDay = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]00:00(?::00)?)?$/;
const yearFirstSlash = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const yearLastSlash = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const monthNameDay = /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/;

const acceptedDays = 'YYYY-MM-DD, YYYY/MM/DD, M/D/YYYY or "Nov 3, 2026"';

/** YYYY-MM-DD when the numbers make a real day of 2000–2099, else undefined. */
function calendarDay(year: number, month: number, day: number): string | undefined {
  if (year < 2000 || year > 2099 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * The day a date cell names. Slash dates with the year last are month first (M/D/YYYY, as the platforms'
 * English (US) exports write them), unless the file is day first: then a date is read only where it is
 * unambiguous (the day above 12, or day and month equal), and refused otherwise.
 */
function parseDay(cell: string, dayFirst: boolean): { day: string } | { error: string } {
  let parts: [number, number, number] | undefined;
  let match = isoDay.exec(cell) ?? yearFirstSlash.exec(cell);
  if (match) parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = yearLastSlash.exec(cell))) {
    const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (dayFirst && first <= 12 && second <= 12 && first !== second) {
      return { error: `the date ${quoted(cell)} could be day or month first, and this file writes days first (another row has a day above 12); export dates as YYYY-MM-DD` };
    }
    parts = dayFirst ? [year, second, first] : [year, first, second];
  } else if ((match = monthNameDay.exec(cell))) {
    const month = monthOf(match[1]!);
    if (month !== undefined) parts = [Number(match[3]), month, Number(match[2])];
  }
  if (!parts) return { error: `${quoted(cell)} is not a date (${acceptedDays})` };
  const day = calendarDay(...parts);
  return day ? { day } : { error: `${quoted(cell)} is no day of 2000–2099` };
}

const looksLikeDate = (cell: string) => [isoDay, yearFirstSlash, yearLastSlash, monthNameDay].some((form) => form.test(cell));

/** A file is day first when any slash date with the year last has a first number above 12 (13/11/2026). */
function isDayFirst(cells: readonly string[]): boolean {
  return cells.some((cell) => {
    const match = yearLastSlash.exec(cell);
    return match !== null && Number(match[1]) > 12;
  });
}

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
function parseAmount(cell: string): { micros: number; symbolCurrency?: string } | { error: string } {
  let text = cell.replace(/\s+/g, '');
  if (text === '' || text === '--') return { error: 'no amount' };
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

/** Reads a cost report; a file whose header cannot be found or which names no currency at all is one error. */
export function readCostReport(text: string, options: CostReportOptions = {}): CostReport | { error: string } {
  const found = findHeader(text);
  if (!found) {
    return {
      error:
        'no header line of a known report was found in its first 30 lines: Google Ads (Day, Campaign, Cost), Microsoft Advertising (Gregorian date, Campaign name, Spend), ' +
        'Meta (Reporting starts, Campaign name, Amount spent (USD)), TikTok (By Day, Campaign name, Cost) or the plain form (day, source, campaign, content, cost, currency)',
    };
  }
  const { columns, rows } = found;
  const { layout } = columns;
  if (columns.currency === undefined && !columns.headerCurrency && !options.currency) {
    return { error: `the report names no currency (no currency column, and "${printableName(columns.amountName)}" names none): give --currency` };
  }
  const cellOf = (record: CsvRecord, index: number | undefined) => (index === undefined ? '' : (record.fields[index] ?? '').trim());
  const dayFirst = isDayFirst(rows.map((record) => cellOf(record, columns.day)));

  const report: CostReport = { platform: layout.platform, rows: [], rejected: [], skipped: 0, read: rows.length, summed: 0 };
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
    const day = parseDay(dayCell, dayFirst);
    if ('error' in day) {
      reject(`column "${columns.dayName}": ${day.error}`);
      continue;
    }
    if (columns.ends !== undefined) {
      const ends = cellOf(record, columns.ends);
      const last = ends === '' ? day : parseDay(ends, dayFirst);
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
