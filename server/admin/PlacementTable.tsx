import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import type { Earnings } from '../dayCounts/earnings';
import { counted, rate, share } from '../dayCounts/reportNumbers';
import { Amounts } from './Amounts';
import { placementDescriptions } from './placementDescriptions';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads } from './ColumnHeads';

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

/** Per placement: clicks, visitors, and what the clicks earned (conversion rate, revenue, earnings per click). */
export function PlacementTable({ totals, all, from, to }: Pick<FunnelReport, 'totals' | 'all' | 'from' | 'to'>) {
  return (
    <>
      <ScrollBox label="Clicks and conversions by placement">
        <table>
          <Caption>
            Clicks and conversions by placement, {from} to {to}
          </Caption>
          <ColumnHeads columns={['Placement', 'Clicks', 'Visitors', 'Share of clicks', 'Conversions', 'Conversion rate', 'Revenue', 'Earnings per click']} />
          <tbody>
            {totals.map((row) => (
              <tr key={row.placement}>
                <th scope="row">
                  {row.placement}
                  <span className="muted description"> {placementDescriptions[row.placement] ?? '(no longer on the page)'}</span>
                </th>
                <Cells clicks={row.clicks} visitors={row.visitors} whole={all.clicks} earnings={row} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All placements</th>
              <Cells clicks={all.clicks} visitors={all.visitors} whole={all.clicks} earnings={all} />
            </tr>
          </tfoot>
        </table>
      </ScrollBox>
      <p className="muted">
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
