import { Fragment } from 'react';
import type { Earnings } from '../dayCounts/earnings';
import { revenueText } from '../dayCounts/reportNumbers';

/**
 * Revenue (or, with `per`, revenue per click) in each currency, one currency a line, as the terminal
 * table shows it; a space between them keeps the words apart for screen readers and copied text.
 */
export function Amounts({ earnings, per }: { earnings: Pick<Earnings, 'revenueByCurrency'>; per?: number }) {
  const lines = revenueText(earnings, { per, separator: '\n' }).split('\n');
  if (lines.length === 1) return lines[0];
  return lines.map((line, index) => (
    <Fragment key={line}>
      {index > 0 && ' '}
      <span className="amount">{line}</span>
    </Fragment>
  ));
}
