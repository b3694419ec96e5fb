import type { DailyCountsTable } from '../db/schema';

/**
 * Views and clicks counted per UTC day and per value of a dimension: the shape of daily_counts, which a
 * closed day keeps (server/jobs/closeDays.ts) and which a report reads for closed days, counting raw
 * rows only for the days after the last closed one. A visitor is a daily hash, so a day's distinct
 * visitors are exact and summing them over days is what the report has always done.
 */
export type Dimension = 'all' | 'placement' | 'source' | 'page' | 'device' | 'referrer' | 'variant' | 'campaign' | 'ad';
/**
 * 'variant' counts the rows in experiments under each variant they showed ('hero-words:b'; a row showing
 * two experiments' variants counts under each, one outside every experiment under none): the
 * experiments' report (server/experiments/experimentReport.ts).
 */
export const dimensions: readonly Dimension[] = ['all', 'placement', 'source', 'page', 'device', 'referrer', 'variant', 'campaign', 'ad'];

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
