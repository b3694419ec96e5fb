import type { ReactNode } from 'react';
import type { FunnelReport } from '../funnelReport/funnelReport';
import type { HeadlineFigure, PreviousPeriod } from '../funnelReport/previousPeriod';
import { counted, rate, revenueText } from '../dayCounts/reportNumbers';
import { dayMs, dayStart } from '../lib/utcDay';
import { Amounts } from './Amounts';
import { changeText } from './changeText';
import { ShortAmount, ShortCount } from './ShortFigure';

export interface FunnelSummaryProps extends Pick<FunnelReport, 'all' | 'from' | 'to'> {
  /** The previous period of the same length: each box then says its change (/admin; the digest has its own comparison). */
  previous?: PreviousPeriod;
  /** Spend and profit boxes, once costs are recorded. */
  costs?: FunnelReport['costs'];
  /** Each box a link choosing the main chart's figure (/admin); `chosen` is the one drawn. */
  chartHref?: (figure: HeadlineFigure) => string;
  chosen?: string;
}

interface Step {
  figure: HeadlineFigure;
  value: ReactNode;
  label: string;
  detail: string;
}

/**
 * The range's funnel in four figures: visitors, then visitors who clicked, then conversions, then what
 * they earned; spend and profit after them once costs are recorded. The boxes are narrow (two abreast on
 * a phone, a row on a desk), so large figures are written short, exact in their tooltip. On /admin each
 * box says its change against the previous period and is the link that draws it in the main chart.
 */
export function FunnelSummary({ all, from, to, previous, costs, chartHref, chosen }: FunnelSummaryProps) {
  // A rate of nothing says nothing: left out.
  const of = (text: string, whole: number) => (whole === 0 ? '' : text);
  const steps: Step[] = [
    { figure: 'visitors', value: <ShortCount count={all.viewVisitors} />, label: 'visitors', detail: counted(all.views, 'page view') },
    { figure: 'clicked', value: <ShortCount count={all.visitors} />, label: 'clicked an affiliate link', detail: of(`${rate(all.visitors, all.viewVisitors)} of visitors`, all.viewVisitors) },
    {
      figure: 'conversions',
      value: <ShortCount count={all.conversions} />,
      label: all.conversions === 1 ? 'conversion' : 'conversions',
      detail: of(`${rate(all.conversions, all.clicks)} of ${counted(all.clicks, 'click')}`, all.clicks),
    },
    { figure: 'revenue', value: <Amounts earnings={all} short />, label: 'revenue', detail: of(`${revenueText(all, { per: all.clicks })} per click`, all.clicks * all.conversions) },
  ];
  if (costs?.recorded) {
    const money = (amount: number | null) => (amount === null ? '–' : <ShortAmount amount={amount} currency={costs.currency} />);
    steps.push(
      { figure: 'spend', value: money(costs.all.cost), label: 'spend', detail: '' },
      { figure: 'profit', value: money(costs.all.profit), label: 'profit', detail: costs.all.profit === null ? `no cost in ${costs.currency}` : '' },
    );
  }
  const previousDays = previous && Math.round((dayStart(previous.to) - dayStart(previous.from)) / dayMs) + 1;
  return (
    <ol className="funnel" aria-label={`Funnel, ${from} to ${to}`}>
      {steps.map((step) => {
        const change = previous && changeText(previous.change[step.figure], previousDays!, step.figure !== 'spend');
        const body = (
          <>
            <span className="figure">{step.value}</span> <span className="label">{step.label}</span>{' '}
            {step.detail && <span className="muted">{step.detail}</span>}
            {change && (
              <>
                {' '}
                <span className={`change ${change.tone}`}>{change.text}</span>
              </>
            )}
          </>
        );
        return (
          <li key={step.figure}>
            {chartHref ? (
              <a className={chosen === step.figure ? 'box chosen' : 'box'} href={chartHref(step.figure)} aria-current={chosen === step.figure ? 'true' : undefined}>
                {body}
              </a>
            ) : (
              body
            )}
          </li>
        );
      })}
    </ol>
  );
}
