import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { CostRow } from '../costs/costRow';
import { readCostTotals, readDailyCostTotals, readFixedCostDays, type CostTotal, type DailyCostTotal } from '../costs/costStore';
import { costVerdict, type CostVerdictKind } from '../costs/costVerdict';
import { payoutModel } from '../costs/payoutSpread';
import type { DayCounts } from '../dayCounts/dayCounts';
import { adValue, campaignParts, campaignValue, type DayCountRow } from '../dayCounts/dimensions';
import type { CurrencySum, PlacementDaySum, SourceSum } from '../dayCounts/conversionSums';
import { readPaidSums, type PaidSum } from '../dayCounts/paidSums';
import { readCampaignConversionCounts, readPerDay, readTopAndNamedValuesOf, type CampaignConversionCount } from '../dayCounts/funnelQueries';
import { daysOf, type ReportRange } from '../dayCounts/reportRange';

const microsPerUnit = 1_000_000;

/**
 * One source's spend beside what it earned, over the range. Money is in the report's main currency, in
 * its units (12.5 is 12.50), as `revenue` is; cost in another currency is kept apart in costByCurrency and
 * never converted, so profit, ROI and the verdict read the main currency's cost and revenue only.
 */
export interface SourceCosts {
  source: string;
  /** Visitors who viewed a page. */
  visitors: number;
  clicks: number;
  /** Conversions in every currency, as the source's row counts them. */
  conversions: number;
  /** In the main currency. */
  revenue: number;
  /** Reported and fixed costs in the main currency; null when the source has none in it. */
  cost: number | null;
  /** Every currency the source cost something in, in its own units: the main currency first, then A to Z. */
  costByCurrency: Record<string, number>;
  /** revenue − cost; null without cost in the main currency. */
  profit: number | null;
  /** profit ÷ cost; null without cost (or with a cost of 0). */
  roi: number | null;
  /** cost ÷ visitors; null without cost or visitors. */
  costPerVisitor: number | null;
  /** cost ÷ conversions in the main currency; null without cost or such conversions. */
  costPerConversion: number | null;
  /** What a visitor and a sale bring now: the most either may cost (server/costs/costVerdict.ts); null without cost. */
  breakEven: { maxCostPerVisitor: number | null; maxCostPerSale: number | null } | null;
  /** The chance the source earns more than it costs, 0 to 1; null without cost, or with no payout to reckon with. */
  chanceProfitable: number | null;
  /** null without cost in the main currency. */
  verdict: CostVerdictKind | null;
  /** With 'too-early': about how many more visitors it takes to know; otherwise null. */
  visitorsToKnow: number | null;
}

/** One ad (utm_content) of a campaign, with the same figures as a source. */
export interface AdCosts extends SourceCosts {
  campaign: string;
  content: string;
}

/** One campaign (utm_campaign) of a source, with the same figures as a source, and its ads. */
export interface CampaignCosts extends SourceCosts {
  campaign: string;
  /** Its ads with a cost or visitors, losing money first as campaigns are. */
  ads: AdCosts[];
}

/** The range's spend: every source with a cost (in any currency) or among the listed sources, and the totals. */
export interface CostsReport {
  /** The report's main currency: the one cost, profit and revenue are in. */
  currency: string;
  /** Whether any cost, in any currency, is recorded in the range. */
  recorded: boolean;
  /** Currencies with cost that is not the main one: shown apart, no profit reckoned for them. */
  otherCurrencies: string[];
  all: { cost: number | null; costByCurrency: Record<string, number>; profit: number | null };
  /** Sources with a cost (any currency) or listed in the report's sources, losing money first (lowest profit, then lowest chance), those without cost last. */
  sources: SourceCosts[];
  /**
   * Campaigns with a cost (any currency) and the busiest without one, losing money first as sources are.
   * Costs reported without a campaign, and fixed costs per visitor, count for their source only.
   */
  campaigns: CampaignCosts[];
  /** Each day's cost in the main currency (null when none) and profit, oldest first. */
  days: { day: string; cost: number | null; profit: number | null }[];
}

const currencyOrder = (main: string) => (a: string, b: string) => Number(b === main) - Number(a === main) || a.localeCompare(b);

function add(map: Map<string, Map<string, number>>, key: string, currency: string, micros: number): void {
  const byCurrency = map.get(key) ?? new Map<string, number>();
  byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + micros);
  map.set(key, byCurrency);
}

const inUnits = (byCurrency: Map<string, number> | undefined, main: string): Record<string, number> =>
  Object.fromEntries([...(byCurrency ?? new Map<string, number>())].sort(([a], [b]) => currencyOrder(main)(a, b)).map(([currency, micros]) => [currency, micros / microsPerUnit]));

/** losing money first: lowest profit, then lowest chance, then most cost; rows without cost after, in the order given. */
function lossOrder(a: SourceCosts, b: SourceCosts): number {
  if ((a.profit === null) !== (b.profit === null)) return a.profit === null ? 1 : -1;
  if (a.profit === null || b.profit === null) return 0;
  return a.profit - b.profit || (a.chanceProfitable ?? 1) - (b.chanceProfitable ?? 1) || (b.cost ?? 0) - (a.cost ?? 0);
}

/** What a source, campaign or ad earned in the main currency, and its conversions in every currency. */
interface Earned {
  revenueMicros: number;
  /**
   * Conversions in the main currency. The sums kept ahead do not tell which were paid: a lead paid 0 is
   * among them, which only lowers the row's own mean payout, and the verdict reckons with the site's paid
   * mean when that is larger (costVerdict.ts); its revenue, all the verdict's sales are read from, has none.
   */
  sales: number;
  conversions: number;
}

/** The site's payouts in the main currency, as the verdict reckons with them (server/costs/payoutSpread.ts). */
interface SitePayouts {
  /** The mean payout of sales paid above 0 with its margin (payoutSpread.ts), in micros: what a row without a sale yet is planned with. */
  payoutMicros: number | undefined;
  /** Their squared coefficient of variation, floor included. */
  payoutSpread: number;
}

/**
 * One row's spend beside its earnings: cost, profit, ROI, cost per visitor and per sale, break-even and
 * the verdict, from its cost per currency (undefined: none), what it earned and the site's payouts.
 */
function withCosts<Row extends { visitors: number }>(
  row: Row,
  costs: Map<string, number> | undefined,
  earned: Earned,
  currency: string,
  { payoutMicros, payoutSpread }: SitePayouts,
): Row & Omit<SourceCosts, 'source' | 'visitors' | 'clicks'> {
  const costMicros = costs?.get(currency);
  const base = { ...row, conversions: earned.conversions, revenue: earned.revenueMicros / microsPerUnit, costByCurrency: inUnits(costs, currency) };
  if (costMicros === undefined) {
    return { ...base, cost: null, profit: null, roi: null, costPerVisitor: null, costPerConversion: null, breakEven: null, chanceProfitable: null, verdict: null, visitorsToKnow: null };
  }
  const { revenueMicros, sales } = earned;
  const verdict = costVerdict({ visitors: row.visitors, conversions: sales, revenueMicros, costMicros, payoutSpread, ...(payoutMicros === undefined ? {} : { payoutMicros }) });
  const { maxCostPerVisitorMicros, maxCostPerSaleMicros } = verdict.breakEven;
  return {
    ...base,
    cost: costMicros / microsPerUnit,
    profit: (revenueMicros - costMicros) / microsPerUnit,
    roi: costMicros > 0 ? (revenueMicros - costMicros) / costMicros : null,
    costPerVisitor: row.visitors > 0 ? costMicros / row.visitors / microsPerUnit : null,
    costPerConversion: sales > 0 ? costMicros / sales / microsPerUnit : null,
    breakEven: {
      maxCostPerVisitor: maxCostPerVisitorMicros === null ? null : maxCostPerVisitorMicros / microsPerUnit,
      maxCostPerSale: maxCostPerSaleMicros === null ? null : maxCostPerSaleMicros / microsPerUnit,
    },
    chanceProfitable: verdict.chanceProfitable,
    verdict: verdict.verdict,
    visitorsToKnow: verdict.visitorsToKnow ?? null,
  };
}

/** Adds one conversion row's figures to a key's earnings. */
function earn(map: Map<string, Earned>, key: string, row: CurrencySum, currency: string): void {
  const earned = map.get(key) ?? { revenueMicros: 0, sales: 0, conversions: 0 };
  earned.conversions += row.conversions;
  if (row.currency === currency) {
    earned.revenueMicros += row.micros;
    earned.sales += row.conversions;
  }
  map.set(key, earned);
}

const nothingEarned: Earned = { revenueMicros: 0, sales: 0, conversions: 0 };

interface SourceFigures {
  source: string;
  visitors: number;
  clicks: number;
  conversions: number;
}

/** What the spend section reads (readCosts). */
export interface CostReads {
  totals: CostTotal[];
  daily: DailyCostTotal[];
  fixed: CostRow[];
  campaigns: CampaignReads;
  /** The range's sales paid above 0 per currency (server/dayCounts/paidSums.ts): the payouts' spread. */
  paid: PaidSum[];
}

/**
 * What the spend section reads, none of which waits for the rest of the report: the range's reported costs
 * summed per source, campaign and ad (one grouped query), per day, the fixed-cost rules' days and the
 * campaigns' credited conversions; then the campaigns' and ads' visitors. The funnel report starts it with
 * its first reads (funnelReport.ts), so that this chain of two rounds is not left to run after them.
 */
export async function readCosts(db: Kysely<Schema>, range: ReportRange, dayCounts: DayCounts): Promise<CostReads> {
  const [totals, daily, fixed, credited, paid] = await Promise.all([
    readCostTotals(db, range),
    readDailyCostTotals(db, range),
    readFixedCostDays(db, range),
    readCampaignConversionCounts(db, range),
    readPaidSums(db, range),
  ]);
  return { totals, daily, fixed, paid, campaigns: await readCampaigns(db, range, dayCounts, campaignCostsOf(totals, fixed), credited) };
}

/**
 * The range's costs (`reads`, see readCosts) beside each source's earnings: `earned`, the range's conversions
 * per source and per day (server/dayCounts/conversionSums.ts). `listed` are the report's source rows; a
 * source with a cost but not listed has its visitors read from the day counts (days × sources).
 */
export async function readCostsReport(
  db: Kysely<Schema>,
  range: ReportRange,
  dayCounts: DayCounts,
  reads: CostReads,
  listed: readonly SourceFigures[],
  earned: { bySource: readonly SourceSum[]; byDay: readonly PlacementDaySum[] },
  currency: string,
): Promise<CostsReport> {
  const { totals, daily, fixed } = reads;
  const bySource = new Map<string, Map<string, number>>();
  const byDay = new Map<string, Map<string, number>>();
  for (const row of totals) add(bySource, row.source, row.currency, row.amountMicros);
  for (const row of daily) add(byDay, row.day, row.currency, row.amountMicros);
  for (const row of fixed) {
    add(bySource, row.source, row.currency, row.amountMicros);
    add(byDay, row.day, row.currency, row.amountMicros);
  }

  const earnedBySource = new Map<string, Earned>();
  let allRevenueMicros = 0;
  let allMainConversions = 0;
  const revenueByDay = new Map<string, number>();
  for (const row of earned.bySource) earn(earnedBySource, row.source, row, currency);
  for (const row of earned.byDay) {
    if (row.currency !== currency) continue;
    revenueByDay.set(row.day, (revenueByDay.get(row.day) ?? 0) + row.micros);
    allRevenueMicros += row.micros;
    allMainConversions += row.conversions;
  }
  // The site's payouts: its paid sales' mean with its margin and their spread; when every one was folded past
  // retention (their payouts known only by their sum), revenue per conversion with the floor's spread.
  const paidSums = reads.paid.find((row) => row.currency === currency);
  const paid = payoutModel(paidSums && paidSums.sales > 0 ? paidSums : { sales: allMainConversions, micros: allRevenueMicros });
  const payouts: SitePayouts = { payoutMicros: paid.reckonedMicros, payoutSpread: paid.spread };

  const figures = new Map<string, SourceFigures>(listed.map((row) => [row.source, row]));
  const unlisted = [...bySource.keys()].filter((source) => !figures.has(source));
  if (unlisted.length > 0) {
    const wanted = new Set(unlisted);
    for (const row of await readPerDay(db, 'source', range, dayCounts)) {
      if (!wanted.has(row.value)) continue;
      const known = figures.get(row.value) ?? { source: row.value, visitors: 0, clicks: 0, conversions: 0 };
      figures.set(row.value, { ...known, visitors: known.visitors + row.visitors, clicks: known.clicks + row.clicks });
    }
    for (const source of unlisted) if (!figures.has(source)) figures.set(source, { source, visitors: 0, clicks: 0, conversions: 0 });
  }

  const sources = [...figures.values()].map(({ source, visitors, clicks }) =>
    withCosts({ source, visitors, clicks }, bySource.get(source), earnedBySource.get(source) ?? nothingEarned, currency, payouts),
  );
  const listedOrder = new Map(listed.map((row, index) => [row.source, index]));
  sources.sort((a, b) => lossOrder(a, b) || (listedOrder.get(a.source) ?? Infinity) - (listedOrder.get(b.source) ?? Infinity) || a.source.localeCompare(b.source));
  const campaigns = campaignCostsReport(reads.campaigns, currency, payouts);

  const allCosts = new Map<string, number>();
  for (const byCurrency of bySource.values()) for (const [code, micros] of byCurrency) allCosts.set(code, (allCosts.get(code) ?? 0) + micros);
  const allCostMicros = allCosts.get(currency);
  return {
    currency,
    recorded: allCosts.size > 0,
    otherCurrencies: [...allCosts.keys()].filter((code) => code !== currency).sort(),
    all: {
      cost: allCostMicros === undefined ? null : allCostMicros / microsPerUnit,
      costByCurrency: inUnits(allCosts, currency),
      profit: allCostMicros === undefined ? null : (allRevenueMicros - allCostMicros) / microsPerUnit,
    },
    sources,
    campaigns,
    days: daysOf(range).map((day) => {
      const micros = byDay.get(day)?.get(currency);
      return { day, cost: micros === undefined ? null : micros / microsPerUnit, profit: micros === undefined ? null : ((revenueByDay.get(day) ?? 0) - micros) / microsPerUnit };
    }),
  };
}

/** Campaigns without a cost listed beside those with one: the busiest, so new or unpaid ones are seen. */
export const uncostedCampaignsListed = 20;
/** Ads without a cost listed under the campaigns shown: the busiest of the range. */
export const uncostedAdsListed = 50;

/** Reported and fixed costs per campaign and per ad value (dimensions.ts), each per currency. */
interface CampaignCostSums {
  campaignCosts: Map<string, Map<string, number>>;
  adCosts: Map<string, Map<string, number>>;
}

function campaignCostsOf(totals: readonly CostTotal[], fixed: readonly CostRow[]): CampaignCostSums {
  const campaignCosts = new Map<string, Map<string, number>>();
  const adCosts = new Map<string, Map<string, number>>();
  for (const row of [...totals, ...fixed].filter((cost) => cost.campaign !== '')) {
    add(campaignCosts, campaignValue(row.source, row.campaign), row.currency, row.amountMicros);
    if (row.content !== '') add(adCosts, adValue(row.source, row.campaign, row.content), row.currency, row.amountMicros);
  }
  return { campaignCosts, adCosts };
}

/** The campaigns' and ads' costs, their day counts and their credited conversions. */
interface CampaignReads extends CampaignCostSums {
  credited: CampaignConversionCount[];
  campaignRows: DayCountRow[];
  adRows: DayCountRow[];
}

/**
 * The campaigns and ads to show, with their visitors and clicks: those with a cost in the range (reported,
 * or a fixed daily cost of a campaign) and the busiest without one, from the day counts' 'campaign' and
 * 'ad' dimensions, so the read costs what the campaigns and days cost, not the traffic.
 */
async function readCampaigns(db: Kysely<Schema>, range: ReportRange, dayCounts: DayCounts, costs: CampaignCostSums, credited: CampaignConversionCount[]): Promise<CampaignReads> {
  // The busiest and every one with a cost, both dimensions in one read. An ad with a cost has a campaign with
  // one (its row counts for both), so every costed ad is under a campaign shown.
  const [campaignRows = [], adRows = []] = await readTopAndNamedValuesOf(
    db,
    [
      { dimension: 'campaign', limit: uncostedCampaignsListed, values: [...costs.campaignCosts.keys()] },
      { dimension: 'ad', limit: uncostedAdsListed, values: [...costs.adCosts.keys()] },
    ],
    range,
    dayCounts,
  );
  return { ...costs, credited, campaignRows, adRows };
}

/**
 * The campaigns and their ads with what they cost and earned, conversions from those credited to the
 * click's campaign and ad (migration 12).
 */
function campaignCostsReport({ campaignCosts, adCosts, credited, campaignRows, adRows }: CampaignReads, currency: string, payouts: SitePayouts): CampaignCosts[] {
  const campaignEarned = new Map<string, Earned>();
  const adEarned = new Map<string, Earned>();
  for (const row of credited) {
    if (row.campaign !== '') earn(campaignEarned, campaignValue(row.source, row.campaign), row, currency);
    if (row.content !== '') earn(adEarned, adValue(row.source, row.campaign, row.content), row, currency);
  }

  const campaignCounts = new Map(campaignRows.map((row) => [row.value, row]));
  const shown = new Set([...campaignCounts.keys(), ...campaignCosts.keys()]);
  // An ad is shown under a campaign shown: with a cost, or among the busiest.
  const adCounts = new Map(adRows.filter((row) => shown.has(campaignOfAd(row.value))).map((row) => [row.value, row]));
  const adsByCampaign = new Map<string, string[]>();
  for (const value of new Set([...adCounts.keys(), ...adCosts.keys()])) {
    const campaign = campaignOfAd(value);
    if (shown.has(campaign)) adsByCampaign.set(campaign, [...(adsByCampaign.get(campaign) ?? []), value]);
  }

  const counted = (counts: { visitors: number; clicks: number } | undefined) => ({ visitors: counts?.visitors ?? 0, clicks: counts?.clicks ?? 0 });
  const byName = (a: { source: string; campaign: string }, b: { source: string; campaign: string }) => a.source.localeCompare(b.source) || a.campaign.localeCompare(b.campaign);
  return [...shown]
    .map((value): CampaignCosts => {
      const [source = '', campaign = ''] = campaignParts(value);
      const ads = (adsByCampaign.get(value) ?? [])
        .map((ad): AdCosts => {
          const content = campaignParts(ad)[2] ?? '';
          return withCosts({ source, campaign, content, ...counted(adCounts.get(ad)) }, adCosts.get(ad), adEarned.get(ad) ?? nothingEarned, currency, payouts);
        })
        .sort((a, b) => lossOrder(a, b) || b.visitors - a.visitors || a.content.localeCompare(b.content));
      return { ...withCosts({ source, campaign, ...counted(campaignCounts.get(value)) }, campaignCosts.get(value), campaignEarned.get(value) ?? nothingEarned, currency, payouts), ads };
    })
    .sort((a, b) => lossOrder(a, b) || b.visitors - a.visitors || byName(a, b));
}

/** The 'campaign' value an 'ad' value belongs to. */
const campaignOfAd = (ad: string): string => {
  const [source = '', campaign = ''] = campaignParts(ad);
  return campaignValue(source, campaign);
};
