import type { ReactNode } from 'react';
import { countText } from '../lib/numberFormat';
import { share } from '../dayCounts/reportNumbers';

/** How many rows a breakdown card shows before its "all of them" fold. */
export const topRowsShown = 5;

/**
 * A breakdown card's first rows (issue 30): a short list of the top names and one figure with its share,
 * readable at a phone's width, then the whole table folded behind a <details>. A list, not a second
 * table, so each row is still one table's row for whoever reads the figures.
 */
export function TopRows({ rows, unit, total, all, summary }: { rows: { name: string; count: number }[]; unit: string; total: number; all: ReactNode; summary: string }) {
  return (
    <>
      {rows.length > 0 && (
        <ol className="top-rows">
          {rows.slice(0, topRowsShown).map((row) => (
            <li key={row.name}>
              <span className="top-name">{row.name}</span>{' '}
              <span className="top-figure">
                {countText(row.count)} {unit} <span className="muted">{share(row.count, total)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <details>
        <summary>{summary}</summary>
        {all}
      </details>
    </>
  );
}
