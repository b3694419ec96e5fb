import type { FunnelReport } from '../funnelReport/funnelReport';
import type { Incident } from '../alerts/incidents';
import { amountText, countText, decimalText } from '../lib/numberFormat';
import { dayMs, dayStart, formatMoment } from '../lib/utcDay';
import { bucketsOf, type Bucket, type BucketSize } from './chartBuckets';
import { dateTickLabel, dateTicksFor } from './chartDateTicks';
import { gridlinesFor, labelDigits } from './chartGridlines';
import type { ChartMetric } from './chartMetrics';
import { releaseMarkLabel, type ReleaseMarkOf } from './releaseMarks';
import { Caption, ScrollBox } from './ScrollBox';

/**
 * The chart's drawing: no viewBox, so its labels keep their size at any width. Across, every position is a
 * percentage of the card's width; down, a percentage of the chart's height, which the stylesheet sets (less
 * on a phone, so the chart stays on the first screen). The width and height attributes hold its place from
 * the first paint (no layout shift).
 */
const height = 200;
/** Room above the plot for the marks' symbols and the top line's label, and below it for the dates (percent of the height). */
const plotTop = 15;
const plotBottom = 83;
/** The date labels' baseline. */
const dateBaseline = 97;
/** Coordinates to a hundredth of a percent: enough at any size shown, and a year's bars stay a few KB. */
const at = (value: number) => Math.round(value * 100) / 100;
const percent = (value: number) => `${at(value)}%`;

/** The marks' colours, each at least 4.5:1 on the card's white; the bars', the axis' and the gridlines' are in the stylesheet. */
const colours = { release: '#a14b00', alert: '#a61b1b' };

const bucketWords: Record<BucketSize, string> = { day: 'a bar a day', week: 'a bar a week (Monday to Sunday)', month: 'a bar a month', quarter: 'a bar a quarter' };
const bucketHeads: Record<BucketSize, string> = { day: 'Day', week: 'Week', month: 'Month', quarter: 'Quarter' };

interface Mark {
  key: string;
  day: string;
  label: string;
  kind: 'release' | 'alert';
}

export interface MainChartProps {
  report: FunnelReport;
  metric: ChartMetric;
  releases: readonly ReleaseMarkOf[];
  /** Alert incidents to mark where they opened: those opened in the range (AlertsOverview's inRange). */
  incidents: readonly Incident[];
}

const bucketName = ({ from, to }: Bucket) => (from === to ? from : `${from} to ${to}`);

/**
 * /admin's one main chart (issue 30): the chosen figure over the range, a bar a day, week or month as the
 * range grows (chartBuckets.ts), releases and alert incidents marked where they happened. Drawn on the
 * server as SVG: no script, titled and described for screen readers, its figures in a table below.
 */
export function MainChart({ report, metric, releases, incidents }: MainChartProps) {
  const { size, buckets } = bucketsOf(report.days.map((entry, index) => ({ day: entry.day, value: metric.valueOf(report, index) })));
  const written = (value: number) => (metric.money ? amountText(value, report.currency) : countText(value));
  const values = buckets.map((bucket) => bucket.value ?? 0);
  // Money steps by whole cents, a count by whole numbers.
  const grid = gridlinesFor(Math.min(0, ...values), Math.max(0, ...values), metric.money ? 0.01 : 1);
  const span = grid.top - grid.bottom || 1;
  const top = grid.step > 0 ? grid.top : 1;
  const gridLabel = (value: number) => decimalText(value, labelDigits(grid.step));
  const y = (value: number) => plotTop + ((top - value) / span) * (plotBottom - plotTop);
  const slot = 100 / Math.max(buckets.length, 1);
  const barWidth = Math.max(slot * 0.8, 0.15);
  const ticks = dateTicksFor(report.from, report.to, size);
  const peak = buckets.reduce<Bucket | undefined>((best, bucket) => (bucket.value !== null && (best?.value == null || bucket.value > best.value) ? bucket : best), undefined);
  const total = values.reduce((sum, value) => sum + value, 0);

  const marks: Mark[] = [
    ...releases.map((release) => ({ key: `r${release.stamp}`, day: release.day, label: releaseMarkLabel(release), kind: 'release' as const })),
    ...incidents.map((incident) => ({ key: `a${incident.id}`, day: formatMoment(incident.openedAt).slice(0, 10), label: `Alert: ${incident.summary} (${formatMoment(incident.openedAt)})`, kind: 'alert' as const })),
  ].filter((mark) => mark.day >= report.from && mark.day <= report.to);
  const bucketOf = (day: string) => buckets.findIndex((bucket) => day >= bucket.from && day <= bucket.to);

  const title = `${metric.label}, ${report.from} to ${report.to}`;
  const description = [
    `${bucketWords[size]}.`,
    peak?.value ? `Total ${written(total)}; highest ${written(peak.value)} (${bucketName(peak)}).` : 'Nothing in this range.',
    ...(grid.step > 0 ? [`Lines at ${grid.values.filter((value) => value !== 0).map(gridLabel).join(', ')}.`] : []),
    ...marks.map((mark) => `${mark.label} on ${mark.day}.`),
    'The figures are in the table below the chart.',
  ].join(' ');
  const zero = y(0);
  // Wide enough for the longest label at the stylesheet's .7rem (a digit is about 7 px).
  const axisWidth = Math.max(...grid.values.map((value) => gridLabel(value).length)) * 7 + 8;
  const tickX = (day: string) => {
    const index = bucketOf(day);
    const bucket = buckets[index]!;
    const days = (dayStart(bucket.to) - dayStart(bucket.from)) / dayMs + 1;
    // A day's bar is the day: its tick at the bar's middle; in a longer bar, where the day begins.
    const within = size === 'day' ? 0.5 : (dayStart(day) - dayStart(bucket.from)) / dayMs / days;
    return (index + within) * slot;
  };
  return (
    <>
      <div className="chart-plot">
        {/* The scale's labels in a column of their own, the same height as the chart, so no bar hides one; the description says them. */}
        <svg className="chart-axis" width={axisWidth} height={height} aria-hidden="true">
          {grid.values.map((value) => (
            <text key={value} x="100%" y={percent(y(value))} dx="-4" dy="0.32em" textAnchor="end">
              {gridLabel(value)}
            </text>
          ))}
        </svg>
        <svg className="main-chart" width="100%" height={height} role="img" aria-labelledby="chart-title chart-desc">
          <title id="chart-title">{title}</title>
          <desc id="chart-desc">{description}</desc>
          <defs>
            {/* A release a diamond, an alert a triangle: told apart by shape, not colour alone. */}
            <path id="chart-release" d="M0 0L5 5L0 10L-5 5Z" />
            <path id="chart-alert" d="M-5 0L5 0L0 9Z" />
          </defs>
          {grid.values.map((value) =>
            value === 0 ? null : <line key={value} className="grid" x1="0" y1={percent(y(value))} x2="100%" y2={percent(y(value))} />,
          )}
          {buckets.map((bucket, index) => {
            if (!bucket.value) return null;
            const from = y(Math.max(bucket.value, 0));
            return (
              <rect key={bucket.from} x={percent(index * slot + (slot - barWidth) / 2)} y={percent(from)} width={percent(barWidth)} height={percent(Math.max(Math.abs(y(bucket.value) - zero), 0.5))}>
                <title>{`${bucketName(bucket)}: ${written(bucket.value)}`}</title>
              </rect>
            );
          })}
          <line className="axis" x1="0" y1={percent(zero)} x2="100%" y2={percent(zero)} />
          {ticks.days.map((day) => {
            const x = tickX(day);
            return (
              <g key={day}>
                <line className="axis" x1={percent(x)} y1={percent(plotBottom)} x2={percent(x)} y2={percent(plotBottom + 4)} />
                <text x={percent(x)} y={percent(dateBaseline)} textAnchor={x < 6 ? 'start' : x > 94 ? 'end' : 'middle'}>
                  {dateTickLabel(day, ticks.interval)}
                </text>
              </g>
            );
          })}
          {marks.map((mark) => {
            const index = bucketOf(mark.day);
            if (index < 0) return null;
            const x = percent(index * slot + slot / 2);
            const colour = colours[mark.kind];
            return (
              <g key={mark.key} className={`${mark.kind}-mark`}>
                <title>{`${mark.label} on ${mark.day}`}</title>
                <line x1={x} y1={10} x2={x} y2={percent(plotBottom)} stroke={colour} strokeWidth={1.5} strokeDasharray="4 3" />
                <use href={`#chart-${mark.kind}`} x={x} fill={colour} />
              </g>
            );
          })}
        </svg>
      </div>
      <p className="chart-scale muted">
        <span>{buckets[0]?.from}</span>
        <span>{peak?.value ? `highest ${written(peak.value)}` : 'nothing in this range'}</span>
        <span>{buckets.at(-1)?.to}</span>
      </p>
      {marks.length > 0 && (
        <p className="chart-key muted">
          {marks.some((mark) => mark.kind === 'release') && <span className="release-mark">◆ a release</span>}{' '}
          {marks.some((mark) => mark.kind === 'alert') && <span className="alert-mark">▼ an alert</span>}
        </p>
      )}
      <details>
        <summary>The chart’s figures</summary>
        <ScrollBox label={`${title}, ${bucketWords[size]}`}>
          <table className="figures">
            <Caption>{`${title}, ${bucketWords[size]}`}</Caption>
            <thead>
              <tr>
                <th scope="col">{bucketHeads[size]}</th>
                <th scope="col">{metric.label}</th>
              </tr>
            </thead>
            <tbody>
              {buckets.map((bucket) => (
                <tr key={bucket.from}>
                  <th scope="row">{bucketName(bucket)}</th>
                  <td>{bucket.value === null ? '–' : written(bucket.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </details>
    </>
  );
}
