import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import { Amounts } from './Amounts';
import { DaysTable, tableDays } from './tableDays';
import { ColumnHeads } from './ColumnHeads';
import { ReleaseMarks, releasesByDay } from './releaseMarks';

const pair = (count: number, visitors: number) => (count > 0 ? `${countText(count)} / ${countText(visitors)}` : '–');

/**
 * Day by day, newest first: page views, clicks per placement, and what the day's clicks earned. Days with
 * nothing are left out (the charts show them as gaps), and at most maxTableDays are shown (see tableDays.tsx).
 */
export function DailyTable({ days, totals, releases: { compared } }: Pick<FunnelReport, 'days' | 'totals' | 'releases'>) {
  const placements = totals.map((row) => row.placement);
  const { shown: active, more } = tableDays(days);
  const releases = releasesByDay(compared);
  if (active.length === 0) return null;
  return (
    <DaysTable label="Views, clicks and conversions per day" caption=", days with nothing left out; views and clicks as count / unique visitors" more={more}>
      <ColumnHeads columns={['Day', 'Views', 'Clicks', 'Conversions', 'Revenue', ...placements.map((placement) => `${placement} clicks`)]} />
      <tbody>
        {active.map((entry) => (
          <tr key={entry.day}>
            <th scope="row" className="day">
              {entry.day}
              <ReleaseMarks releases={releases.get(entry.day)} />
            </th>
            <td>{pair(entry.all.views, entry.all.viewVisitors)}</td>
            <td>{pair(entry.all.clicks, entry.all.visitors)}</td>
            <td>{entry.all.conversions ? countText(entry.all.conversions) : '–'}</td>
            <td>
              <Amounts earnings={entry.all} />
            </td>
            {placements.map((placement) => {
              const count = entry.placements[placement];
              return <td key={placement}>{count ? pair(count.clicks, count.visitors) : '–'}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </DaysTable>
  );
}
