import type { ReleaseComparison } from '../releases/releaseReport';

/** What a release mark needs: its stamp, the moment it was first served, and that day. */
export type ReleaseMarkOf = Pick<ReleaseComparison, 'stamp' | 'firstServedAt' | 'day'>;

/** "Release 3f9a1b2c4d5e first served 14:02 UTC": the words every mark of a release says, to eyes (a tooltip) and to screen readers. */
export const releaseMarkLabel = (release: ReleaseMarkOf) => `Release ${release.stamp} first served ${release.firstServedAt.slice(11, 16)} UTC`;

/** The releases of each day, newest first as the report lists them. */
export function releasesByDay(releases: readonly ReleaseMarkOf[]): Map<string, ReleaseMarkOf[]> {
  const byDay = new Map<string, ReleaseMarkOf[]>();
  for (const release of releases) byDay.set(release.day, [...(byDay.get(release.day) ?? []), release]);
  return byDay;
}

/** A day's release marks beside its date in a table: a symbol each, named for screen readers and in a tooltip. */
export function ReleaseMarks({ releases }: { releases: readonly ReleaseMarkOf[] | undefined }) {
  if (!releases || releases.length === 0) return null;
  return releases.map((release) => (
    <span key={release.stamp} className="release-mark" role="img" aria-label={releaseMarkLabel(release)} title={releaseMarkLabel(release)}>
      {' ◆'}
    </span>
  ));
}
