import { Fragment } from 'react';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { amountText, share, sourceName } from '../dayCounts/reportNumbers';
import { money, otherCurrencyNote, verdictText } from '../funnelReport/formatCosts';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads } from './ColumnHeads';

const columns = ['Source', 'Cost', 'Visitors', 'Cost per visitor', 'Conversions', 'Cost per sale', 'Revenue', 'Profit', 'ROI', 'Chance of profit', { label: 'Verdict', className: 'name' }];

/** Cost in each currency, the main one first, one currency a line; a space keeps them apart for screen readers. */
function Costs({ costByCurrency }: { costByCurrency: Record<string, number> }) {
  const lines = Object.entries(costByCurrency).map(([currency, amount]) => amountText(amount, currency));
  if (lines.length === 0) return '–';
  if (lines.length === 1) return lines[0];
  return lines.map((line, index) => (
    <Fragment key={line}>
      {index > 0 && ' '}
      <span className="amount">{line}</span>
    </Fragment>
  ));
}

/**
 * Spend and profit per source with a cost, losing money first (lowest profit, then lowest chance of
 * profit), each with its verdict in words; one line on how to add costs when none is recorded.
 */
export function SpendTable({ costs, from, to }: Pick<FunnelReport, 'costs' | 'from' | 'to'>) {
  if (!costs.recorded) {
    return (
      <p>
        No cost is recorded for this range. Add costs with <code>npm run costs:import</code> (an ad platform’s report), <code>POST /api/costs</code> or{' '}
        <code>npm run costs:set</code> (a fixed cost), and each source shows its cost, profit and whether it pays for itself.
      </p>
    );
  }
  const { currency } = costs;
  const rows = costs.sources.filter((row) => Object.keys(row.costByCurrency).length > 0);
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
              <tr key={row.source} className={row.profit !== null && row.profit < 0 ? 'losing' : undefined}>
                <th scope="row">{sourceName(row.source)}</th>
                <td>
                  <Costs costByCurrency={row.costByCurrency} />
                </td>
                <td>{row.visitors}</td>
                <td>{money(row.costPerVisitor, currency)}</td>
                <td>{row.conversions}</td>
                <td>{money(row.costPerConversion, currency)}</td>
                <td>{amountText(row.revenue, currency)}</td>
                <td>{money(row.profit, currency)}</td>
                <td>{row.roi === null ? '–' : share(row.roi, 1)}</td>
                <td>{row.chanceProfitable === null ? '–' : share(row.chanceProfitable, 1)}</td>
                <td className="verdict">{row.cost === null ? `no profit reckoned: cost in ${Object.keys(row.costByCurrency).join(', ')}` : verdictText(row)}</td>
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
      <p className="muted">
        Cost is what the ad platforms reported plus the fixed costs set with <code>npm run costs:set</code>. ROI: profit ÷ cost. Chance of
        profit: how likely the source earns more than it costs, from its visitors and sales so far; the verdict waits until it is sure
        (see docs/costs-verdict.md). A source with no sale yet is reckoned with the site’s mean payout.
        {costs.otherCurrencies.length > 0 && ` ${otherCurrencyNote(currency, costs.otherCurrencies).replace('\n', ' ')}`}
      </p>
    </>
  );
}
