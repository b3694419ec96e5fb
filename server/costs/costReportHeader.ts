import { parseCsvRecords, type CsvRecord } from '../conversions/csvRecords';

/**
 * Finding a cost report's header line: which platform wrote the file, and which column is which
 * (issue 27; Microsoft's API column names and reports without their day column, issue 43).
 */

export type CostPlatform = 'google' | 'microsoft' | 'meta' | 'tiktok' | 'plain';

/** A platform's columns, lower case; the first name of each list the header holds is used. */
export interface Layout {
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
  /** What to change in the export when the header has every column but the day's. */
  addDay: string;
}

/**
 * Tried in this order: the plain form first (it alone has a source column), Google last (the fewest names).
 * Microsoft and TikTok share `Campaign name` and are told apart by the amount: `Spend` is Microsoft's, `Cost` TikTok's.
 * Microsoft's names come twice: as its web interface writes them, and without spaces as its Report File
 * Schema writes them for reports from the API, the SDKs and scripts (`TimePeriod`, `CampaignName`, `CurrencyCode`).
 */
export const layouts: readonly Layout[] = [
  {
    platform: 'plain',
    source: '',
    day: ['day', 'date'],
    campaign: ['campaign'],
    amount: ['cost', 'amount'],
    currency: ['currency'],
    content: ['content'],
    sourceColumn: ['source'],
    addDay: 'a plain cost file without its "day" column: add one, a UTC day per row (YYYY-MM-DD)',
  },
  {
    platform: 'meta',
    source: 'facebook',
    day: ['reporting starts', 'day'],
    campaign: ['campaign name'],
    amount: ['amount spent'],
    currency: ['currency'],
    content: ['ad name'],
    ends: ['reporting ends'],
    addDay: 'a Meta Ads Manager report without its "Reporting starts" column: export the report broken down by day (Breakdown → By time → Day)',
  },
  {
    platform: 'microsoft',
    source: 'bing',
    day: ['gregorian date', 'gregoriandate', 'time period', 'timeperiod', 'date', 'day'],
    campaign: ['campaign name', 'campaignname', 'campaign'],
    amount: ['spend'],
    currency: ['currency code', 'currencycode', 'currency'],
    content: ['ad name'],
    addDay: 'a Microsoft Advertising report without its date column ("Gregorian date" or "TimePeriod"): run the report with the time unit Day (from the API: Aggregation Daily and the TimePeriod column)',
  },
  {
    platform: 'tiktok',
    source: 'tiktok',
    day: ['by day', 'date', 'day'],
    campaign: ['campaign name'],
    amount: ['cost', 'total cost'],
    currency: ['currency'],
    content: ['ad name'],
    addDay: 'a TikTok Ads Manager report without its "By Day" column: add the By Day dimension to the custom report',
  },
  {
    platform: 'google',
    source: 'google',
    day: ['day', 'date'],
    campaign: ['campaign'],
    amount: ['cost'],
    currency: ['currency code', 'currency'],
    content: [],
    addDay: 'a Google Ads report without its "Day" column: segment the Google Ads report by Day (Segment → Time → Day) and download it again',
  },
];

/** The header is looked for in this many first records: Microsoft's title block is about ten lines. */
export const headerSearchRecords = 30;
const delimiters = [',', '\t', ';'] as const;

export interface Columns {
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

export const normalize = (name: string) => name.trim().toLowerCase();

export function columnIndex(header: readonly string[], names: readonly string[] | undefined): number | undefined {
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

/** The header's columns in the first layout whose columns are all there; or the first layout with all but the day's. */
function columnsOf(fields: readonly string[]): { columns?: Columns; withoutDay?: Layout } {
  const header = fields.map(normalize);
  let withoutDay: Layout | undefined;
  for (const layout of layouts) {
    const day = columnIndex(header, layout.day);
    const campaign = columnIndex(header, layout.campaign);
    const amount = amountColumn(header, layout.amount);
    const source = columnIndex(header, layout.sourceColumn);
    if (campaign === undefined || !amount || (layout.sourceColumn && source === undefined)) continue;
    if (day === undefined) {
      withoutDay ??= layout;
      continue;
    }
    const currency = columnIndex(header, layout.currency);
    const columns: Columns = {
      layout,
      day,
      campaign,
      amount: amount.index,
      amountName: fields[amount.index]!.trim(),
      dayName: fields[day]!.trim(),
      currencyName: currency === undefined ? undefined : fields[currency]!.trim(),
      headerCurrency: amount.currency,
      currency,
      content: columnIndex(header, layout.content),
      ends: columnIndex(header, layout.ends),
      source,
    };
    return { columns };
  }
  return { withoutDay };
}

/** The header's columns, the records above it (title lines) and the records below it. */
export type FoundHeader = { columns: Columns; above: CsvRecord[]; rows: CsvRecord[] } | { withoutDay: Layout } | undefined;

/**
 * The header (after a byte-order mark and any title lines above it) and the records below it, in the
 * first delimiter that finds one. When no delimiter finds a whole header, the first header of a known
 * platform that lacks only its day column, so the refusal can say what to change in the export.
 */
export function findHeader(text: string): FoundHeader {
  let withoutDay: Layout | undefined;
  for (const delimiter of delimiters) {
    const records = parseCsvRecords(text, delimiter);
    for (const [index, record] of records.slice(0, headerSearchRecords).entries()) {
      if (record.error) continue;
      const found = columnsOf(record.fields);
      if (found.columns) return { columns: found.columns, above: records.slice(0, index), rows: records.slice(index + 1) };
      withoutDay ??= found.withoutDay;
    }
  }
  return withoutDay ? { withoutDay } : undefined;
}
