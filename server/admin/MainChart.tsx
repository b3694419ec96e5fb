import type { FunnelReport } from '../funnelReport/funnelReport';
import type { Incident } from '../alerts/incidents';
import { amountText, countText } from '../lib/numberFormat';
import { formatMoment } from '../lib/utcDay';
import { bucketsOf, type Bucket, type BucketSize } from './chartBuckets';
import type { ChartMetric } from './chartMetrics';
import { releaseMarkLabel, type ReleaseMarkOf } from './releaseMarks';
import { Caption, ScrollBox } from './ScrollBox';

/**
 * The chart's drawing size: its viewBox, and its width and height attributes, so the browser keeps its
 * place from the first paint (no layout shift) and CSS scales it to the card's width.
 */
const width = 800;
const height = 200;
/** Room above the bars for the marks' symbols. */
const top = 14;
/** Coordinates to a hundredth of a unit: enough at any size shown, and a year's bars stay a few KB. */
const at = (value: number) => Math.round(value * 100) / 100;

/** Each at least 4.5:1 on the card's white (the zero line is decoration beside the bars). */
const colours = { bar: '#13315c', release: '#a14b00', alert: '#a61b1b', axis: '#7b8794' };

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
  const high = Math.max(0, ...values);
  const low = Math.min(0, ...values);
  const span = high - low || 1;
  const y = (value: number) => top + ((high - value) / span) * (height - top);
  const slot = width / Math.max(buckets.length, 1);
  const barWidth = Math.max(slot * 0.8, 1);
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
    ...marks.map((mark) => `${mark.label} on ${mark.day}.`),
    'The figures are in the table below the chart.',
  ].join(' ');
  const zero = y(0);
  return (
    <>
      <svg className="main-chart" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-labelledby="chart-title chart-desc">
        <title id="chart-title">{title}</title>
        <desc id="chart-desc">{description}</desc>
        {buckets.map((bucket, index) => {
          if (!bucket.value) return null;
          const from = y(Math.max(bucket.value, 0));
          return (
            <rect key={bucket.from} x={at(index * slot + (slot - barWidth) / 2)} y={at(from)} width={at(barWidth)} height={at(Math.max(Math.abs(y(bucket.value) - zero), 1))} fill={colours.bar}>
              <title>{`${bucketName(bucket)}: ${written(bucket.value)}`}</title>
            </rect>
          );
        })}
        <line x1={0} y1={at(zero)} x2={width} y2={at(zero)} stroke={colours.axis} strokeWidth={1} />
        {marks.map((mark) => {
          const index = bucketOf(mark.day);
          if (index < 0) return null;
          const x = at(index * slot + slot / 2);
          const colour = colours[mark.kind];
          // A release a diamond, an alert a triangle: told apart by shape, not colour alone.
          const symbol = mark.kind === 'release' ? `M${x} 0 L${at(x + 6)} 6 L${x} 12 L${at(x - 6)} 6 Z` : `M${at(x - 6)} 0 L${at(x + 6)} 0 L${x} 11 Z`;
          return (
            <g key={mark.key} className={`${mark.kind}-mark`}>
              <title>{`${mark.label} on ${mark.day}`}</title>
              <line x1={x} y1={12} x2={x} y2={height} stroke={colour} strokeWidth={1.5} strokeDasharray="4 3" />
              <path d={symbol} fill={colour} />
            </g>
          );
        })}
      </svg>
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
