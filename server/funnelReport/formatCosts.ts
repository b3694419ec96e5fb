import type { FunnelReport } from './funnelReport';
import type { CampaignCosts, SourceCosts } from './sourceCosts';
import { amountText } from '../dayCounts/reportNumbers';
import { countText } from '../lib/numberFormat';
import { csvField } from '../lib/csvField';

/** The verdict in words, e.g. "too early: about 1,200 more visitors to know". */
export function verdictText(row: Pick<SourceCosts, 'verdict' | 'visitorsToKnow'>): string {
  if (row.verdict === 'losing') return 'losing money';
  if (row.verdict === 'paying') return 'paying for itself';
  if (row.verdict === 'too-early') return row.visitorsToKnow === null ? 'too early' : `too early: about ${countText(row.visitorsToKnow)} more visitors to know`;
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

/**
 * The report as --json writes it: `all` gains cost and profit, each `sources[]` row cost, profit, roi and
 * chanceProfitable, and `campaigns[]` lists each campaign (source, campaign, the same figures) with its `ads[]` by content.
 */
export function withCosts(report: FunnelReport): FunnelReport & { all: FunnelReport['all'] & { cost: number | null; profit: number | null }; campaigns: CampaignCosts[] } {
  const bySource = new Map(report.costs.sources.map((row) => [row.source, row]));
  return {
    ...report,
    all: { ...report.all, cost: report.costs.all.cost, profit: report.costs.all.profit },
    campaigns: report.costs.campaigns,
    sources: report.sources.map((row) => {
      const costs = bySource.get(row.source);
      return { ...row, cost: costs?.cost ?? null, profit: costs?.profit ?? null, roi: costs?.roi ?? null, chanceProfitable: costs?.chanceProfitable ?? null };
    }),
  };
}

const csvNumber = (value: number | null) => (value === null ? '' : String(value));

/**
 * `npm run stats -- --csv --spend`: one row per source, campaign and ad with a cost or listed, over the
 * range: `level` says which (source rows have campaign and content empty, campaign rows content empty).
 * Money is in `currency`, the main one, and empty where there is none in it (a cost in another currency
 * is in cost_other, as "12.5 EUR"), so a spreadsheet can sum the columns; roi and chance_profitable are
 * fractions (0.25 is 25%).
 */
export function formatSpendCsv(report: FunnelReport): string {
  const { currency } = report.costs;
  const header = 'level,source,campaign,content,currency,cost,cost_other,visitors,clicks,conversions,revenue,profit,roi,chance_profitable,verdict';
  const line = (level: string, campaign: string, content: string, row: SourceCosts) =>
    [
      level,
      csvField(row.source),
      csvField(campaign),
      csvField(content),
      currency,
      csvNumber(row.cost),
      csvField(
        Object.entries(row.costByCurrency)
          .filter(([code]) => code !== currency)
          .map(([code, amount]) => `${amount} ${code}`)
          .join(' + '),
      ),
      row.visitors,
      row.clicks,
      row.conversions,
      row.revenue,
      csvNumber(row.profit),
      csvNumber(row.roi),
      csvNumber(row.chanceProfitable),
      row.verdict ?? '',
    ].join(',');
  const rows = [header, ...report.costs.sources.map((row) => line('source', '', '', row))];
  for (const campaign of report.costs.campaigns) {
    rows.push(line('campaign', campaign.campaign, '', campaign));
    for (const ad of campaign.ads) rows.push(line('ad', ad.campaign, ad.content, ad));
  }
  return `${rows.join('\n')}\n`;
}
