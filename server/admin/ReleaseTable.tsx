import { formatMoment } from '../lib/utcDay';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { maxReportedReleases, windowDays, type ReleaseComparison } from '../releases/releaseReport';
import { afterWindowText, clickThroughText, earningsPerClickText } from '../releases/releaseText';
import { ColumnHeads } from './ColumnHeads';
import { Caption, ScrollBox } from './ScrollBox';

export const releaseTableCaption = 'Releases (observed, not a controlled test)';

function ReleaseRows({ release, currency }: { release: ReleaseComparison; currency: string }) {
  const active = release.placements.filter(({ before, after }) => before.clicks + after.clicks + before.conversions + after.conversions > 0);
  const after = release.placements[0]?.after;
  return (
    <tbody>
      <tr>
        <th scope="colgroup" colSpan={5} className="name">
          {/* Kept within the screen's width while the table scrolls under it, as a caption is. */}
          <span className="release-head">
            Release {release.stamp}, first served {formatMoment(Date.parse(release.firstServedAt))}
            <span className="muted description">
              {' '}
              {release.note[0]?.toUpperCase()}
              {release.note.slice(1)}. Before: the {windowDays} days before {release.day}; after: {after ? afterWindowText(after) : 'no day after it yet'}.
            </span>
          </span>
        </th>
      </tr>
      {active.length === 0 ? (
        <tr>
          <td colSpan={5}>No clicks in either week.</td>
        </tr>
      ) : (
        active.map(({ placement, before, after: afterWindow }) => (
          <tr key={placement}>
            <th scope="row">{placement}</th>
            <td>{clickThroughText(before)}</td>
            <td>{clickThroughText(afterWindow)}</td>
            <td>{earningsPerClickText(before, currency)}</td>
            <td>{earningsPerClickText(afterWindow, currency)}</td>
          </tr>
        ))
      )}
    </tbody>
  );
}

/**
 * The releases first served in the range (the newest maxReportedReleases), each with its placements'
 * click-through (clicks per page view) and earnings per click in the week before its day and the week
 * from it, with 95% intervals. An observation, said so in its caption: nothing else was held still.
 */
export function ReleaseTable({ releases, currency, from, to }: Pick<FunnelReport, 'releases' | 'currency' | 'from' | 'to'>) {
  const { inRange, compared } = releases;
  if (compared.length === 0) return <p className="muted">No release was first served from {from} to {to}.</p>;
  return (
    <>
      <ScrollBox label={releaseTableCaption}>
        <table>
          <Caption>
            {releaseTableCaption}
            {inRange > compared.length ? `: the newest ${maxReportedReleases} of ${inRange} in this range` : ''}, newest first; 95% intervals in brackets
          </Caption>
          <ColumnHeads columns={['Placement', 'Click-through before', 'Click-through after', 'Earnings per click before', 'Earnings per click after']} />
          {compared.map((release) => (
            <ReleaseRows key={release.stamp} release={release} currency={currency} />
          ))}
        </table>
      </ScrollBox>
      <p className="muted">
        An observation, not a controlled test: everything else that changed in those weeks (the season, a campaign, a network’s offer)
        is in the difference too, and the release’s own day counts after it although it began under the release before. Click-through is a
        placement’s clicks per page view of the whole site; earnings per click are in {currency}, from the conversions of those
        clicks. Where the intervals of before and after overlap, the difference may well be chance. Placements with no click in either
        week are left out.
      </p>
    </>
  );
}
