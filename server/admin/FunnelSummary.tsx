import type { FunnelReport } from '../funnelReport/funnelReport';
import { counted, rate, revenueText } from '../dayCounts/reportNumbers';
import { Amounts } from './Amounts';
import { ShortCount } from './ShortFigure';

/**
 * The range's funnel in four figures: visitors, then visitors who clicked, then conversions, then what they earned.
 * The boxes are narrow (a phone's width, four abreast on a desk), so large figures are written short, exact in their tooltip.
 */
export function FunnelSummary({ all, from, to }: Pick<FunnelReport, 'all' | 'from' | 'to'>) {
  // A rate of nothing says nothing: left out.
  const of = (text: string, whole: number) => (whole === 0 ? '' : text);
  const steps = [
    { figure: <ShortCount count={all.viewVisitors} />, label: 'visitors', detail: counted(all.views, 'page view') },
    { figure: <ShortCount count={all.visitors} />, label: 'clicked an affiliate link', detail: of(`${rate(all.visitors, all.viewVisitors)} of visitors`, all.viewVisitors) },
    {
      figure: <ShortCount count={all.conversions} />,
      label: all.conversions === 1 ? 'conversion' : 'conversions',
      detail: of(`${rate(all.conversions, all.clicks)} of ${counted(all.clicks, 'click')}`, all.clicks),
    },
    { figure: <Amounts earnings={all} short />, label: 'revenue', detail: of(`${revenueText(all, { per: all.clicks })} per click`, all.clicks * all.conversions) },
  ];
  return (
    <ol className="funnel" aria-label={`Funnel, ${from} to ${to}`}>
      {steps.map((step) => (
        <li key={step.label}>
          <span className="figure">{step.figure}</span> <span className="label">{step.label}</span>{' '}
          {step.detail && <span className="muted">{step.detail}</span>}
        </li>
      ))}
    </ol>
  );
}
