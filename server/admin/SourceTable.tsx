import type { FunnelReport } from '../funnelReport/funnelReport';
import { sourceName } from '../dayCounts/reportNumbers';
import { Caption, ScrollBox } from './ScrollBox';
import { otherSourcesName, SourceCells, sourceColumns } from './SourceCells';
import { ColumnHeads } from './ColumnHeads';

/** Per source (what brought the visitor): visitors, clicks, click-through rate, conversions and revenue; the top ones, the rest added up. */
export function SourceTable({ sources, otherSources: others, from, to }: Pick<FunnelReport, 'sources' | 'otherSources' | 'from' | 'to'>) {
  return (
    <>
      <ScrollBox label="Visitors, clicks and conversions by source">
        <table>
          <Caption>
            Visitors, clicks and conversions by source, {from} to {to}
          </Caption>
          <ColumnHeads columns={['Source', ...sourceColumns]} />
          <tbody>
            {sources.length === 0 && !others ? (
              <tr>
                <td colSpan={7}>No visitors, clicks or conversions in this range.</td>
              </tr>
            ) : (
              sources.map((row) => (
                <tr key={row.source}>
                  <th scope="row">{sourceName(row.source)}</th>
                  <SourceCells row={row} />
                </tr>
              ))
            )}
            {others && (
              <tr className="others">
                <th scope="row">{otherSourcesName(others)}</th>
                <SourceCells row={others} />
              </tr>
            )}
          </tbody>
        </table>
      </ScrollBox>
      <p className="muted">
        A source is what brought the visitor: the landing address’s utm_source, else the referring site, else direct. Click-through rate:
        the share of visitors who clicked.
        {sources.some((row) => row.source === '') &&
          ` ${sourceName('')}: a click from a browser without JavaScript, a page reloaded from this site, or a conversion whose click was not found.`}
        {others && (
          <>
            {' '}
            The {sources.length} sources with most visitors are listed and the rest added up; <code>npm run stats -- --json --all-sources</code>{' '}
            lists every one.
          </>
        )}
      </p>
    </>
  );
}
