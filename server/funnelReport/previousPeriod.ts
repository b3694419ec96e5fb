import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { rangeValueRows, type DayCounts } from '../dayCounts/dayCounts';
import { earningsOf, type Earnings } from '../dayCounts/earnings';
import { addDays, dayMs, dayStart } from '../lib/utcDay';
import type { ReportRange } from '../dayCounts/reportRange';
import { readFixedCostDays } from '../costs/costStore';

/*
 * The headline figures of the period just before a report's range, of the same length (issue 30): what
 * /admin's "+12% vs the previous 30 days" compares with. Only totals, never its days: one statement that
 * sums the 'all' counts through rangeValueRows (the range's whole closed months, weeks, then days, as the
 * report's range totals are read), beside the conversions' and the reported costs' day sums per currency.
 * A year's previous year costs some twenty rows of counts and a few hundred of sums, whatever the traffic.
 * Fixed costs (npm run costs:set) are rules, not rows: when one covers the period, its days are worked out
 * as the report's own are (readFixedCostDays), in a second read that only such a period pays for.
 */

/** What the previous period's one statement hands back, before the report's currency is known. */
export interface PreviousPeriodReads {
  range: ReportRange;
  views: number;
  viewVisitors: number;
  clicks: number;
  visitors: number;
  conversions: { currency: string; conversions: number; micros: number }[];
  /** Reported and fixed costs per currency. */
  costs: { currency: string; micros: number }[];
}

/** The previous period's totals, as the report's `all` holds the range's, and each headline figure's change. */
export interface PreviousPeriod extends Earnings {
  from: string;
  to: string;
  views: number;
  /** Visitors who viewed a page. */
  viewVisitors: number;
  clicks: number;
  /** Visitors who clicked. */
  visitors: number;
  /** Reported and fixed cost in the report's currency; null when the period had none in it. */
  cost: number | null;
  /** Revenue less cost, in the report's currency; null when cost is. */
  profit: number | null;
  /**
   * Each headline figure's change against this period, as a fraction (0.12 is +12%): null when the
   * previous period had nothing (zero or no cost) or either side is not known, so no change is shown.
   */
  change: Record<HeadlineFigure, number | null>;
}

/** The figures /admin's headline compares with the previous period, in the order shown. */
export const headlineFigures = ['visitors', 'clicked', 'conversions', 'revenue', 'spend', 'profit'] as const;
export type HeadlineFigure = (typeof headlineFigures)[number];

/** The same number of days just before the range: 2026-02-01..2026-02-28 is compared with 2026-01-04..2026-01-31. */
export function previousRangeOf({ from, to }: ReportRange): ReportRange {
  const days = Math.round((dayStart(to) - dayStart(from)) / dayMs) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/**
 * Reads the previous period's totals in one statement. `dayCounts` is the report's: the previous period's
 * days are closed ones in practice (it ends the day before the range starts); a day of it still open
 * (closing catching up after an outage) counts nothing here until it is closed.
 */
export async function readPreviousPeriod(db: Kysely<Schema>, range: ReportRange, dayCounts: DayCounts): Promise<PreviousPeriodReads> {
  const previous = previousRangeOf(range);
  const { from, to } = previous;
  const found = await sql<{ kind: string; currency: string; a: unknown; b: unknown; c: unknown; d: unknown }>`
    select 'counts' as kind, '' as currency, sum(views) as a, sum(visitors) as b, sum(clicks) as c, sum(clickers) as d
      from (${rangeValueRows('all', from, to, dayCounts)}) as counts
    union all select 'conversions', currency, sum(conversions), sum(payout_micros), 0, 0
      from conversion_days where day >= ${from} and day <= ${to} group by currency
    union all select 'cost', currency, sum(amount_micros), 0, 0, 0
      from cost_days where day >= ${from} and day <= ${to} group by currency
    union all select 'fixed', '', count(*), 0, 0, 0
      from fixed_costs where from_day <= ${to} and to_day >= ${from}`.execute(db);
  const reads: PreviousPeriodReads = { range: previous, views: 0, viewVisitors: 0, clicks: 0, visitors: 0, conversions: [], costs: [] };
  const costs = new Map<string, number>();
  let fixedCostRules = 0;
  for (const row of found.rows) {
    const [a, b, c, d] = [row.a, row.b, row.c, row.d].map((value) => Number(value ?? 0)) as [number, number, number, number];
    const currency = String(row.currency).trim();
    if (row.kind === 'counts') Object.assign(reads, { views: a, viewVisitors: b, clicks: c, visitors: d });
    // A sum whose conversions were all reversed stays at zero: left out, as the report leaves it out.
    else if (row.kind === 'conversions' && (a !== 0 || b !== 0)) reads.conversions.push({ currency, conversions: a, micros: b });
    else if (row.kind === 'cost') costs.set(currency, a);
    else if (row.kind === 'fixed') fixedCostRules = a;
  }
  if (fixedCostRules > 0) for (const row of await readFixedCostDays(db, previous)) costs.set(row.currency, (costs.get(row.currency) ?? 0) + row.amountMicros);
  reads.costs = [...costs].map(([currency, micros]) => ({ currency, micros }));
  return reads;
}

/** The change from previous to current as a fraction; null when there was nothing before (or either is not known). */
export function changeOf(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || !Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  // Profit may be below zero: the change is measured against its size, so a smaller loss is a rise.
  return (current - previous) / Math.abs(previous);
}

/** What the range reached, as the headline shows it: the report's `all` and its costs. */
export interface HeadlineTotals {
  viewVisitors: number;
  visitors: number;
  conversions: number;
  revenue: number;
  cost: number | null;
  profit: number | null;
}

/** The previous period in the report's main currency, with each headline figure's change from it to `current`. */
export function previousPeriodOf(reads: PreviousPeriodReads, currency: string, current: HeadlineTotals): PreviousPeriod {
  const earnings = earningsOf(reads.conversions, currency);
  const costMicros = reads.costs.find((row) => row.currency === currency)?.micros;
  const cost = costMicros === undefined ? null : costMicros / 1_000_000;
  const profit = cost === null ? null : earnings.revenue - cost;
  return {
    from: reads.range.from,
    to: reads.range.to,
    views: reads.views,
    viewVisitors: reads.viewVisitors,
    clicks: reads.clicks,
    visitors: reads.visitors,
    ...earnings,
    cost,
    profit,
    change: {
      visitors: changeOf(current.viewVisitors, reads.viewVisitors),
      clicked: changeOf(current.visitors, reads.visitors),
      conversions: changeOf(current.conversions, earnings.conversions),
      revenue: changeOf(current.revenue, earnings.revenue),
      spend: changeOf(current.cost, cost),
      profit: changeOf(current.profit, profit),
    },
  };
}
