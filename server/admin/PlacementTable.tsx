import type { FunnelReport, PlacementTotal } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import type { Earnings } from '../dayCounts/earnings';
import { amountText, counted, rate, share } from '../dayCounts/reportNumbers';
import { Amounts } from './Amounts';
import { placementDescriptions } from './placementDescriptions';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads, type ColumnHead } from './ColumnHeads';
import { LeaveCoverage } from './LeaveCoverage';

function Cells({ clicks, visitors, whole, earnings }: { clicks: number; visitors: number; whole: number; earnings: Earnings }) {
  return (
    <>
      <td>{countText(clicks)}</td>
      <td>{countText(visitors)}</td>
      <td>{share(clicks, whole)}</td>
      <td>{countText(earnings.conversions)}</td>
      <td>{rate(earnings.conversions, clicks)}</td>
      <td>
        <Amounts earnings={earnings} />
      </td>
      <td>
        <Amounts earnings={earnings} per={clicks} />
      </td>
    </>
  );
}

/**
 * Revenue per 1,000 visitors who saw the placement, in the report's currency (the one the report divides);
 * "–" when nobody saw it or it earned nothing in that currency, as the revenue beside it.
 */
function perThousandSeenText(row: PlacementTotal, currency: string): string {
  if (row.revenuePerThousandSeen === null || row.revenueByCurrency[currency] === undefined) return '–';
  return amountText(row.revenuePerThousandSeen, currency);
}

const clickColumns = ['Clicks', 'Visitors', 'Share of clicks', 'Conversions', 'Conversion rate', 'Revenue', 'Earnings per click'];

export interface PlacementTableProps extends Pick<FunnelReport, 'totals' | 'all' | 'from' | 'to'> {
  /**
   * Given (with the report's currency, the one revenue per 1,000 who saw is in), the table leads with who
   * saw each placement and their click-through, and ends with revenue per 1,000 who saw it, under the line
   * saying what share of views that rests on (/admin). Without it, clicks and earnings alone (the digest).
   */
  seen?: { currency: string };
}

/**
 * Per placement: who saw it and how many of them followed it (from the leave reports, when asked), then
 * clicks, visitors, and what the clicks earned (conversion rate, revenue, earnings per click, per 1,000 who saw).
 */
export function PlacementTable({ totals, all, from, to, seen }: PlacementTableProps) {
  // The long heads get room for two lines: over a narrow figure ("5.7%") they would stand five lines tall.
  const columns: ColumnHead[] = seen
    ? ['Placement', 'Saw', { label: 'CTR of those who saw', className: 'long' }, ...clickColumns, { label: 'Revenue per 1,000 who saw', className: 'long' }]
    : ['Placement', ...clickColumns];
  return (
    <>
      <ScrollBox label="Clicks and conversions by placement">
        <table className="placements">
          <Caption>
            Clicks and conversions by placement, {from} to {to}
          </Caption>
          <ColumnHeads columns={columns} />
          <tbody>
            {totals.map((row) => (
              <tr key={row.placement}>
                <th scope="row">
                  {row.placement}
                  <span className="muted description"> {placementDescriptions[row.placement] ?? '(no longer on the page)'}</span>
                </th>
                {seen && (
                  <>
                    <td>{countText(row.seen)}</td>
                    <td>{rate(row.seenClickers, row.seen)}</td>
                  </>
                )}
                <Cells clicks={row.clicks} visitors={row.visitors} whole={all.clicks} earnings={row} />
                {seen && <td>{perThousandSeenText(row, seen.currency)}</td>}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All placements</th>
              {/* One visitor may see several placements: their seen figures add up to no whole. */}
              {seen && (
                <>
                  <td />
                  <td />
                </>
              )}
              <Cells clicks={all.clicks} visitors={all.visitors} whole={all.clicks} earnings={all} />
              {seen && <td />}
            </tr>
          </tfoot>
        </table>
      </ScrollBox>
      {seen && <LeaveCoverage all={all} />}
      <p className="muted">
        {seen &&
          'Saw: visitors with at least half of the placement in view for a second, from their leave reports. CTR of those who saw: the share of them who followed its link. '}
        Visitors: unique visitors who clicked. Conversion rate: conversions per click. Earnings per click: revenue divided by clicks.
      </p>
      {all.unattributed > 0 && (
        <p className="muted">
          {counted(all.unattributed, 'conversion')} named no placement (the network sent no sub-ID, or one that matches no click): counted in
          all placements and under their source, in no placement’s row.
        </p>
      )}
    </>
  );
}
