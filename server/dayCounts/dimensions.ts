import type { DailyCountsTable } from '../db/schema';

/**
 * Views and clicks counted per UTC day and per value of a dimension: the shape of daily_counts, which a
 * closed day keeps (server/jobs/closeDays.ts) and which a report reads for closed days, counting raw
 * rows only for the days after the last closed one. A visitor is a daily hash, so a day's distinct
 * visitors are exact and summing them over days is what the report has always done.
 */
/**
 * The views' and clicks' dimensions. 'variant' counts the rows in experiments under each variant they
 * showed ('hero-words:b'; a row showing two experiments' variants counts under each, one outside every
 * experiment under none): the experiments' report (server/experiments/experimentReport.ts).
 */
export const rowDimensions = ['all', 'placement', 'source', 'page', 'device', 'referrer', 'variant', 'campaign', 'ad'] as const;
export type RowDimension = (typeof rowDimensions)[number];
/** The leave reports' dimensions, since schema 18: what each holds is in leaveDimensions.ts. */
export const leaveDimensions = ['left', 'reached', 'seen', 'engaged', 'variantSeen'] as const;
export type LeaveDimension = (typeof leaveDimensions)[number];
/** The views' and clicks' dimensions, and the leave reports'. */
export type Dimension = RowDimension | LeaveDimension;
export const dimensions: readonly Dimension[] = [...rowDimensions, ...leaveDimensions];

/**
 * Since schema 11, 'campaign' counts the rows whose landing carried a utm_campaign under their source and
 * campaign (campaignValue), and 'ad' those that carried a utm_content under their source, campaign and
 * content (adValue); rows without one count under none. Both are capped per day as every dimension is.
 * The parts are joined by a control character, which no recorded value has (shared/trafficSource.ts).
 */
export const campaignSeparator = '\u001f';

/** The 'campaign' value of a source (null: not known, '') and a campaign. */
export const campaignValue = (source: string | null, campaign: string): string => `${source ?? ''}${campaignSeparator}${campaign}`;

/** The 'ad' value of a source, a campaign ('' when none) and a content. */
export const adValue = (source: string | null, campaign: string, content: string): string => `${campaignValue(source, campaign)}${campaignSeparator}${content}`;

/** A 'campaign' or 'ad' value's parts: source and campaign, and for an ad its content. */
export const campaignParts = (value: string): string[] => value.split(campaignSeparator);

/**
 * A day's counts of one value, as daily_counts holds them (views, distinct visitors who viewed, clicks,
 * distinct visitors who clicked) and with distinctValues: 1, or for the row holding a day's values past
 * the cap (othersValue), how many values it holds.
 */
export type DayCountRow = Omit<DailyCountsTable, 'dimension' | 'distinct_values'> & { distinctValues: number };

/**
 * A day keeps at most this many values of a dimension, those with most visitors and clicks; the rest are
 * added up into one row, othersValue. So a flood of made-up sources costs one row, not millions.
 */
export const maxValuesPerDay = 1000;

/** The value of the row that holds a day's values past the cap: a control character, which no recorded value has. */
export const othersValue = '\u0001others';

/**
 * Text in the order of its UTF-8 bytes, as SQLite and PostgreSQL's "C" collation order the day counts' text
 * (dayCounts.ts, inBytes): the order of code points. JavaScript's `<` compares UTF-16 units, which puts
 * U+E000..U+FFFF after the surrogate pairs of U+10000 and above; those two ranges are swapped back here.
 */
export function byBytes(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return inCodePointOrder(x) - inCodePointOrder(y);
    return x - y;
  }
  return a.length - b.length;
}

/** A UTF-16 unit at or above U+D800 placed so that surrogates (U+10000 and above) sort after U+E000..U+FFFF. */
const inCodePointOrder = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);

/** valueOrder (dayCounts.ts) in JavaScript: most visitors, then most clicks, '' after named values, then by name. */
export function byValueOrder(a: DayCountRow, b: DayCountRow): number {
  return b.visitors - a.visitors || b.clicks - a.clicks || Number(a.value === '') - Number(b.value === '') || byBytes(a.value, b.value);
}
