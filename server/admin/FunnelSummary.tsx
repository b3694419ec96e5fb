import type { ClickStats } from '../clicks/clickStats';
import { counted, rate, revenueText } from '../clicks/reportNumbers';
import { Amounts } from './Amounts';

/** The range's funnel in four figures: visitors, then visitors who clicked, then conversions, then what they earned. */
export function FunnelSummary({ report }: { report: ClickStats }) {
  const { all } = report;
  const steps = [
    { figure: String(all.viewVisitors), label: 'visitors', detail: `${counted(all.views, 'page view')}` },
    { figure: String(all.visitors), label: 'clicked an affiliate link', detail: `${rate(all.visitors, all.viewVisitors)} of visitors` },
    { figure: String(all.conversions), label: all.conversions === 1 ? 'conversion' : 'conversions', detail: `${rate(all.conversions, all.clicks)} of ${counted(all.clicks, 'click')}` },
    { figure: <Amounts earnings={all} />, label: 'revenue', detail: `${revenueText(all, { per: all.clicks })} per click` },
  ];
  return (
    <ol className="funnel" aria-label={`Funnel, ${report.from} to ${report.to}`}>
      {steps.map((step) => (
        <li key={step.label}>
          <span className="figure">{step.figure}</span> <span className="label">{step.label}</span> <span className="muted">{step.detail}</span>
        </li>
      ))}
    </ol>
  );
}
