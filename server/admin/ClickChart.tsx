import type { FunnelReport } from '../funnelReport/funnelReport';

/** Close to the size a chart is shown at, so its 10-unit labels read as about 10 px. */
const width = 300;
const height = 96;
const axisGap = 14;

export interface ClickChartProps {
  placement: string;
  days: FunnelReport['days'];
}

/**
 * A bar per day of one placement's clicks, drawn on the server as SVG: nothing for the browser to run,
 * and crisp at any size. Screen readers get a one-sentence summary; the numbers are in the tables.
 */
export function ClickChart({ placement, days }: ClickChartProps) {
  const counts = days.map((entry) => entry.placements[placement]?.clicks ?? 0);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const peak = Math.max(...counts, 0);
  const peakDay = days[counts.indexOf(peak)]?.day;
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const summary =
    total === 0
      ? `${placement}: no clicks from ${first} to ${last}`
      : `${placement}: ${total} clicks from ${first} to ${last}, most on ${peakDay} (${peak})`;
  const slot = width / Math.max(counts.length, 1);
  const barWidth = Math.max(slot * 0.8, 1);
  const plotHeight = height - axisGap;
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
      <title>{summary}</title>
      <line x1={0} y1={plotHeight} x2={width} y2={plotHeight} stroke="#9aa5b1" strokeWidth={1} />
      {counts.map((count, index) => {
        if (count === 0) return null;
        const barHeight = Math.max((count / peak) * (plotHeight - 12), 1);
        return (
          <rect key={days[index]?.day} x={index * slot + (slot - barWidth) / 2} y={plotHeight - barHeight} width={barWidth} height={barHeight} fill="#13315c">
            <title>{`${days[index]?.day}: ${count}`}</title>
          </rect>
        );
      })}
      {peak > 0 && (
        <text x={0} y={9} fontSize={10} fill="#3e4c59">
          {`peak ${peak}`}
        </text>
      )}
      <text x={0} y={height - 3} fontSize={10} fill="#3e4c59">
        {first}
      </text>
      <text x={width} y={height - 3} fontSize={10} fill="#3e4c59" textAnchor="end">
        {last}
      </text>
    </svg>
  );
}
