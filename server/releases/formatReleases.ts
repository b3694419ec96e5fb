import { formatMoment } from '../lib/utcDay';
import { maxReportedReleases, windowDays, type ReleasesReport } from './releaseReport';
import { afterWindowText, clickThroughText, earningsPerClickText } from './releaseText';
import { table } from '../lib/textTable';

/**
 * The releases as npm run stats prints them, briefly: a line per release (stamp, time, note), and the
 * placements clicked in either week with click-through and earnings per click before and after, as
 * /admin writes them, in the terminal table's columns (server/lib/textTable.ts).
 */
export function releaseLines({ releases, currency }: { releases: ReleasesReport; currency: string }): string[] {
  const { inRange, compared } = releases;
  if (compared.length === 0) return ['No release was first served in this range.'];
  const lines: string[] = [];
  if (inRange > compared.length) lines.push(`The newest ${maxReportedReleases} of ${inRange} releases in this range.`);
  for (const release of compared) {
    lines.push(`${release.stamp}  ${formatMoment(Date.parse(release.firstServedAt))}  ${release.note}`);
    const active = release.placements.filter(({ before, after }) => before.clicks + after.clicks + before.conversions + after.conversions > 0);
    const after = release.placements[0]?.after;
    if (after && after.days < windowDays) lines.push(`  after: ${afterWindowText(after)}`);
    if (active.length === 0) {
      lines.push('  no clicks in either week');
      continue;
    }
    const rows = [['  Placement', 'CTR before', 'CTR after', 'EPC before', 'EPC after']];
    for (const { placement, before, after: afterWindow } of active) {
      rows.push([`  ${placement}`, clickThroughText(before), clickThroughText(afterWindow), earningsPerClickText(before, currency), earningsPerClickText(afterWindow, currency)]);
    }
    lines.push(table(rows, 1));
  }
  lines.push(
    `Before: the ${windowDays} days before a release's day; after: the ${windowDays} days from it. CTR: clicks per`,
    'page view; EPC: earnings per click. 95% intervals in brackets. An observation, not a',
    'controlled test: whatever else changed in those weeks is in the difference too.',
  );
  return lines;
}
