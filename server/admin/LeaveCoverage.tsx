import type { FunnelReport } from '../funnelReport/funnelReport';
import { leaveCoverageLine } from '../funnelReport/formatReach';

/** What share of the range's views sent a leave report: what every reach figure (seen, reached, engaged time) rests on. */
export function LeaveCoverage({ all }: Pick<FunnelReport, 'all'>) {
  return <p className="muted coverage">{leaveCoverageLine({ all })}</p>;
}
