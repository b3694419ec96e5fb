import type { Kysely } from 'kysely';
import { checkSchemaVersion } from '../db/migrate';
import type { Schema } from '../db/schema';
import { batchesOf, copyKeyedRows, noneCopied, type CopyCounts, type Row } from './copyKeyedRows';
import { copyUnkeyedRows } from './copyUnkeyedRows';
import { copyReleases } from './copyReleases';
import { copyIncidents } from './copyIncidents';
import { copyCosts, copyFixedCosts } from './copyCosts';
import { copyClaimEvidence, copyClaimStates } from './copyClaims';

export interface ConversionCopyCounts extends CopyCounts {
  /** The txids skipped: the target holds each in another state (a refund it received, other figures). */
  skippedTxids: string[];
}

export interface CopyReport {
  /** The source's schema version: tables and columns it does not have yet are copied as empty. */
  sourceSchema: number;
  clicks: CopyCounts;
  views: CopyCounts;
  /** Page views' leave reports (schema 17, server/leaves/). */
  leaves: CopyCounts;
  conversions: ConversionCopyCounts;
  conversionEvents: CopyCounts;
  /** Closed days' totals, and the days they close (see server/jobs/closeDays.ts). */
  dailyCounts: CopyCounts;
  closedDays: CopyCounts;
  dailyConversions: CopyCounts;
  /** The folded conversions that were in an experiment (schema 8). */
  dailyVariantConversions: CopyCounts;
  dailyCampaignConversions: CopyCounts;
  linkChecks: CopyCounts;
  /** The beacons' reports not counted, per day, beacon and reason (schema 9). */
  filteredCounts: CopyCounts;
  /** The builds the site served, one row per stamp (schema 9, server/releases/). */
  releases: CopyCounts;
  /** What the alert rules found, open and closed (schema 9, server/alerts/); their deliveries stay behind. */
  incidents: CopyCounts;
  /** What each source cost per day (schema 10, server/costs/). */
  costs: CopyCounts;
  /** The fixed-cost rules of npm run costs:set (schema 10). */
  fixedCosts: CopyCounts;
  /** Each claim's last verdict (schema 19, server/claims/). */
  claimStates: CopyCounts;
  /** The evidence kept on each change of a claim's verdict, with its page (schema 19). */
  claimEvidence: CopyCounts;
}

const batchSize = 1000;

const clickColumns = ['at', 'day', 'placement', 'page', 'referrer_host', 'device', 'visitor', 'via'];
const conversionColumns = ['txid', 'subid', 'click_id', 'placement', 'payout_micros', 'currency', 'status', 'received_at', 'day', 'reversed_at'];
const attributionColumns = ['click_day', 'page', 'source', 'device'];

/**
 * Copies what one database holds into another (SQLite into PostgreSQL, for an operator who outgrows
 * one machine): raw clicks and page views with their leave reports, conversions with their history, the closed days' totals,
 * the folded conversions, the link-check history, and what each source cost. Running it again changes nothing:
 * - rows without a key of their own (clicks, views, leave reports, conversion history, link checks) count as already
 *   there when the target held an identical one before this copy began; identical rows are matched one
 *   for one, so two real clicks in the same millisecond both arrive;
 * - rows with a key (a conversion's txid, a daily total's day, dimension and value) are copied when
 *   the target lacks the key, already there when it holds the same values, and skipped when it holds
 *   other values: the target's own state wins (a refund it received since, say), and the history of a
 *   skipped conversion is skipped with it, so the target's row and history keep telling one story.
 * Visitor salts are not copied: they are deleted within two days anyway, and never leave the machine.
 */
export async function copyDatabase(source: Kysely<Schema>, target: Kysely<Schema>, onProgress?: (done: number, total: number) => void): Promise<CopyReport> {
  // A file from an older version of the site (opened read-only, so not migrated) lacks the newer tables.
  const sourceSchema = await checkSchemaVersion(source);
  const onRows = onProgress && (await rowTally(source, sourceSchema, onProgress));
  const funnel = sourceSchema >= 4;
  // Schema 8: views, clicks and conversions say which experiments' variants they were in.
  const variants = sourceSchema >= 8 ? ['variants'] : [];
  // Schema 11: views keep the ad (content), clicks the visit's campaign and ad.
  const viewAd = sourceSchema >= 11 ? ['content'] : [];
  const clickCampaign = sourceSchema >= 11 ? ['campaign', 'content'] : [];
  // Schema 12: conversions keep the campaign and ad of their click.
  const conversionCampaign = sourceSchema >= 12 ? ['campaign', 'content'] : [];
  // Schema 18: a leave report's followed links.
  const leaveClicks = sourceSchema >= 18 ? ['clicked'] : [];
  const conversions = sourceSchema >= 3 ? await copyConversions(source, target, funnel, [...variants, ...conversionCampaign], onRows) : { ...noneCopied(), skippedTxids: [] };
  const skippedTxids = new Set(conversions.skippedTxids);
  return {
    sourceSchema,
    // A click ID counts once (migration 6): a click whose ID the target already holds is skipped, never an error.
    clicks: await copyUnkeyedRows(source, target, 'clicks', 'at', funnel ? [...clickColumns, 'click_id', 'source', ...clickCampaign, ...variants] : clickColumns, { unique: ['click_id'], onRows }),
    views: funnel ? await copyUnkeyedRows(source, target, 'views', 'at', ['at', 'day', 'page', 'referrer_host', 'source', 'medium', 'campaign', ...viewAd, 'device', 'visitor', ...variants], { onRows }) : noneCopied(),
    leaves:
      sourceSchema >= 17
        ? await copyUnkeyedRows(source, target, 'leaves', 'at', ['at', 'day', 'page', 'device', 'visitor', 'variants', 'sections', 'seen', ...leaveClicks, 'engaged_seconds', 'ordinal'], {
            unique: ['day', 'visitor', 'page', 'ordinal'],
            onRows,
          })
        : noneCopied(),
    conversions,
    conversionEvents:
      sourceSchema >= 3
        ? await copyUnkeyedRows(source, target, 'conversion_events', 'received_at', ['txid', 'status', 'outcome', 'subid', 'payout_micros', 'currency', 'via', 'received_at'], {
            skip: (row) => skippedTxids.has(String(row.txid)),
            onRows,
          })
        : noneCopied(),
    ...(await copyClosedDays(source, target, sourceSchema)),
    dailyConversions: funnel
      ? await copyDailyRows(target, 'daily_conversions', ['day', 'placement', 'source', 'currency'], ['conversions', 'payout_micros'], await allRows(source, 'daily_conversions'))
      : noneCopied(),
    dailyVariantConversions:
      sourceSchema >= 8
        ? await copyDailyRows(target, 'daily_variant_conversions', ['day', 'variants', 'currency'], ['conversions', 'payout_micros'], await allRows(source, 'daily_variant_conversions'))
        : noneCopied(),
    dailyCampaignConversions:
      sourceSchema >= 12
        ? await copyDailyRows(target, 'daily_campaign_conversions', ['day', 'source', 'campaign', 'content', 'currency'], ['conversions', 'payout_micros'], await allRows(source, 'daily_campaign_conversions'))
        : noneCopied(),
    linkChecks: await copyUnkeyedRows(source, target, 'link_checks', 'checked_at', ['checked_at', 'url', 'final_url', 'status', 'redirects', 'ms', 'error', 'verdict'], { onRows }),
    // Keyed like the daily totals: a day the target already counted for a beacon and reason keeps its own number.
    filteredCounts: sourceSchema >= 9 ? await copyDailyRows(target, 'filtered_counts', ['day', 'beacon', 'reason'], ['count'], await allRows(source, 'filtered_counts')) : noneCopied(),
    releases: sourceSchema >= 9 ? await copyReleases(source, target) : noneCopied(),
    incidents: sourceSchema >= 9 ? await copyIncidents(source, target) : noneCopied(),
    costs: sourceSchema >= 10 ? await copyCosts(source, target) : noneCopied(),
    fixedCosts: sourceSchema >= 10 ? await copyFixedCosts(source, target) : noneCopied(),
    claimStates: sourceSchema >= 19 ? await copyClaimStates(source, target) : noneCopied(),
    claimEvidence: sourceSchema >= 19 ? await copyClaimEvidence(source, target) : noneCopied(),
  };
}

/**
 * Conversions, one per txid. A txid the target lacks is copied; one it holds with the same values is
 * already there; one it holds otherwise is skipped and named, the target's row kept as it is.
 */
async function copyConversions(source: Kysely<Schema>, target: Kysely<Schema>, funnel: boolean, since8: readonly string[], onRows?: (rows: number) => void): Promise<ConversionCopyCounts> {
  const columns = funnel ? [...conversionColumns, ...attributionColumns, ...since8] : conversionColumns;
  // A live instance may record one of these txids in between: its row stays, and this one is skipped.
  const { skippedRows, ...counts } = await copyKeyedRows(
    target,
    { table: 'conversions', key: ['txid'], figures: columns, written: columns, lookup: 'txid', conflict: ['txid'] },
    batchesOf(source, 'conversions', { order: 'id', columns, size: batchSize, onRead: onRows }),
  );
  return { ...counts, skippedTxids: skippedRows.map((row) => String(row.txid)) };
}

/**
 * The rows copied a batch at a time (raw clicks, views and leave reports, conversions and their history,
 * link checks: all but a year's few thousand daily totals), counted first, and a function that adds a
 * batch's rows and tells onProgress how far the copy is.
 */
async function rowTally(source: Kysely<Schema>, sourceSchema: number, onProgress: (done: number, total: number) => void): Promise<(rows: number) => void> {
  const tables: (keyof Schema)[] = ['clicks'];
  if (sourceSchema >= 2) tables.push('link_checks');
  if (sourceSchema >= 3) tables.push('conversions', 'conversion_events');
  if (sourceSchema >= 4) tables.push('views');
  if (sourceSchema >= 17) tables.push('leaves');
  let total = 0;
  for (const table of tables) {
    const row = await (source as Kysely<any>).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('rows')).executeTakeFirst();
    total += Number(row?.rows ?? 0);
  }
  let done = 0;
  onProgress(done, total);
  return (rows) => {
    done += rows;
    onProgress(done, total);
  };
}

type DailyTable = 'daily_counts' | 'closed_days' | 'daily_conversions' | 'daily_variant_conversions' | 'daily_campaign_conversions' | 'filtered_counts';

/** Every row of a keyed table, in key order. */
async function allRows(source: Kysely<Schema>, table: DailyTable, where: (query: any) => any = (query) => query): Promise<Row[]> {
  return where((source as Kysely<any>).selectFrom(table).selectAll()).execute();
}

/** The first day with raw views or clicks; undefined when there are none. */
async function firstRawDay(db: Kysely<Schema>, funnel: boolean): Promise<string | undefined> {
  const tables = funnel ? (['clicks', 'views'] as const) : (['clicks'] as const);
  const days = await Promise.all(tables.map((table) => db.selectFrom(table).select((eb) => eb.fn.min('day').as('day')).executeTakeFirst()));
  return days.map((row) => row?.day).filter((day): day is string => typeof day === 'string').sort()[0];
}

/**
 * The totals of the days whose raw rows the source no longer holds (a day with raw rows is copied raw,
 * and the target closes it itself); from a source before schema 5, its folded daily_totals and
 * daily_sources, turned into closed days as schema 5 does. Then the target reopens every day from the
 * source's first raw day that it had closed, so the raw rows copied into those days are counted when it
 * closes them again.
 */
async function copyClosedDays(source: Kysely<Schema>, target: Kysely<Schema>, sourceSchema: number): Promise<Pick<CopyReport, 'dailyCounts' | 'closedDays'>> {
  const firstRaw = await firstRawDay(source, sourceSchema >= 4);
  const beforeRaw = (query: any) => (firstRaw ? query.where('day', '<', firstRaw) : query);
  const counts = sourceSchema >= 5 ? await allRows(source, 'daily_counts', beforeRaw) : await legacyDailyCounts(source, sourceSchema >= 4);
  const closed = sourceSchema >= 5 ? await allRows(source, 'closed_days', beforeRaw) : [...new Set(counts.map((row) => String(row.day)))].map((day) => ({ day, closed_at: Date.now() }));
  const report = {
    dailyCounts: await copyDailyRows(target, 'daily_counts', ['dimension', 'day', 'value'], ['views', 'visitors', 'clicks', 'clickers', 'distinct_values'], counts),
    closedDays: await copyDailyRows(target, 'closed_days', ['day'], [], closed),
  };
  if (firstRaw) {
    await target.deleteFrom('closed_days').where('day', '>=', firstRaw).execute();
    await target.deleteFrom('daily_counts').where('day', '>=', firstRaw).execute();
  }
  // Monthly and weekly sums (migrations 13 and 16) are made from daily_counts, and the days copied in or
  // reopened may lie in months and weeks the target had summed: they are not copied, and the target's are
  // dropped, so its maintenance sums every one anew from the days it now holds (server/jobs/closeMonths.ts).
  for (const table of ['monthly_counts', 'closed_months', 'weekly_counts', 'closed_weeks'] as const) await target.deleteFrom(table).execute();
  return report;
}

/** A schema 1 to 4 source's folded days as daily_counts rows: per placement, per source, and each day's totals. */
async function legacyDailyCounts(source: Kysely<Schema>, funnel: boolean): Promise<Row[]> {
  const db = source as Kysely<any>;
  const totals: Row[] = await db.selectFrom('daily_totals').selectAll().execute();
  const sources: Row[] = funnel ? await db.selectFrom('daily_sources').selectAll().execute() : [];
  const figures = (row: Row, views: number, visitors: number, clicks: number, clickers: number) => ({ views, visitors, clicks, clickers, distinct_values: 1, day: row.day });
  const days = new Map<string, Row>();
  const dayRow = (day: unknown) => days.get(String(day)) ?? days.set(String(day), { dimension: 'all', value: '', ...figures({ day }, 0, 0, 0, 0) }).get(String(day))!;
  const rows: Row[] = [];
  for (const row of totals) {
    if (row.placement === '*') Object.assign(dayRow(row.day), { clicks: Number(row.clicks), clickers: Number(row.visitors) });
    else rows.push({ dimension: 'placement', value: row.placement, ...figures(row, 0, 0, Number(row.clicks), Number(row.visitors)) });
  }
  for (const row of sources) {
    if (row.source === '*') Object.assign(dayRow(row.day), { views: Number(row.views), visitors: Number(row.visitors) });
    else rows.push({ dimension: 'source', value: row.source, ...figures(row, Number(row.views), Number(row.visitors), Number(row.clicks), Number(row.clickers)) });
  }
  return [...rows, ...days.values()];
}

/** Keyed daily figures, one row per key: copied when the target lacks the key, skipped when it has other figures for it. */
async function copyDailyRows(target: Kysely<Schema>, table: DailyTable, key: readonly string[], figures: readonly string[], rows: readonly Row[]): Promise<CopyCounts> {
  const batches = Array.from({ length: Math.ceil(rows.length / batchSize) }, (_, index) => rows.slice(index * batchSize, (index + 1) * batchSize));
  const written = table === 'closed_days' ? ['day', 'closed_at'] : [...key, ...figures];
  const { copied, present, skipped } = await copyKeyedRows(target, { table, key, figures, written, lookup: 'day', conflict: key }, batches);
  return { copied, present, skipped };
}
