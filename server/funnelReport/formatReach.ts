import type { FunnelReport } from './funnelReport';
import { amountText, counted, rate } from '../dayCounts/reportNumbers';
import { countText, decimalText, percentText } from '../lib/numberFormat';
import { csvField } from '../lib/csvField';
import { table } from '../lib/textTable';

/** How `npm run stats` and the digest write the reach figures (docs/reach.md); /admin has its own tables in server/admin/, with these words. */

/** What share of the range's views sent a leave report: what the reach figures rest on. */
export function leaveCoverageLine({ all }: Pick<FunnelReport, 'all'>): string {
  if (all.leaves === 0) return 'No leave report in this range: reach appears once visitors’ browsers send them.';
  return `Reach rests on ${counted(all.leaves, 'leave report')} for ${counted(all.views, 'view')} (${rate(all.leaves, all.views)}).`;
}

/** Seconds as "42 s" or "3 min 5 s"; "–" for none. */
export function secondsText(seconds: number | null): string {
  if (seconds === null) return '–';
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min${whole % 60 === 0 ? '' : ` ${whole % 60} s`}`;
}

/** Per placement: who saw it, who of them clicked, and what a thousand who saw it earned. */
export function placementReachLines({ all, totals, currency }: Pick<FunnelReport, 'all' | 'totals' | 'currency'>): string[] {
  const rows: string[][] = [['Placement', 'Saw', 'Clicked', 'CTR seen', 'Conv./1k saw', 'Revenue/1k saw']];
  for (const total of totals) {
    if (total.seen === 0 && total.clicks === 0) continue;
    rows.push([
      total.placement,
      countText(total.seen),
      countText(total.seenClickers),
      rate(total.seenClickers, total.seen),
      total.conversionsPerThousandSeen === null ? '–' : decimalText(total.conversionsPerThousandSeen, 1),
      total.revenuePerThousandSeen === null ? '–' : amountText(total.revenuePerThousandSeen, currency),
    ]);
  }
  if (rows.length === 1) return [leaveCoverageLine({ all })];
  return [
    leaveCoverageLine({ all }),
    table(rows, 1),
    'Saw: visitors with half of it in view for a second. Clicked: of those, who followed it.',
    `Per 1k saw: per thousand visitors who saw it; revenue in ${currency}.`,
  ];
}

/** Per page: its reach curve (the share of its reporting visitors who got to each section) and engaged time. */
export function pageReachLines({ pages }: Pick<FunnelReport, 'pages'>): string[] {
  const reported = pages.filter((page) => page.leaves > 0);
  if (reported.length === 0) return ['No page has a leave report in this range.'];
  const lines: string[] = [];
  for (const page of reported) {
    // Two lines, so a long path and long times still fit a terminal's 90 columns.
    lines.push(
      `${page.page}: ${counted(page.leaves, 'visitor')} reported`,
      `  engaged time: median ${secondsText(page.engagedSeconds.median)}, upper quartile ${secondsText(page.engagedSeconds.p75)}`,
    );
    lines.push(table([['  Section', 'Reached', ''], ...page.sections.map((section) => [`  ${section.id}`, percentText(section.reached, 0), bar(section.reached)])], 1, ['left', 'right', 'left']));
  }
  return lines;
}

/** A share as a bar of up to 20 characters, for the terminal. */
const bar = (share: number) => '█'.repeat(Math.round(share * 20));

/**
 * The reach as CSV, one row per page section and per placement over the range (`npm run stats -- --csv
 * --reach`): `kind` says which, and the columns that do not apply to it are empty.
 */
export function formatReachCsv({ pages, totals }: Pick<FunnelReport, 'pages' | 'totals'>): string {
  const rows = ['kind,page,name,visitors,reached,seen,seen_clickers,seen_click_through,conversions_per_1000_seen,revenue_per_1000_seen,engaged_median_seconds,engaged_p75_seconds'];
  const field = (value: number | null) => (value === null ? '' : String(value));
  for (const page of pages) {
    if (page.leaves === 0) continue;
    rows.push(`page,${csvField(page.page)},,${page.leaves},,,,,,,${field(page.engagedSeconds.median)},${field(page.engagedSeconds.p75)}`);
    for (const section of page.sections) rows.push(`section,${csvField(page.page)},${csvField(section.id)},${page.leaves},${section.reached},,,,,,,`);
  }
  for (const total of totals) {
    rows.push(
      `placement,,${csvField(total.placement)},,,${total.seen},${total.seenClickers},${field(total.seenClickThrough)},${field(total.conversionsPerThousandSeen)},${field(total.revenuePerThousandSeen)},,`,
    );
  }
  return `${rows.join('\n')}\n`;
}
