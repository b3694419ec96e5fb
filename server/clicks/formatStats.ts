import { share, type ClickStats } from './clickStats';

/** Left-aligns the first `textColumns` columns and right-aligns the numbers after them, two spaces apart. */
function table(rows: string[][], textColumns: number): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column < textColumns ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The report as the terminal table `npm run stats` prints: clicks per placement per day, then totals. */
export function formatStatsTable(report: ClickStats): string {
  const dayCount = report.days.length;
  const lines = [`Affiliate clicks, ${report.from} to ${report.to} (UTC, ${dayCount} day${dayCount === 1 ? '' : 's'})`, ''];

  const dayRows: string[][] = [['Day', 'Placement', 'Clicks', 'Visitors']];
  for (const entry of report.days.toReversed()) {
    const counted = Object.entries(entry.placements).filter(([, count]) => count.clicks > 0);
    counted.forEach(([placement, count], index) => {
      dayRows.push([index === 0 ? entry.day : '', placement, String(count.clicks), String(count.visitors)]);
    });
    if (counted.length > 1) dayRows.push(['', 'all placements', String(entry.all.clicks), String(entry.all.visitors)]);
  }
  if (dayRows.length === 1) lines.push('No clicks in this range.');
  else lines.push(table(dayRows, 2), '(newest first; days without clicks are left out)');

  lines.push('', 'Totals by placement', '');
  const totalRows: string[][] = [['Placement', 'Clicks', 'Visitors', 'Share']];
  for (const row of report.totals) totalRows.push([row.placement, String(row.clicks), String(row.visitors), share(row.clicks, report.all.clicks)]);
  totalRows.push(['all placements', String(report.all.clicks), String(report.all.visitors), share(report.all.clicks, report.all.clicks)]);
  lines.push(
    table(totalRows, 1),
    '',
    'Visitors are unique per day: one who comes back on another day is counted again.',
  );
  return `${lines.join('\n')}\n`;
}

/** Placement names are plain words (shared/affiliate.ts); a retired odd one is quoted as RFC 4180 says. */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** One row per day and placement, zeros included, so a spreadsheet can pivot it as it likes. */
export function formatStatsCsv(report: ClickStats): string {
  const rows = ['day,placement,clicks,visitors'];
  for (const entry of report.days) {
    for (const [placement, count] of Object.entries(entry.placements)) {
      rows.push(`${entry.day},${csvField(placement)},${count.clicks},${count.visitors}`);
    }
  }
  return `${rows.join('\n')}\n`;
}

export function formatStatsJson(report: ClickStats): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
