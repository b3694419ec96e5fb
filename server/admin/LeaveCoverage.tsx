import type { FunnelReport } from '../funnelReport/funnelReport';
import { counted, rate } from '../dayCounts/reportNumbers';

/** What share of the range's views sent a leave report: what every reach figure (seen, reached, engaged time) rests on. */
export function LeaveCoverage({ all }: Pick<FunnelReport, 'all'>) {
  return (
    <p className="muted coverage">
      {all.leaves === 0
        ? 'No leave report arrived in this range: reach appears once visitors’ browsers send leave reports.'
        : `Reach rests on ${counted(all.leaves, 'leave report')} for ${counted(all.views, 'view')} (${rate(all.leaves, all.views)}).`}
    </p>
  );
}
