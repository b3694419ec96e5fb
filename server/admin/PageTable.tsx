import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import { rate } from '../dayCounts/reportNumbers';
import { Caption, ScrollBox } from './ScrollBox';
import { ColumnHeads } from './ColumnHeads';

/** The pages with most views, and the clicks made on them: which page sends visitors on. */
export function PageTable({ pages, from, to }: Pick<FunnelReport, 'pages' | 'from' | 'to'>) {
  return (
    <ScrollBox label="Views and clicks by page">
      <table>
        <Caption>
          Views and clicks by page (the {pages.length === 20 ? '20 with most views' : 'pages viewed'}), {from} to {to}
        </Caption>
        <ColumnHeads columns={['Page', 'Views', 'Visitors', 'Clicks', 'Visitors who clicked', 'Click-through rate']} />
        <tbody>
          {pages.length === 0 ? (
            <tr>
              <td colSpan={6}>No views or clicks in this range.</td>
            </tr>
          ) : (
            pages.map((row) => (
              <tr key={row.page}>
                <th scope="row">{row.page}</th>
                <td>{countText(row.views)}</td>
                <td>{countText(row.visitors)}</td>
                <td>{countText(row.clicks)}</td>
                <td>{countText(row.clickers)}</td>
                <td>{rate(row.clickers, row.visitors)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollBox>
  );
}
