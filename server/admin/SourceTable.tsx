import type { FunnelReport } from '../funnelReport/funnelReport';
import { rate, sourceName } from '../funnelReport/reportNumbers';
import { Amounts } from './Amounts';
import { Caption, ScrollBox } from './ScrollBox';

/** Per source (what brought the visitor): visitors, clicks, click-through rate, conversions and revenue. */
export function SourceTable({ report }: { report: FunnelReport }) {
  return (
    <>
      <ScrollBox label="Visitors, clicks and conversions by source">
        <table>
          <Caption>
            Visitors, clicks and conversions by source, {report.from} to {report.to}
          </Caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Visitors</th>
              <th scope="col">Visitors who clicked</th>
              <th scope="col">Clicks</th>
              <th scope="col">Click-through rate</th>
              <th scope="col">Conversions</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {report.sources.length === 0 ? (
              <tr>
                <td colSpan={7}>No visitors, clicks or conversions in this range.</td>
              </tr>
            ) : (
              report.sources.map((row) => (
                <tr key={row.source}>
                  <th scope="row">{sourceName(row.source)}</th>
                  <td>{row.visitors}</td>
                  <td>{row.clickers}</td>
                  <td>{row.clicks}</td>
                  <td>{rate(row.clickers, row.visitors)}</td>
                  <td>{row.conversions}</td>
                  <td>
                    <Amounts earnings={row} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollBox>
      <p className="muted">
        A source is what brought the visitor: the landing address’s utm_source, else the referring site, else direct. Click-through rate:
        the share of visitors who clicked.
        {report.sources.some((row) => row.source === '') &&
          ` ${sourceName('')}: a click from a browser without JavaScript, a page reloaded from this site, or a conversion whose click was not found.`}
      </p>
    </>
  );
}
