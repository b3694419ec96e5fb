import type { FunnelReport } from '../funnelReport/funnelReport';
import { rate, sourceName } from '../funnelReport/reportNumbers';
import { Amounts } from './Amounts';
import { Caption, ScrollBox } from './ScrollBox';

/**
 * Each day's sources, newest first, days without visitors, clicks or conversions left out. The day heads
 * its group of rows (a tbody per day), so the source, not the day, is what begins each row after the first.
 */
export function DailySourceTable({ report }: { report: FunnelReport }) {
  const active = report.days.toReversed().filter((entry) => entry.sources.length > 0);
  if (active.length === 0) return null;
  return (
    <ScrollBox label="Sources per day">
      <table>
        <Caption>Sources per day (UTC), newest first; days with nothing left out</Caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" className="name">
              Source
            </th>
            <th scope="col">Visitors</th>
            <th scope="col">Visitors who clicked</th>
            <th scope="col">Clicks</th>
            <th scope="col">Click-through rate</th>
            <th scope="col">Conversions</th>
            <th scope="col">Revenue</th>
          </tr>
        </thead>
        {active.map((entry) => (
          <tbody key={entry.day}>
            {entry.sources.map((row, index) => (
              <tr key={row.source}>
                {index === 0 && (
                  <th scope="rowgroup" rowSpan={entry.sources.length} className="day">
                    {entry.day}
                  </th>
                )}
                <th scope="row" className="name">
                  {sourceName(row.source)}
                </th>
                <td>{row.visitors}</td>
                <td>{row.clickers}</td>
                <td>{row.clicks}</td>
                <td>{rate(row.clickers, row.visitors)}</td>
                <td>{row.conversions}</td>
                <td>
                  <Amounts earnings={row} />
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </ScrollBox>
  );
}
