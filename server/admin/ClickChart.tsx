import type { FunnelReport } from '../funnelReport/funnelReport';
import { countText } from '../lib/numberFormat';
import { releaseMarkLabel, type ReleaseMarkOf } from './releaseMarks';

/** Close to the size a chart is shown at, so its 10-unit labels read as about 10 px. */
const width = 300;
const height = 96;
const axisGap = 14;
/** At most this many bars: past it a bar stands for several days, so a decade's chart stays a few KB. */
const maxBars = 92;
/**
 * Coordinates to a hundredth of a unit, a thirtieth of a pixel at the size shown: a year's bars at full
 * precision ("0.32608695652173914") weighed more than the grouping of every figure on the page added.
 */
const at = (value: number) => Math.round(value * 100) / 100;

export interface ClickChartProps {
  placement: string;
  days: FunnelReport['days'];
  /** Releases to mark on the bars of their days (a dashed line and a tooltip; the summary names them). */
  releases?: readonly ReleaseMarkOf[];
}

/**
 * A bar per day of one placement's clicks (per few days, over a long range), drawn on the server as SVG:
 * nothing for the browser to run, and crisp at any size. Screen readers get a one-sentence summary; the
 * numbers are in the tables.
 */
export function ClickChart({ placement, days, releases = [] }: ClickChartProps) {
  const counts = days.map((entry) => entry.placements[placement]?.clicks ?? 0);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const peak = Math.max(...counts, 0);
  const peakDay = days[counts.indexOf(peak)]?.day;
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const dayIndex = new Map(days.map((entry, index) => [entry.day, index]));
  const marked = releases.filter((release) => dayIndex.has(release.day));
  const releaseWords = marked.length === 0 ? '' : `; ${marked.map((release) => `${releaseMarkLabel(release)} on ${release.day}`).join('; ')}`;
  const summary =
    (total === 0
      ? `${placement}: no clicks from ${first} to ${last}`
      : `${placement}: ${countText(total)} clicks from ${first} to ${last}, most on ${peakDay} (${countText(peak)})`) + releaseWords;
  const daysPerBar = Math.max(1, Math.ceil(counts.length / maxBars));
  const bars = Array.from({ length: Math.ceil(counts.length / daysPerBar) }, (_, bar) => {
    const start = bar * daysPerBar;
    const end = Math.min(start + daysPerBar, counts.length) - 1;
    const label = start === end ? days[start]!.day : `${days[start]!.day} to ${days[end]!.day}`;
    return { label, count: counts.slice(start, end + 1).reduce((sum, count) => sum + count, 0) };
  });
  const barPeak = Math.max(...bars.map((bar) => bar.count), 0);
  const slot = width / Math.max(bars.length, 1);
  const barWidth = Math.max(slot * 0.8, 1);
  const plotHeight = height - axisGap;
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
      <title>{summary}</title>
      <line x1={0} y1={plotHeight} x2={width} y2={plotHeight} stroke="#9aa5b1" strokeWidth={1} />
      {bars.map(({ label, count }, index) => {
        if (count === 0) return null;
        const barHeight = Math.max((count / barPeak) * (plotHeight - 12), 1);
        return (
          <rect key={label} x={at(index * slot + (slot - barWidth) / 2)} y={at(plotHeight - barHeight)} width={at(barWidth)} height={at(barHeight)} fill="#13315c">
            <title>{`${label}: ${countText(count)}`}</title>
          </rect>
        );
      })}
      {marked.map((release) => {
        const x = at(Math.floor(dayIndex.get(release.day)! / daysPerBar) * slot + slot / 2);
        return (
          <g key={release.stamp} className="release-mark">
            <title>{`${releaseMarkLabel(release)} on ${release.day}`}</title>
            <line x1={x} y1={12} x2={x} y2={plotHeight} stroke="#a14b00" strokeWidth={1} strokeDasharray="3 2" />
            <path d={`M${at(x - 4)} 12 L${at(x + 4)} 12 L${x} 18 Z`} fill="#a14b00" />
          </g>
        );
      })}
      {barPeak > 0 && (
        <text x={0} y={9} fontSize={10} fill="#3e4c59">
          {daysPerBar === 1 ? `peak ${countText(barPeak)}` : `peak ${countText(barPeak)} in ${daysPerBar} days`}
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
