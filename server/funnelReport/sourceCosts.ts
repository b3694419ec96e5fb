import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { readCostTotals, readDailyCostTotals, readFixedCostDays } from '../costs/costStore';
import { costVerdict, type CostVerdictKind } from '../costs/costVerdict';
import type { DayCounts } from '../dayCounts/dayCounts';
import type { ConversionCount } from '../dayCounts/funnelQueries';
import { readPerDay } from '../dayCounts/funnelQueries';
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

/** losing money first: lowest profit, then lowest chance, then most cost; sources without cost after, as listed. */
function lossOrder(a: SourceCosts, b: SourceCosts): number {
  if ((a.profit === null) !== (b.profit === null)) return a.profit === null ? 1 : -1;
  if (a.profit === null || b.profit === null) return 0;
  return a.profit - b.profit || (a.chanceProfitable ?? 1) - (b.chanceProfitable ?? 1) || (b.cost ?? 0) - (a.cost ?? 0) || a.source.localeCompare(b.source);
}

interface SourceFigures {
  source: string;
  visitors: number;
  clicks: number;
  conversions: number;
}

/**
 * Reads the range's costs (reported costs summed per source and currency in one grouped query, and the
 * fixed-cost rules' days) and sets them beside each source's earnings. `listed` are the report's source
 * rows; a source with a cost but not listed has its visitors read from the day counts (days × sources).
 */
export async function readCostsReport(
  db: Kysely<Schema>,
  range: ReportRange,
  dayCounts: DayCounts,
  listed: readonly SourceFigures[],
  conversions: readonly ConversionCount[],
  currency: string,
): Promise<CostsReport> {
  const [totals, daily, fixed] = await Promise.all([readCostTotals(db, range), readDailyCostTotals(db, range), readFixedCostDays(db, range)]);
  const bySource = new Map<string, Map<string, number>>();
  const byDay = new Map<string, Map<string, number>>();
  for (const row of totals) add(bySource, row.source, row.currency, row.amountMicros);
  for (const row of daily) add(byDay, row.day, row.currency, row.amountMicros);
  for (const row of fixed) {
    add(bySource, row.source, row.currency, row.amountMicros);
    add(byDay, row.day, row.currency, row.amountMicros);
  }

  const revenueMicros = new Map<string, number>();
  const mainConversions = new Map<string, number>();
  let allRevenueMicros = 0;
  let allMainConversions = 0;
  const revenueByDay = new Map<string, number>();
  for (const row of conversions) {
    if (row.currency !== currency) continue;
    revenueMicros.set(row.source, (revenueMicros.get(row.source) ?? 0) + row.micros);
    mainConversions.set(row.source, (mainConversions.get(row.source) ?? 0) + row.conversions);
    revenueByDay.set(row.day, (revenueByDay.get(row.day) ?? 0) + row.micros);
    allRevenueMicros += row.micros;
    allMainConversions += row.conversions;
  }
  const conversionsOf = new Map<string, number>();
  for (const row of conversions) conversionsOf.set(row.source, (conversionsOf.get(row.source) ?? 0) + row.conversions);
  // The site's mean payout: what a source without a sale yet is planned with.
  const payoutMicros = allMainConversions > 0 && allRevenueMicros > 0 ? allRevenueMicros / allMainConversions : undefined;

  const figures = new Map<string, SourceFigures>(listed.map((row) => [row.source, row]));
  const unlisted = [...bySource.keys()].filter((source) => !figures.has(source));
  if (unlisted.length > 0) {
    const wanted = new Set(unlisted);
    for (const row of await readPerDay(db, 'source', range, dayCounts)) {
      if (!wanted.has(row.value)) continue;
      const known = figures.get(row.value) ?? { source: row.value, visitors: 0, clicks: 0, conversions: conversionsOf.get(row.value) ?? 0 };
      figures.set(row.value, { ...known, visitors: known.visitors + row.visitors, clicks: known.clicks + row.clicks });
    }
    for (const source of unlisted) if (!figures.has(source)) figures.set(source, { source, visitors: 0, clicks: 0, conversions: conversionsOf.get(source) ?? 0 });
  }

  const sources = [...figures.values()].map((row): SourceCosts => {
    const costs = bySource.get(row.source);
    const costMicros = costs?.get(currency);
    const revenue = revenueMicros.get(row.source) ?? 0;
    const base = { source: row.source, visitors: row.visitors, clicks: row.clicks, conversions: row.conversions, revenue: revenue / microsPerUnit, costByCurrency: inUnits(costs, currency) };
    if (costMicros === undefined) {
      return { ...base, cost: null, profit: null, roi: null, costPerVisitor: null, costPerConversion: null, breakEven: null, chanceProfitable: null, verdict: null, visitorsToKnow: null };
    }
    const sales = mainConversions.get(row.source) ?? 0;
    const verdict = costVerdict({ visitors: row.visitors, conversions: sales, revenueMicros: revenue, costMicros, ...(payoutMicros === undefined ? {} : { payoutMicros }) });
    const { maxCostPerVisitorMicros, maxCostPerSaleMicros } = verdict.breakEven;
    return {
      ...base,
      cost: costMicros / microsPerUnit,
      profit: (revenue - costMicros) / microsPerUnit,
      roi: costMicros > 0 ? (revenue - costMicros) / costMicros : null,
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
  });
  const listedOrder = new Map(listed.map((row, index) => [row.source, index]));
  sources.sort((a, b) => lossOrder(a, b) || (listedOrder.get(a.source) ?? Infinity) - (listedOrder.get(b.source) ?? Infinity) || a.source.localeCompare(b.source));

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
    campaigns: [],
    days: daysOf(range).map((day) => {
      const micros = byDay.get(day)?.get(currency);
      return { day, cost: micros === undefined ? null : micros / microsPerUnit, profit: micros === undefined ? null : ((revenueByDay.get(day) ?? 0) - micros) / microsPerUnit };
    }),
  };
}
