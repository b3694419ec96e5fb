import type { FunnelReport } from './funnelReport';
import type { SourceCosts } from './sourceCosts';
import { amountText } from '../dayCounts/reportNumbers';

/** The verdict in words, e.g. "too early: about 1,200 more visitors to know". */
export function verdictText(row: Pick<SourceCosts, 'verdict' | 'visitorsToKnow'>): string {
  if (row.verdict === 'losing') return 'losing money';
  if (row.verdict === 'paying') return 'paying for itself';
  if (row.verdict === 'too-early') return row.visitorsToKnow === null ? 'too early' : `too early: about ${row.visitorsToKnow.toLocaleString('en')} more visitors to know`;
  return 'no cost recorded';
}

/** An amount of the main currency, or "–" for none. */
export const money = (amount: number | null, currency: string) => (amount === null ? '–' : amountText(amount, currency));

/** How an operator records costs, for a report that has none. */
export const addCostsHint = 'No cost is recorded for this range: add costs with npm run costs:import (an ad platform\'s report), POST /api/costs or npm run costs:set (a fixed cost).';

/** The same, in lines that fit a terminal. */
export const addCostsLines = ['No cost is recorded for this range. Add costs with npm run costs:import (an ad', "platform's report), POST /api/costs or npm run costs:set (a fixed cost)."];

/** Why a cost in another currency has no profit: currencies are never converted. */
export const otherCurrencyNote = (currency: string, others: readonly string[]) =>
  `Cost in ${others.join(', ')} is shown apart: currencies are never converted,\nso profit and ROI are reckoned in ${currency} only.`;

/** The report as --json writes it: `all` gains cost and profit, each `sources[]` row cost, profit, roi and chanceProfitable. */
export function withCosts(report: FunnelReport): FunnelReport & { all: FunnelReport['all'] & { cost: number | null; profit: number | null } } {
  const bySource = new Map(report.costs.sources.map((row) => [row.source, row]));
  return {
    ...report,
    all: { ...report.all, cost: report.costs.all.cost, profit: report.costs.all.profit },
    sources: report.sources.map((row) => {
      const costs = bySource.get(row.source);
      return { ...row, cost: costs?.cost ?? null, profit: costs?.profit ?? null, roi: costs?.roi ?? null, chanceProfitable: costs?.chanceProfitable ?? null };
    }),
  };
}
