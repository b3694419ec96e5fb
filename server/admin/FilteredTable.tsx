import { filterReasons, filterReasonDescriptions } from '../dayCounts/filterReasons';
import { countText } from '../lib/numberFormat';
import type { FilteredFigures } from '../funnelReport/filteredCounts';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { ColumnHeads } from './ColumnHeads';
import { Caption, ScrollBox } from './ScrollBox';
import { DaysTable, maxTableDays } from './tableDays';

const triple = ({ views, clicks, leaves }: FilteredFigures) => (views > 0 || clicks > 0 || leaves > 0 ? `${countText(views)} / ${countText(clicks)} / ${countText(leaves)}` : '–');

/**
 * The beacons' reports that were not counted, and why (server/dayCounts/filterReasons.ts): per reason over
 * the range, then per day, newest first (at most maxTableDays, as the other day tables), so a filter at
 * work and a sudden flood both show.
 */
export function FilteredTable({ filtered, from, to }: Pick<FunnelReport, 'filtered' | 'from' | 'to'>) {
  const newest = filtered.days.toReversed();
  const more = Math.max(0, newest.length - maxTableDays);
  return (
    <>
      <ScrollBox label="Reports not counted, by reason">
        <table>
          <Caption>
            Reports not counted, by reason, {from} to {to}
          </Caption>
          <ColumnHeads columns={['Reason', 'Page views', 'Clicks', 'Leave reports']} />
          <tbody>
            {filterReasons.map((reason) => (
              <tr key={reason}>
                <th scope="row">
                  {reason}
                  <span className="muted description"> {filterReasonDescriptions[reason]}</span>
                </th>
                <td>{countText(filtered.reasons[reason].views)}</td>
                <td>{countText(filtered.reasons[reason].clicks)}</td>
                <td>{countText(filtered.reasons[reason].leaves)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All reasons</th>
              <td>{countText(filtered.views)}</td>
              <td>{countText(filtered.clicks)}</td>
              <td>{countText(filtered.leaves)}</td>
            </tr>
          </tfoot>
        </table>
      </ScrollBox>
      <p className="muted">
        Only a day, the kind of report, the reason and a number are kept: nothing about who sent it. Each server adds its counts every 10 seconds,
        so the last few are not here yet.
      </p>
      {newest.length > 0 && (
        <DaysTable label="Reports not counted per day" caption=", days with none left out; page views / clicks / leave reports" more={more}>
          <ColumnHeads columns={['Day', 'All', ...filterReasons]} />
          <tbody>
            {newest.slice(0, maxTableDays).map((entry) => (
              <tr key={entry.day}>
                <th scope="row" className="day">
                  {entry.day}
                </th>
                <td>{triple(entry)}</td>
                {filterReasons.map((reason) => (
                  <td key={reason}>{triple(entry.reasons[reason])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </DaysTable>
      )}
    </>
  );
}
