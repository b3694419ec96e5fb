import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import type { SourceCosts } from '../funnelReport/sourceCosts';
import { amountText, share, sourceName } from '../dayCounts/reportNumbers';
import { money, otherCurrencyNote, verdictText } from '../funnelReport/formatCosts';
import { Amounts } from './Amounts';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads } from './ColumnHeads';

const campaignColumn = 'Campaign / ad';
const columns = ['Source', 'Cost', 'Visitors', 'Cost per visitor', 'Conversions', 'Cost per sale', 'Revenue', 'Profit', 'ROI', 'Chance of profit', { label: 'Verdict', className: 'name' }];

/** Cost in each currency, the main one first, one currency a line, as Amounts writes revenue. */
const Costs = ({ costByCurrency }: { costByCurrency: Record<string, number> }) => <Amounts earnings={{ revenueByCurrency: costByCurrency }} />;

/**
 * The most a visitor and a sale may cost for the row to break even, as the verdict's cell ends with it;
 * nothing before its first sale (0 a visitor would be true and of no use).
 */
function breakEvenText({ breakEven, revenue }: SourceCosts, currency: string): string {
  if (breakEven === null || revenue === 0) return '';
  const parts = [
    breakEven.maxCostPerVisitor === null ? null : `${amountText(breakEven.maxCostPerVisitor, currency)} a visitor`,
    breakEven.maxCostPerSale === null ? null : `${amountText(breakEven.maxCostPerSale, currency)} a sale`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? '' : `Breaks even at ${parts.join(', ')}.`;
}

/** One source's, campaign's or ad's figures after its name: the columns' cells. */
function SpendCells({ row, currency }: { row: SourceCosts; currency: string }) {
  const breakEven = breakEvenText(row, currency);
  return (
    <>
      <td>
        <Costs costByCurrency={row.costByCurrency} />
      </td>
      <td>{countText(row.visitors)}</td>
      <td>{money(row.costPerVisitor, currency)}</td>
      <td>{countText(row.conversions)}</td>
      <td>{money(row.costPerConversion, currency)}</td>
      <td>{amountText(row.revenue, currency)}</td>
      <td>{money(row.profit, currency)}</td>
      <td>{row.roi === null ? '–' : share(row.roi, 1)}</td>
      <td>{row.chanceProfitable === null ? '–' : share(row.chanceProfitable, 1)}</td>
      <td className="verdict">
        {row.cost === null ? `no profit reckoned: cost in ${Object.keys(row.costByCurrency).join(', ')}` : verdictText(row)}
        {breakEven && (
          <>
            {' '}
            <span className="break-even">{breakEven}</span>
          </>
        )}
      </td>
    </>
  );
}

/**
 * The campaigns with a cost /admin lists, losing money first: 200 campaigns with their ads made half of a
 * year's page (159 KB of 316 KB); the rest are one command away (npm run stats -- --csv --spend).
 */
export const adminCampaigns = 50;

const losing = (row: SourceCosts) => (row.profit !== null && row.profit < 0 ? 'losing' : undefined);
const hasCost = (row: SourceCosts) => Object.keys(row.costByCurrency).length > 0;

/**
 * Spend and profit per source with a cost, losing money first (lowest profit, then lowest chance of
 * profit), each with its verdict in words and what it may cost to break even; then the same per campaign,
 * each campaign's ads under it (the first `campaignsShown` of them: /admin the worst 50, the digest the worst few).
 * One line on how to add costs when none is recorded.
 */
export function SpendTable({ costs, from, to, campaignsShown }: Pick<FunnelReport, 'costs' | 'from' | 'to'> & { campaignsShown?: number }) {
  if (!costs.recorded) {
    return (
      <p>
        No cost is recorded for this range. Add costs with <code>npm run costs:import</code> (an ad platform’s report), <code>POST /api/costs</code> or{' '}
        <code>npm run costs:set</code> (a fixed cost), and each source shows its cost, profit and whether it pays for itself.
      </p>
    );
  }
  const { currency } = costs;
  const rows = costs.sources.filter(hasCost);
  const costedCampaigns = costs.campaigns.filter(hasCost);
  // The digest shows the first few (those losing most); /admin every one.
  const campaigns = costedCampaigns.slice(0, campaignsShown);
  const campaignsLeft = costedCampaigns.length - campaigns.length;
  return (
    <>
      <ScrollBox label="Spend and profit by source">
        <table>
          <Caption>
            Spend and profit by source, {from} to {to}, losing money first; profit in {currency}
          </Caption>
          <ColumnHeads columns={columns} />
          <tbody>
            {rows.map((row) => (
              <tr key={row.source} className={losing(row)}>
                <th scope="row">{sourceName(row.source)}</th>
                <SpendCells row={row} currency={currency} />
              </tr>
            ))}
            <tr className="others">
              <th scope="row">All sources</th>
              <td>
                <Costs costByCurrency={costs.all.costByCurrency} />
              </td>
              <td colSpan={5}></td>
              <td>{money(costs.all.profit, currency)}</td>
              <td colSpan={3}></td>
            </tr>
          </tbody>
        </table>
      </ScrollBox>
      {campaigns.length > 0 && (
        <ScrollBox label="Spend and profit by campaign and ad">
          <table>
            <Caption>
              Spend and profit by campaign and ad, {from} to {to}, losing money first, each campaign’s ads under it; profit in {currency}
            </Caption>
            <ColumnHeads columns={[campaignColumn, ...columns.slice(1)]} />
            {campaigns.map((campaign) => (
              <tbody key={`${campaign.source} ${campaign.campaign}`}>
                <tr className={losing(campaign)}>
                  <th scope="row">
                    {sourceName(campaign.source)} / {campaign.campaign}
                  </th>
                  <SpendCells row={campaign} currency={currency} />
                </tr>
                {campaign.ads.filter(hasCost).map((ad) => (
                  <tr key={ad.content} className={['ad', losing(ad)].filter(Boolean).join(' ')}>
                    <th scope="row">
                      <span className="visually-hidden">{campaign.campaign}, ad </span>
                      {ad.content}
                    </th>
                    <SpendCells row={ad} currency={currency} />
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </ScrollBox>
      )}
      {campaignsLeft > 0 && (
        <p>
          And {countText(campaignsLeft)} more campaigns with a cost: <code>npm run stats -- --csv --spend</code> lists every one.
        </p>
      )}
      <p className="muted">
        Cost is what the ad platforms reported plus the fixed costs set with <code>npm run costs:set</code>. ROI: profit ÷ cost. Chance of
        profit: how likely the source earns more than it costs, from its visitors and sales so far; the verdict waits until it is sure
        (see docs/costs-verdict.md). A source with no sale yet is reckoned with the site’s mean payout. A campaign’s sales are those whose
        click came from it (its utm_campaign; an ad is its utm_content); costs reported without a campaign count for their source only.
        {costs.otherCurrencies.length > 0 && ` ${otherCurrencyNote(currency, costs.otherCurrencies).replace('\n', ' ')}`}
      </p>
    </>
  );
}
