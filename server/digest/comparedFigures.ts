import type { FunnelReport } from '../funnelReport/funnelReport';
import { amountText } from '../dayCounts/reportNumbers';
import { countText, signedPercentText } from '../lib/numberFormat';

/** One line of the digest's comparison: a figure this week, the week before, and the change, as written in both parts. */
export interface ComparedFigure {
  label: string;
  current: string;
  previous: string;
  change: string;
}

/**
 * The change from previous to current as a whole percentage with its sign ("+12%", "-8%", "0%"); "new"
 * when there was nothing before and something now, "–" when both are nothing or either is not a number.
 */
export function percentChange(current: number, previous: number): string {
  if (!Number.isFinite(current) || !Number.isFinite(previous)) return '–';
  if (previous === 0) return current === 0 ? '–' : 'new';
  return signedPercentText((current - previous) / previous);
}

/**
 * The week's funnel against the week before: visitors, visitors who clicked, conversions, revenue and
 * earnings per click. Money is compared in this week's main currency (the report's `currency`), the
 * only one both weeks can be read in without an exchange rate; other currencies are named beside it.
 */
export function comparedFigures(current: FunnelReport, previous: FunnelReport): ComparedFigure[] {
  const { currency } = current;
  const revenueOf = (report: FunnelReport) => report.all.revenueByCurrency[currency] ?? 0;
  const othersOf = (report: FunnelReport) =>
    Object.entries(report.all.revenueByCurrency)
      .filter(([code]) => code !== currency)
      .map(([code, amount]) => ` + ${amountText(amount, code)}`)
      .join('');
  const perClick = (report: FunnelReport) => (report.all.clicks === 0 ? Number.NaN : revenueOf(report) / report.all.clicks);
  const count = (label: string, of: (report: FunnelReport) => number): ComparedFigure => ({
    label,
    current: countText(of(current)),
    previous: countText(of(previous)),
    change: percentChange(of(current), of(previous)),
  });
  // The currency is named in the label, so the cells stay narrow enough for a phone's width.
  const money = (amount: number) => (Number.isNaN(amount) ? '–' : amountText(amount, currency).replace(` ${currency}`, ''));
  return [
    count('Visitors', (report) => report.all.viewVisitors),
    count('Visitors who clicked', (report) => report.all.visitors),
    count('Clicks', (report) => report.all.clicks),
    count('Conversions', (report) => report.all.conversions),
    {
      label: `Revenue (${currency})`,
      current: money(revenueOf(current)) + othersOf(current),
      previous: money(revenueOf(previous)) + othersOf(previous),
      change: percentChange(revenueOf(current), revenueOf(previous)),
    },
    {
      label: `Earnings per click (${currency})`,
      current: money(perClick(current)),
      previous: money(perClick(previous)),
      change: percentChange(perClick(current), perClick(previous)),
    },
  ];
}
