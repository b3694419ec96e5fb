import { Fragment, type ReactNode } from 'react';
import type { Earnings } from '../dayCounts/earnings';
import { revenueText } from '../dayCounts/reportNumbers';
import { ShortAmount } from './ShortFigure';

/** Lines one under the other; a space between them keeps the words apart for screen readers and copied text. */
function AmountLines({ lines }: { lines: { key: string; line: ReactNode }[] }) {
  if (lines.length === 1) return lines[0]!.line;
  return lines.map(({ key, line }, index) => (
    <Fragment key={key}>
      {index > 0 && ' '}
      <span className="amount">{line}</span>
    </Fragment>
  ));
}

/**
 * Revenue (or, with `per`, revenue per click) in each currency, one currency a line, as the terminal
 * table shows it. `short` is for a tight place (the funnel's headline): large amounts as "45.3K USD",
 * the exact amount in their tooltip.
 */
export function Amounts({ earnings, per, short = false }: { earnings: Pick<Earnings, 'revenueByCurrency'>; per?: number; short?: boolean }) {
  const amounts = Object.entries(earnings.revenueByCurrency);
  if (short && amounts.length > 0 && per !== 0) {
    return <AmountLines lines={amounts.map(([currency, amount]) => ({ key: currency, line: <ShortAmount amount={amount / (per ?? 1)} currency={currency} /> }))} />;
  }
  return <AmountLines lines={revenueText(earnings, { per, separator: '\n' }).split('\n').map((line) => ({ key: line, line }))} />;
}
