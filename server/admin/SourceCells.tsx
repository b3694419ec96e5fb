import type { OtherSources, SourceCount } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import { counted, rate } from '../dayCounts/reportNumbers';
import { Amounts } from './Amounts';

/** The column headings after a source's name, in the order SourceCells fills them. */
export const sourceColumns = ['Visitors', 'Visitors who clicked', 'Clicks', 'Click-through rate', 'Conversions', 'Revenue'];

/** A source's figures (or the other sources' added up): the cells after its name, in sourceColumns' order. */
export function SourceCells({ row }: { row: SourceCount | OtherSources }) {
  return (
    <>
      <td>{countText(row.visitors)}</td>
      <td>{countText(row.clickers)}</td>
      <td>{countText(row.clicks)}</td>
      <td>{rate(row.clickers, row.visitors)}</td>
      <td>{countText(row.conversions)}</td>
      <td>
        <Amounts earnings={row} />
      </td>
    </>
  );
}

/** The row name of the sources past the listed ones. */
export const otherSourcesName = (others: OtherSources) => counted(others.sourceCount, 'other source');
