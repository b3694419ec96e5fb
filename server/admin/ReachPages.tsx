import type { FunnelReport } from '../funnelReport/funnelReport';
import { counted } from '../dayCounts/reportNumbers';
import { secondsText } from '../funnelReport/formatReach';
import { percentText } from '../lib/numberFormat';
import { ColumnHeads } from './ColumnHeads';
import { LeaveCoverage } from './LeaveCoverage';

type PageRow = FunnelReport['pages'][number];

/**
 * A share as a bar: the page's CSP allows no style attribute, so the width is one of the stylesheet's
 * 101 classes (adminStyles.ts), the same whole percent the text beside it shows.
 */
function ReachBar({ reached }: { reached: number }) {
  return (
    <span className="reach-bar" aria-hidden="true">
      <span className={`reach-${Math.round(Math.min(Math.max(reached, 0), 1) * 100)}`} />
    </span>
  );
}

/** One page's reach curve (its sections in page order, the share of its reporting visitors who got to each) and its engaged time. */
function PageReach({ row, headingId }: { row: PageRow; headingId: string }) {
  return (
    <section className="reach-page" aria-labelledby={headingId}>
      <h3 id={headingId}>{row.page}</h3>
      {row.leaves === 0 ? (
        <p className="muted">No leave report from this page in this range.</p>
      ) : (
        <>
          <p className="muted">
            {counted(row.leaves, 'visitor')} reported leaving it. Engaged time: median {secondsText(row.engagedSeconds.median)}, upper quartile{' '}
            {secondsText(row.engagedSeconds.p75)}.
          </p>
          {row.sections.length > 0 && (
            <table className="reach">
              <caption className="visually-hidden">
                Reach of {row.page}: the share of its {counted(row.leaves, 'visitor')} who reached each section
              </caption>
              <ColumnHeads columns={['Section', 'Reached']} />
              <tbody>
                {row.sections.map((section) => (
                  <tr key={section.id}>
                    <th scope="row">{section.id}</th>
                    <td>
                      <span className="reach-figure">{percentText(section.reached, 0)}</span>
                      <ReachBar reached={section.reached} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

/** Per page (the page table's), how far down its visitors got and how long they read; first, what share of views that rests on. */
export function ReachPages({ pages, all }: Pick<FunnelReport, 'pages' | 'all'>) {
  return (
    <>
      <LeaveCoverage all={all} />
      {all.leaves > 0 && (
        <>
          <div className="reach-pages">
            {pages.map((row, index) => (
              <PageReach key={row.page} row={row} headingId={`reach-page-${index + 1}`} />
            ))}
          </div>
          <p className="muted">
            Reached: the share of the visitors who reported leaving the page that got to the section. Engaged time: seconds the page was
            visible and the visitor active, per view.
          </p>
        </>
      )}
    </>
  );
}
