import type { Kysely } from 'kysely';
import { countedConversions } from '../../server/dayCounts/countedConversions';
import type { ReportRange } from '../../server/dayCounts/reportRange';
import type { Schema } from '../../server/db/schema';

/** The three sums of migration 14, each as sorted lines `key|key|currency conversions micros`, rows at zero left out. */
export interface ConversionSumLines {
  days: string[];
  sourceDays: string[];
  sourceMonths: string[];
  /** conversion_campaign_months: `month|source|campaign|content|currency conversions micros`. */
  campaignMonths: string[];
}

/** One counted row with a campaign or an ad: a conversion, or a row of daily_campaign_conversions. */
export interface CampaignCountedRow {
  day: string;
  source: string;
  campaign: string;
  content: string;
  currency: string;
  conversions: number;
  micros: number;
}

/** One counted row: a conversion (1 and its payout) or a folded day's row, under its attributed day. */
export interface CountedRow {
  day: string;
  placement: string;
  source: string;
  currency: string;
  conversions: number;
  micros: number;
}

const line = (key: readonly unknown[], conversions: number, micros: number) => `${key.map(String).join('|')} ${conversions} ${micros}`;

/** Rows already one per key (a sums table, a read of them) as sorted lines, rows at zero left out. */
export function rowLines<Row extends { conversions: unknown; micros: unknown }>(rows: readonly Row[], key: (row: Row) => readonly unknown[]): string[] {
  return rows
    .filter((row) => Number(row.conversions) !== 0 || Number(row.micros) !== 0)
    .map((row) => line(key(row), Number(row.conversions), Number(row.micros)))
    .sort();
}

/** Counted rows summed per key, as sorted lines, sums at zero left out. */
export function summedLines<Row extends { conversions: number; micros: number }>(rows: readonly Row[], key: (row: Row) => readonly unknown[]): string[] {
  const sums = new Map<string, { key: readonly unknown[]; conversions: number; micros: number }>();
  for (const row of rows) {
    const id = key(row).map(String).join('|');
    const sum = sums.get(id) ?? { key: key(row), conversions: 0, micros: 0 };
    sum.conversions += row.conversions;
    sum.micros += row.micros;
    sums.set(id, sum);
  }
  return rowLines([...sums.values()], (sum) => sum.key);
}

export const placementDayKey = (row: Pick<CountedRow, 'day' | 'placement' | 'currency'>) => [row.day, row.placement, row.currency];
export const sourceDayKey = (row: Pick<CountedRow, 'day' | 'source' | 'currency'>) => [row.day, row.source, row.currency];
export const sourceMonthKey = (row: Pick<CountedRow, 'day' | 'source' | 'currency'>) => [row.day.slice(0, 7), row.source, row.currency];

/**
 * What the sums must hold, recounted here from the rows themselves: each conversion not reversed under
 * coalesce(click_day, day), its placement and source ('' when null) and trimmed currency, counting 1 and
 * its payout (0 when none), and each row of daily_conversions as it is.
 */
export async function countedRows(db: Kysely<Schema>): Promise<CountedRow[]> {
  const [conversions, folded] = await Promise.all([
    db.selectFrom('conversions').where('reversed_at', 'is', null).select(['day', 'click_day', 'placement', 'source', 'currency', 'payout_micros']).execute(),
    db.selectFrom('daily_conversions').selectAll().execute(),
  ]);
  return [
    ...conversions.map((row) => ({
      day: row.click_day ?? row.day,
      placement: row.placement ?? '',
      source: row.source ?? '',
      currency: row.currency.trim(),
      conversions: 1,
      micros: Number(row.payout_micros ?? 0),
    })),
    ...folded.map((row) => ({ day: row.day, placement: row.placement, source: row.source, currency: row.currency.trim(), conversions: Number(row.conversions), micros: Number(row.payout_micros) })),
  ];
}

/**
 * What the campaigns' sum must hold, recounted: each conversion not reversed that carried a campaign or an
 * ad (the others '' when null), and each row of daily_campaign_conversions as it is.
 */
export async function campaignCountedRows(db: Kysely<Schema>): Promise<CampaignCountedRow[]> {
  const [conversions, folded] = await Promise.all([
    db
      .selectFrom('conversions')
      .where('reversed_at', 'is', null)
      .where((eb) => eb.or([eb('campaign', 'is not', null), eb('content', 'is not', null)]))
      .select(['day', 'click_day', 'source', 'campaign', 'content', 'currency', 'payout_micros'])
      .execute(),
    db.selectFrom('daily_campaign_conversions').selectAll().execute(),
  ]);
  return [
    ...conversions.map((row) => ({
      day: row.click_day ?? row.day,
      source: row.source ?? '',
      campaign: row.campaign ?? '',
      content: row.content ?? '',
      currency: row.currency.trim(),
      conversions: 1,
      micros: Number(row.payout_micros ?? 0),
    })),
    ...folded.map((row) => ({ ...row, currency: row.currency.trim(), conversions: Number(row.conversions), micros: Number(row.payout_micros) })),
  ];
}

export const campaignMonthKey = (row: Pick<CampaignCountedRow, 'day' | 'source' | 'campaign' | 'content' | 'currency'>) => [row.day.slice(0, 7), row.source, row.campaign, row.content, row.currency];

/**
 * The conversions' sums (migration 14) as held, and as the conversions and folded days held say they must
 * be: the two are equal when every write kept them. Rows held at zero (all their conversions reversed) are
 * left out of both.
 */
export async function conversionSumsHeldAndDue(db: Kysely<Schema>): Promise<{ held: ConversionSumLines; due: ConversionSumLines }> {
  const [days, sourceDays, sourceMonths, campaignMonths, counted, campaignCounted] = await Promise.all([
    db.selectFrom('conversion_days').select(['day', 'placement', 'currency', 'conversions', 'payout_micros as micros']).execute(),
    db.selectFrom('conversion_source_days').select(['day', 'source', 'currency', 'conversions', 'payout_micros as micros']).execute(),
    db.selectFrom('conversion_source_months').select(['month', 'source', 'currency', 'conversions', 'payout_micros as micros']).execute(),
    db.selectFrom('conversion_campaign_months').select(['month', 'source', 'campaign', 'content', 'currency', 'conversions', 'payout_micros as micros']).execute(),
    countedRows(db),
    campaignCountedRows(db),
  ]);
  return {
    held: {
      days: rowLines(days, placementDayKey),
      sourceDays: rowLines(sourceDays, sourceDayKey),
      sourceMonths: rowLines(sourceMonths, (row) => [row.month, row.source, row.currency]),
      campaignMonths: rowLines(campaignMonths, (row) => [row.month, row.source, row.campaign, row.content, row.currency]),
    },
    due: {
      days: summedLines(counted, placementDayKey),
      sourceDays: summedLines(counted, sourceDayKey),
      sourceMonths: summedLines(counted, sourceMonthKey),
      campaignMonths: summedLines(campaignCounted, campaignMonthKey),
    },
  };
}

/**
 * The raw read the sums replace, as the reports made it before schema 14: the conversions not reversed
 * attributed to the range (countedConversions.ts), per day, placement, source and currency, with those
 * folded past retention under the same day. What the sums' reads of a range must say.
 */
export async function readRawConversionCounts(db: Kysely<Schema>, { from, to }: ReportRange): Promise<CountedRow[]> {
  const [raw, folded] = await Promise.all([
    countedConversions(db)
      .where((eb) => eb.between(eb.fn.coalesce('click_day', 'day'), from, to))
      .execute(),
    db.selectFrom('daily_conversions').where('day', '>=', from).where('day', '<=', to).select(['day', 'placement', 'source', 'currency', 'conversions', 'payout_micros as micros']).execute(),
  ]);
  // char(3) may come back padded; a sum of bigints comes back from PostgreSQL as text.
  return [...raw, ...folded].map((row) => ({
    day: row.day,
    placement: row.placement,
    source: row.source,
    currency: row.currency.trim(),
    conversions: Number(row.conversions),
    micros: Number(row.micros),
  }));
}
