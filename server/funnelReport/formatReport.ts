import type { FunnelReport, OtherSources, PlacementCount } from './funnelReport';
import type { SourceCosts } from './sourceCosts';
import type { FilteredFigures } from './filteredCounts';
import type { Earnings } from '../dayCounts/earnings';
import { amountText, counted, rate, revenueText, share, sourceName } from '../dayCounts/reportNumbers';
import { filterReasons } from '../dayCounts/filterReasons';
import { countText, signedPercentText } from '../lib/numberFormat';
import { daysOf } from '../dayCounts/reportRange';
import { headlineFigures, type HeadlineFigure } from './previousPeriod';
import { releaseLines } from '../releases/formatReleases';
import { addCostsLines, money, otherCurrencyNote, verdictText, withCosts } from './formatCosts';
import { pageReachLines, placementReachLines } from './formatReach';
import { experimentReachLines } from '../experiments/formatExperimentReach';
import { csvField } from '../lib/csvField';
import { table } from '../lib/textTable';

/** Revenue in a table cell: one currency a line. */
const revenueCell = (earnings: Earnings, per?: number) => revenueText(earnings, { per, separator: '\n' });

/** Source names are free text (utm_source), up to 100 characters: cut to keep the table in a terminal's width. */
const cut = (text: string, most = 28) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);

/** Visitors, then visitors who clicked, then conversions, each with its rate; a rate of nothing is left out. */
export function funnelLines({ all }: Pick<FunnelReport, 'all'>): string[] {
  const of = (text: string, whole: number) => (whole === 0 ? '' : text);
  return [
    table(
      [
        ['Visitors', countText(all.viewVisitors), ''],
        ['Visitors who clicked', countText(all.visitors), of(`${rate(all.visitors, all.viewVisitors)} of visitors`, all.viewVisitors)],
        ['Conversions', countText(all.conversions), of(`${rate(all.conversions, all.clicks)} of ${counted(all.clicks, 'click')}`, all.clicks)],
        ['Revenue', revenueText(all), of(`${revenueText(all, { per: all.clicks })} per click`, all.clicks * all.conversions)],
      ],
      1,
      ['left', 'right', 'left'],
    ),
  ];
}

/** The headline's change against the previous period, as /admin's boxes say it: what each figure did, "–" where there was nothing before. */
export function previousPeriodLines({ previous, costs }: Pick<FunnelReport, 'previous' | 'costs'>): string[] {
  const days = counted(daysOf(previous).length, 'day');
  const head = `Against the previous ${days} (${previous.from} to ${previous.to})`;
  const figures = headlineFigures.filter((figure) => costs.recorded || (figure !== 'spend' && figure !== 'profit'));
  if (figures.every((figure) => previous.change[figure] === null)) return [`${head}: nothing to compare with.`];
  const said = figures.map((figure) => `${headlineWords[figure]} ${previous.change[figure] === null ? '–' : signedPercentText(previous.change[figure])}`);
  // Two lines at most, within the table's 90 columns.
  return [`${head}:`, said.slice(0, 4).join(', '), ...(said.length > 4 ? [said.slice(4).join(', ')] : [])];
}

const headlineWords: Record<HeadlineFigure, string> = { visitors: 'visitors', clicked: 'visitors who clicked', conversions: 'conversions', revenue: 'revenue', spend: 'spend', profit: 'profit' };

export function placementLines({ all, totals }: Pick<FunnelReport, 'all' | 'totals'>): string[] {
  const rows: string[][] = [['Placement', 'Clicks', 'Visitors', 'Share', 'Conv.', 'Conv. rate', 'Revenue', 'EPC']];
  const row = (name: string, count: PlacementCount) => [
    name,
    countText(count.clicks),
    countText(count.visitors),
    share(count.clicks, all.clicks),
    countText(count.conversions),
    rate(count.conversions, count.clicks),
    revenueCell(count),
    revenueCell(count, count.clicks),
  ];
  for (const total of totals) rows.push(row(total.placement, total));
  rows.push(row('all placements', all));
  const lines = [table(rows, 1), 'Conv.: conversions of these clicks. Conv. rate: conversions per click.', 'EPC: earnings per click.'];
  if (all.unattributed > 0) {
    lines.push(`${counted(all.unattributed, 'conversion')} named no placement: in "all placements" only.`);
  }
  return lines;
}

/** The name of the row that adds up the sources past the listed ones. */
const otherSourcesName = (others: OtherSources) => `(${countText(others.sourceCount)} other${others.sourceCount === 1 ? '' : 's'})`;

/** `everySource` says where every source is listed: this command's flag here, the whole command elsewhere (the digest). */
export function sourceLines({ sources, otherSources: others }: Pick<FunnelReport, 'sources' | 'otherSources'>, everySource = '--all-sources lists every one.'): string[] {
  if (sources.length === 0 && !others) return ['No visitors from any source in this range.'];
  const rows: string[][] = [['Source', 'Visitors', 'Clicked', 'Clicks', 'CTR', 'Conv.', 'Revenue']];
  const named = [...sources.map((source) => ({ name: cut(sourceName(source.source)), row: source })), ...(others ? [{ name: otherSourcesName(others), row: others }] : [])];
  for (const { name, row } of named) {
    rows.push([name, countText(row.visitors), countText(row.clickers), countText(row.clicks), rate(row.clickers, row.visitors), countText(row.conversions), revenueCell(row)]);
  }
  const lines = [table(rows, 1), 'Clicked: visitors who clicked. CTR: the share of visitors who clicked.'];
  if (others) lines.push(`The ${sources.length} sources with most visitors are listed; ${everySource}`);
  return lines;
}

function pageLines(report: FunnelReport): string[] {
  if (report.pages.length === 0) return ['No views or clicks in this range.'];
  const rows: string[][] = [['Page', 'Views', 'Visitors', 'Clicks', 'Clicked', 'CTR']];
  for (const page of report.pages) {
    rows.push([cut(page.page, 40), countText(page.views), countText(page.visitors), countText(page.clicks), countText(page.clickers), rate(page.clickers, page.visitors)]);
  }
  return [table(rows, 1)];
}

function dayLines(report: FunnelReport): string[] {
  const newestFirst = report.days.toReversed();
  const funnelRows: string[][] = [['Day', 'Views', 'Visitors', 'Clicked', 'Clicks', 'Conv.', 'Revenue']];
  const placementRows: string[][] = [['Day', 'Placement', 'Clicks', 'Visitors', 'Conv.', 'Revenue']];
  const sourceRows: string[][] = [['Day', 'Source', 'Visitors', 'Clicked', 'Clicks', 'Conv.', 'Revenue']];
  for (const { day, all, placements, sources, otherSources } of newestFirst) {
    if (all.views === 0 && all.clicks === 0 && all.conversions === 0) continue;
    funnelRows.push([day, countText(all.views), countText(all.viewVisitors), countText(all.visitors), countText(all.clicks), countText(all.conversions), revenueCell(all)]);
    const active = Object.entries(placements).filter(([, count]) => count.clicks > 0 || count.conversions > 0);
    active.forEach(([placement, count], index) => {
      placementRows.push([index === 0 ? day : '', placement, countText(count.clicks), countText(count.visitors), countText(count.conversions), revenueCell(count)]);
    });
    // The day's total, when it adds something: several placements, or conversions that named none.
    const placed = active.reduce((sum, [, count]) => sum + count.conversions, 0);
    if (active.length > 1 || all.conversions > placed) {
      placementRows.push([active.length === 0 ? day : '', 'all placements', countText(all.clicks), countText(all.visitors), countText(all.conversions), revenueCell(all)]);
    }
    const named = [...sources.map((source) => ({ name: cut(sourceName(source.source)), row: source })), ...(otherSources ? [{ name: otherSourcesName(otherSources), row: otherSources }] : [])];
    named.forEach(({ name, row }, index) => {
      sourceRows.push([index === 0 ? day : '', name, countText(row.visitors), countText(row.clickers), countText(row.clicks), countText(row.conversions), revenueCell(row)]);
    });
  }
  if (funnelRows.length === 1) return ['Nothing in this range: no views, clicks or conversions.'];
  const lines = [table(funnelRows, 1), 'Clicked: visitors who clicked.'];
  if (placementRows.length > 1) lines.push('', table(placementRows, 2));
  if (sourceRows.length > 1) lines.push('', table(sourceRows, 2));
  return lines;
}

/** The reports not counted over the range, per reason (--json has them per day too). */
function filteredLines({ filtered }: FunnelReport): string[] {
  const rows: string[][] = [['Reason', 'Views', 'Clicks', 'Leaves']];
  const figures = ({ views, clicks, leaves }: FilteredFigures) => [countText(views), countText(clicks), countText(leaves)];
  for (const reason of filterReasons) rows.push([reason, ...figures(filtered.reasons[reason])]);
  rows.push(['all reasons', ...figures(filtered)]);
  return [table(rows, 1), 'Kept per day, report kind and reason only; --json has each day.'];
}

/** Each experiment over its life: per variant its figures and chance to be best, then the verdict. */
export function experimentLines({ experiments, currency }: Pick<FunnelReport, 'experiments' | 'currency'>): string[] {
  if (experiments.length === 0) return ['No experiment is listed (shared/content/experiments.ts).'];
  const lines: string[] = [];
  for (const experiment of experiments) {
    const state = experiment.winner === null ? '' : `, ended: everyone sees ${experiment.winner}`;
    const span = experiment.from === '' ? 'no figures yet' : `${experiment.from} to ${experiment.to}`;
    lines.push(`${experiment.id} (${span}${state})`);
    const rows: string[][] = [['Variant', 'Visitors', 'Clicked', 'Clicks', 'Conv.', 'Revenue', 'CTR', 'CR', 'RPV', 'P(best)']];
    for (const variant of experiment.variants) {
      const none = variant.visitors === 0;
      rows.push([
        variant.id,
        countText(variant.visitors),
        countText(variant.clickers),
        countText(variant.clicks),
        countText(variant.conversions),
        amountText(variant.revenue, currency),
        rate(variant.clickers, variant.visitors),
        rate(variant.conversions, variant.visitors),
        none ? '–' : amountText(variant.revenuePerVisitor, currency),
        none ? '–' : share(variant.chanceBest, 1),
      ]);
    }
    lines.push(table(rows, 1), `Verdict: ${experiment.verdict}.`, ...experimentReachLines(experiment), '');
  }
  lines.push(
    'Per visitor: CTR visitors who clicked, CR conversions, RPV revenue. P(best): the chance',
    'the variant is the best. Each experiment is read over its whole life, whatever the range.',
    'Buttons seen (from leave reports): Saw, visitors with half of it in view for a second;',
    'Clicked, of those, who followed it; CTR seen, Clicked ÷ Saw.',
  );
  return lines;
}

/** An amount of the main currency without its code, which the section's heading names, to fit a terminal's width. */
const plainAmount = (amount: number | null, currency: string) => money(amount, currency).replace(` ${currency}`, '');

/** A cost cell: the main currency's amount without its code, then every other currency's with its own, one a line. */
const costCell = (cost: number | null, costByCurrency: Record<string, number>, currency: string) =>
  [
    plainAmount(cost, currency),
    ...Object.entries(costByCurrency)
      .filter(([code]) => code !== currency)
      .map(([code, amount]) => amountText(amount, code)),
  ].join('\n');

/** Whether a source, campaign or ad cost something, in any currency. */
const hasCost = (row: SourceCosts) => Object.keys(row.costByCurrency).length > 0;

/** The spend and profit section of the terminal table: every source with a cost, losing money first. */
export function spendLines({ costs }: Pick<FunnelReport, 'costs'>): string[] {
  if (!costs.recorded) return addCostsLines;
  const { currency } = costs;
  const plain = (amount: number | null) => plainAmount(amount, currency);
  const rows: string[][] = [['Source', 'Cost', 'Visitors', 'CPV', 'Conv.', 'CPA', 'Revenue', 'Profit', 'ROI', 'P(profit)']];
  const verdicts: string[] = [];
  for (const row of costs.sources.filter(hasCost)) {
    rows.push([
      sourceName(row.source).slice(0, 24),
      costCell(row.cost, row.costByCurrency, currency),
      countText(row.visitors),
      plain(row.costPerVisitor),
      countText(row.conversions),
      plain(row.costPerConversion),
      plain(row.revenue),
      plain(row.profit),
      row.roi === null ? '–' : share(row.roi, 1),
      row.chanceProfitable === null ? '–' : share(row.chanceProfitable, 1),
    ]);
    if (row.cost !== null) verdicts.push(`${sourceName(row.source)}: ${verdictText(row)}.`);
  }
  rows.push(['all sources', costCell(costs.all.cost, costs.all.costByCurrency, currency), '', '', '', '', '', plain(costs.all.profit), '', '']);
  const lines = [`Losing money first; amounts in ${currency}.`, table(rows, 1), ...verdicts, 'CPV: cost per visitor. CPA: cost per conversion.', 'P(profit): the chance the source earns more than it costs.'];
  if (costs.otherCurrencies.length > 0) lines.push(otherCurrencyNote(currency, costs.otherCurrencies));
  return lines;
}

/**
 * The campaigns and ads with a cost, losing money first, each campaign's ads indented under it: the
 * campaign as source / campaign, an ad by its content; the first `shown` campaigns when given (the digest's few).
 */
export function campaignSpendLines({ costs }: Pick<FunnelReport, 'costs'>, shown?: number): string[] {
  const allCosted = costs.campaigns.filter(hasCost);
  const costed = allCosted.slice(0, shown);
  if (costed.length === 0) return ['No cost names a campaign in this range (npm run costs:import and POST /api/costs', 'take each row\'s campaign).'];
  const { currency } = costs;
  const plain = (amount: number | null) => plainAmount(amount, currency);
  const figures = (row: SourceCosts) => [
    costCell(row.cost, row.costByCurrency, currency),
    countText(row.visitors),
    countText(row.conversions),
    plain(row.revenue),
    plain(row.profit),
    row.roi === null ? '–' : share(row.roi, 1),
    row.chanceProfitable === null ? '–' : share(row.chanceProfitable, 1),
  ];
  const rows: string[][] = [['Campaign / ad', 'Cost', 'Visitors', 'Conv.', 'Revenue', 'Profit', 'ROI', 'P(profit)']];
  const verdicts: string[] = [];
  for (const campaign of costed) {
    const name = `${sourceName(campaign.source)} / ${campaign.campaign}`;
    rows.push([name.slice(0, 32), ...figures(campaign)]);
    if (campaign.cost !== null) verdicts.push(`${name}: ${verdictText(campaign)}.`);
    for (const ad of campaign.ads.filter(hasCost)) rows.push([`  ${ad.content}`.slice(0, 32), ...figures(ad)]);
  }
  const left = allCosted.length - costed.length;
  return [
    `Losing money first, each campaign's ads under it; amounts in ${currency}.`,
    table(rows, 1),
    ...verdicts,
    ...(left > 0 ? [`And ${countText(left)} more campaigns with a cost: npm run stats -- --csv --spend lists every one.`] : []),
  ];
}

/** The report as the terminal table `npm run stats` prints: the funnel, then per placement, per source and per day; figures written for people (server/lib/numberFormat.ts), where --json and --csv keep raw numbers. */
export function formatReportTable(report: FunnelReport): string {
  const dayCount = report.days.length;
  const lines = [
    `Affiliate funnel, ${report.from} to ${report.to} (UTC, ${counted(dayCount, 'day')})`,
    '',
    ...funnelLines(report),
    ...previousPeriodLines(report),
    '',
    'Not counted (bots, prefetches, opt-outs, refused reports)',
    ...filteredLines(report),
    '',
    'By placement',
    ...placementLines(report),
    '',
    'By source (what brought the visitor)',
    ...sourceLines(report),
    '',
    'Spend and profit (per source with a cost)',
    ...spendLines(report),
    '',
    'Spend and profit per campaign and ad',
    ...campaignSpendLines(report),
    '',
    'By page',
    ...pageLines(report),
    '',
    'Reach per placement (from leave reports: who saw each button)',
    ...placementReachLines(report),
    '',
    'Reach per page (how far down visitors got, and how long they read)',
    ...pageReachLines(report),
    '',
    'By day (newest first; days with nothing are left out)',
    ...dayLines(report),
    '',
    'Experiments (split tests of the home page\'s words)',
    ...experimentLines(report),
    '',
    'Releases (observed, not a controlled test)',
    ...releaseLines(report),
    '',
    'Visitors are unique per day: one who comes back on another day is counted again.',
    'Conversions count under the day of their click (the day they arrived when no click',
    'matched); refunds and chargebacks are taken out.',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * One row per day and placement, zeros included, so a spreadsheet can pivot it as it likes. The revenue
 * column is in the report's main currency only (`currency` in --json, which also has every other
 * currency); conversions that named no placement are in no row.
 */
export function formatReportCsv(report: FunnelReport): string {
  const rows = ['day,placement,clicks,visitors,conversions,revenue'];
  for (const entry of report.days) {
    for (const [placement, count] of Object.entries(entry.placements)) {
      rows.push(`${entry.day},${csvField(placement)},${count.clicks},${count.visitors},${count.conversions},${count.revenue}`);
    }
  }
  return `${rows.join('\n')}\n`;
}

export function formatReportJson(report: FunnelReport): string {
  return `${JSON.stringify(withCosts(report), null, 2)}\n`;
}
