import { loadavg } from 'node:os';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint } from '../../shared/viewBeacon';
import { volumeDays } from './volumePlan';

/** The volume part's figures: their summaries and units as printed, and the table against the issue's targets. */

/** The issue's targets. */
const targets = { admin365Ms: 300, admin30Ms: 100, statsMs: 3_000, pageDuringReportMs: 50, floodBytes: 300_000, peakMegabytes: 256 };

export interface Summary {
  median: number;
  max: number;
  count: number;
  /** Answers other than 200 among the runs, e.g. "503 ×2" (a report stopped after the server's limit); '' when none. */
  refused?: string;
}

export const summary = (values: number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN, count: sorted.length };
};
export const ms = (value: number) => `${value.toFixed(0)} ms`;
export const timing = ({ median, max, count, refused }: Summary) => `median ${ms(median)}, max ${ms(max)} (${count} runs${refused ? `; answered ${refused}` : ''})`;
export const number = (value: number) => value.toLocaleString('en');
export const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
export const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
/** The machine is shared: how busy it was is part of every figure. */
export const load = () => `load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`;

export interface VolumeFigures {
  engine: string;
  generationMs?: number;
  /** The first start on the year's rows: to /healthz, and to every finished day closed and its whole months and weeks summed. */
  readyMs?: number;
  closedMs?: number;
  recordingP99?: { views: number; clicks: number };
  admin365?: Summary;
  admin30?: Summary;
  pageDuringReport?: Summary;
  stats365?: Summary;
  /** The alert rules' reads, and the weekly digest read and written (in process). */
  alertRules?: Summary;
  digest?: Summary;
  floodToday?: { time: Summary; bytes: number };
  floodClosed?: { time: Summary; bytes: number };
  /** The server's peak resident memory (VmHWM, worker threads included) through closing the year and every report above, in MB. */
  peakMegabytes?: number;
  /** The memory cgroup the server ran in: its limit, the most it was charged (page cache included), and OOM kills. */
  memoryLimit?: { limitMb: number; peakMb: number; oomKills: number };
}

export function printTargets(figures: VolumeFigures[]) {
  const verdict = (value: Summary | undefined, target: number) =>
    !value ? 'not measured' : value.refused ? `missed (${value.refused})` : value.max <= target ? 'met' : value.median <= target ? 'median only' : 'missed';
  const cell = (value: Summary | undefined, target: number, format = ms) => (value ? `${format(value.median)} (max ${format(value.max)}) ${verdict(value, target)}` : 'not measured');
  const rows: [string, string, (f: VolumeFigures) => string][] = [
    ['/admin?days=365', `≤ ${targets.admin365Ms} ms`, (f) => cell(f.admin365, targets.admin365Ms)],
    ['/admin?days=30', `≤ ${targets.admin30Ms} ms`, (f) => cell(f.admin30, targets.admin30Ms)],
    [`stats --json --days ${volumeDays}`, `≤ ${targets.statsMs / 1000} s`, (f) => cell(f.stats365, targets.statsMs, seconds)],
    ['/ during a year\'s report', `≤ ${targets.pageDuringReportMs} ms`, (f) => cell(f.pageDuringReport, targets.pageDuringReportMs)],
    ['flood /admin, today', `< ${targets.floodBytes / 1000} KB`, (f) => (f.floodToday ? `${kilobytes(f.floodToday.bytes)} ${f.floodToday.bytes < targets.floodBytes ? 'met' : 'missed'}, ${ms(f.floodToday.time.median)}` : 'not measured')],
    ['flood /admin, yesterday', `< ${targets.floodBytes / 1000} KB`, (f) => (f.floodClosed ? `${kilobytes(f.floodClosed.bytes)} ${f.floodClosed.bytes < targets.floodBytes ? 'met' : 'missed'}, ${ms(f.floodClosed.time.median)}` : 'not measured')],
    ['server peak resident memory', `≤ ${targets.peakMegabytes} MB`, (f) => (f.peakMegabytes === undefined ? 'not measured' : `${f.peakMegabytes} MB ${f.peakMegabytes <= targets.peakMegabytes ? 'met' : 'missed'}`)],
    ['in its memory cgroup', '0 killed', (f) => (f.memoryLimit ? `peak ${f.memoryLimit.peakMb} of ${f.memoryLimit.limitMb} MB, ${f.memoryLimit.oomKills} killed ${f.memoryLimit.oomKills === 0 ? 'met' : 'missed'}` : 'no cgroup')],
  ];
  const plain = (value: (f: VolumeFigures) => number | undefined, format: (n: number) => string) => (f: VolumeFigures) => {
    const n = value(f);
    return n === undefined ? 'not measured' : format(n);
  };
  rows.push(
    ['generating the rows', '', plain((f) => f.generationMs, seconds)],
    ['first start to /healthz', '', plain((f) => f.readyMs, seconds)],
    ['... to every day closed and summed', '', plain((f) => f.closedMs, seconds)],
    ['alert rules (one look)', '', plain((f) => f.alertRules?.median, ms)],
    ['weekly digest', '', plain((f) => f.digest?.median, ms)],
    [`POST ${viewEndpoint} p99`, '', plain((f) => f.recordingP99?.views, ms)],
    [`POST ${clickEndpoint} p99`, '', plain((f) => f.recordingP99?.clicks, ms)],
  );
  console.log(`\nAgainst the targets (median, max; "met" when every run met it; ${load()} at the end)`);
  const widths = [28, 10];
  console.log(`  ${'figure'.padEnd(widths[0]!)} ${'target'.padEnd(widths[1]!)} ${figures.map((f) => f.engine.padEnd(36)).join(' ')}`);
  for (const [name, target, value] of rows) {
    console.log(`  ${name.padEnd(widths[0]!)} ${target.padEnd(widths[1]!)} ${figures.map((f) => value(f).padEnd(36)).join(' ')}`);
  }
}
