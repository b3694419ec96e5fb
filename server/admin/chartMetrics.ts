import type { FunnelReport } from '../funnelReport/funnelReport';

/*
 * The figures /admin's main chart can draw, each chosen by a plain link (?metric=…, kept with the range):
 * the page runs no script. The headline's figures first, then each placement's clicks, which the page
 * drew as six small charts before issue 30.
 */

export interface ChartMetric {
  /** The ?metric= value. */
  key: string;
  /** What the link and the chart's title call it. */
  label: string;
  /** Money in the report's currency (drawn and written as an amount), else a count. */
  money: boolean;
  /** Each day's value; null where nothing is known (a day without a recorded cost). */
  valueOf: (report: FunnelReport, index: number) => number | null;
}

/** The metric shown when none (or an unknown one) is asked for. */
export const defaultChartMetric = 'visitors';

const placementPrefix = 'clicks-';

/** The metrics a report can draw: spend and profit only once costs are recorded, a placement's clicks for each placement it lists. */
export function chartMetricsOf(report: FunnelReport): ChartMetric[] {
  const day = (report: FunnelReport, index: number) => report.days[index]!.all;
  const costDay = (report: FunnelReport, index: number) => report.costs.days[index];
  return [
    { key: 'visitors', label: 'Visitors', money: false, valueOf: (r, i) => day(r, i).viewVisitors },
    { key: 'clicked', label: 'Visitors who clicked', money: false, valueOf: (r, i) => day(r, i).visitors },
    { key: 'clicks', label: 'Clicks', money: false, valueOf: (r, i) => day(r, i).clicks },
    { key: 'conversions', label: 'Conversions', money: false, valueOf: (r, i) => day(r, i).conversions },
    { key: 'revenue', label: `Revenue (${report.currency})`, money: true, valueOf: (r, i) => day(r, i).revenue },
    ...(report.costs.recorded
      ? [
          { key: 'spend', label: `Spend (${report.currency})`, money: true, valueOf: (r: FunnelReport, i: number) => costDay(r, i)?.cost ?? null },
          { key: 'profit', label: `Profit (${report.currency})`, money: true, valueOf: (r: FunnelReport, i: number) => costDay(r, i)?.profit ?? null },
        ]
      : []),
    ...report.totals.map(({ placement }) => ({
      key: `${placementPrefix}${placement}`,
      label: `${placement} clicks`,
      money: false,
      valueOf: (r: FunnelReport, i: number) => r.days[i]!.placements[placement]?.clicks ?? 0,
    })),
  ];
}

/**
 * The metric a query asks for among the report's, or the default with a note saying why: an unknown or
 * repeated ?metric= is never an error page, only a chart of visitors and a sentence.
 */
export function chartMetricFor(asked: unknown, report: FunnelReport): { metric: ChartMetric; note?: string } {
  const metrics = chartMetricsOf(report);
  const fallback = metrics.find((metric) => metric.key === defaultChartMetric)!;
  if (asked === undefined || asked === '') return { metric: fallback };
  const found = typeof asked === 'string' ? metrics.find((metric) => metric.key === asked) : undefined;
  if (found) return { metric: found };
  const shown = typeof asked === 'string' ? `"${asked.slice(0, 40)}"` : 'several metrics';
  return { metric: fallback, note: `The chart cannot show ${shown}: showing visitors instead. Pick one of the links above it.` };
}
