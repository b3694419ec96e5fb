import { padEndTo, padStartTo, terminalWidth } from './terminalWidth';

/** How the terminal's tables line up (npm run stats, the digest's text part). */
export type Align = 'left' | 'right';

/**
 * Columns two spaces apart, measured as a terminal shows them (a CJK character or an emoji two columns,
 * a combining mark none: terminalWidth.ts): the first `textColumns` left-aligned, numbers after them right-aligned,
 * unless `align` says otherwise. A cell of several lines (revenue in several currencies) continues on
 * lines of its own below its row.
 */
export function table(rows: string[][], textColumns: number, align: Align[] = []): string {
  const lines = rows.flatMap((row) => {
    const height = Math.max(...row.map((cell) => cell.split('\n').length));
    return Array.from({ length: height }, (_, line) => row.map((cell) => cell.split('\n')[line] ?? ''));
  });
  const widths = lines[0]?.map((_, column) => Math.max(...lines.map((line) => terminalWidth(line[column] ?? '')))) ?? [];
  const alignOf = (column: number) => align[column] ?? (column < textColumns ? 'left' : 'right');
  return lines
    .map((line) =>
      line
        .map((cell, column) => (alignOf(column) === 'left' ? padEndTo(cell, widths[column] ?? 0) : padStartTo(cell, widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
