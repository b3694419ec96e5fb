import { readFileSync } from 'node:fs';
import type { MemoryCgroup } from '../../tests/support/memoryCgroup';
import { type ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AdminPage } from '../../server/admin/AdminPage';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { openDatabase } from '../../server/db/openDatabase';
import { readCostTotals, readDailyCostTotals } from '../../server/costs/costStore';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { reportRange } from '../../server/dayCounts/reportRange';
import { lastFinishedDay } from '../../server/jobs/closeDays';
import { silentLogger } from '../../server/lib/logger';
import { addDays, lastWholeMonthTo, lastWholeWeekTo, utcDay } from '../../server/lib/utcDay';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint, type ViewBeaconBody } from '../../shared/viewBeacon';
import { freePort } from '../../tests/support/mainProcess';
import type { BulkWriter } from './bulkWriter';
import { postBeacons } from './postBeacons';
import type { EngineSetup } from './volumeEngines';
import { kilobytes, ms, number, seconds, summary, timing, type Summary, type VolumeFigures } from './volumeFigures';
import { volumeDays } from './volumePlan';
import { readSalesVerdicts } from '../../server/alerts/rules/salesRule';
import { readSilenceVerdict } from '../../server/alerts/rules/silenceRule';
import { lastCompleteWeek } from '../../server/digest/digestWeek';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { writeSourceFlood } from './volumeRows';
import { sleep, startBuiltServer, timedGet, timeStatsScript, type RunningServer, type Timed } from './volumeServer';

/** The built server on a year of rows, timed: closing the days, /admin, a page during a report, npm run stats, recording, a flood of sources. */

/** The admin token of the volume part's servers. */
const adminToken = 'bench-volume-admin-token-0123456789';
/** Distinct utm_source values of the flood. */
const floodSources = 100_000;

/** Limits on every wait. */
const limits = {
  startMs: 10 * 60_000,
  closingMs: 15 * 60_000,
  statsMs: 5 * 60_000,
  pollMs: 1_000,
};

/** Runs of each timing. */
const runs = { admin: 5, parts: 3, pageDuringReport: 10, page: 10, stats: 3, flood: 3 };

/**
 * Resolves to the milliseconds from the server's start to every finished day closed and every whole month
 * and week of them summed (server/jobs/closeMonths.ts sums them after the days): the reports are timed on
 * the site as it runs from then on, not while its maintenance still catches up on a year of days.
 */
async function waitForClosing(setup: EngineSetup, server: RunningServer): Promise<number> {
  const lastDay = lastFinishedDay(new Date());
  for (const deadline = performance.now() + limits.closingMs; ; ) {
    const { count, last, lastMonth, lastWeek } = await setup.closedDays();
    if (last !== '' && last >= lastDay && lastMonth >= lastWholeMonthTo(lastDay) && lastWeek >= lastWholeWeekTo(lastDay)) {
      const closedMs = performance.now() - server.startedAt;
      console.log(`  every finished day closed (${count} in closed_days, the last ${last}; months summed to ${lastMonth}, weeks to ${lastWeek}) ${seconds(closedMs)} after the server was started`);
      return closedMs;
    }
    if (/maintenance .* did not finish/.test(server.output())) throw new Error(`closing days failed: ${server.output().trim().slice(-2_000)}`);
    const { exitCode, signalCode } = server.child;
    if (exitCode !== null || signalCode !== null) throw new Error(`the server exited (${exitCode ?? signalCode}) while closing days, ${count} closed, the last ${last || 'none'}`);
    if (performance.now() > deadline) {
      throw new Error(`closing was not done after ${limits.closingMs / 60_000} minutes (${count} days closed, the last ${last || 'none'}; months summed to ${lastMonth || 'none'}, weeks to ${lastWeek || 'none'})`);
    }
    await sleep(limits.pollMs);
  }
}

async function start(setup: EngineSetup, children: Set<ChildProcess>, cgroup: MemoryCgroup | undefined): Promise<RunningServer> {
  const server = await startBuiltServer(await freePort(), { ...setup.variables, ADMIN_TOKEN: adminToken, TRUST_PROXY: 'true' }, limits.startMs, children, cgroup);
  console.log(`  server answered /healthz ${seconds(server.readyMs)} after it was started`);
  return server;
}

async function repeat(count: number, call: () => Promise<Timed>): Promise<Timed[]> {
  const results: Timed[] = [];
  for (let i = 0; i < count; i++) results.push(await call());
  return results;
}

/** Runs' times, and which of them were not answered 200. */
function timedSummary(results: Timed[]): Summary {
  const refused = new Map<number, number>();
  for (const { status } of results) if (status !== 200) refused.set(status, (refused.get(status) ?? 0) + 1);
  return { ...summary(results.map((run) => run.ms)), refused: [...refused].map(([status, times]) => `${status} ×${times}`).join(', ') };
}

/** The size of a page answered 200 among the runs. */
const answered = (results: Timed[]) => results.find((run) => run.status === 200) ?? { bytes: NaN, wireBytes: NaN };

/** A process's peak resident memory in MB, from Linux's /proc (VmHWM); undefined where that cannot be read. */
function peakMegabytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kilobytes = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Math.round(Number(kilobytes) / 1024);
  } catch {
    return undefined;
  }
}

export async function measureServer(setup: EngineSetup, figures: VolumeFigures, children: Set<ChildProcess>, cgroup?: MemoryCgroup): Promise<void> {
  let server = await start(setup, children, cgroup);
  try {
    figures.readyMs = server.readyMs;
    figures.closedMs = await waitForClosing(setup, server);
    const admin = (days: number) => () => timedGet(`${server.base}/admin?days=${days}`, { authorization: `Bearer ${adminToken}` });

    const [first] = await repeat(1, admin(365));
    const year = await repeat(runs.admin, admin(365));
    figures.admin365 = timedSummary(year);
    console.log(`  GET /admin?days=365: ${timing(figures.admin365)}; the first after start-up ${ms(first!.ms)} (${first!.status}); ${kilobytes(answered(year).bytes)} of HTML, ${kilobytes(answered(year).wireBytes)} sent (brotli)`);
    const { read, render, costs } = await reportParts(setup.settings);
    console.log(`    where its time goes, timed in this process: reading the report ${timing(read)}; rendering its HTML ${timing(render)}`);
    console.log(
      `    of the reading, the costs' grouped reads, one after another, over ${number(costs.rows)} costs rows: per source, campaign and ad ${timing(costs.byKey)}; ` +
        `per day ${timing(costs.byDay)}`,
    );
    const watch = await watchParts(setup.settings);
    figures.alertRules = watch.rules;
    figures.digest = watch.digest;
    console.log(`  the alert rules' reads (six placements' sales, views, clicks), in this process: ${timing(watch.rules)}; the weekly digest read and written: ${timing(watch.digest)}`);
    const month = await repeat(runs.admin, admin(30));
    figures.admin30 = timedSummary(month);
    console.log(`  GET /admin?days=30:  ${timing(figures.admin30)}; ${kilobytes(answered(month).bytes)} of HTML`);

    const alone = await repeat(runs.page, () => timedGet(`${server.base}/`, {}));
    const during: number[] = [];
    const reportAnswers: Timed[] = [];
    for (let run = 0; run < runs.pageDuringReport; run++) {
      let reportDone = false;
      const report = admin(365)().finally(() => (reportDone = true));
      // Spread over the report's time: early runs ask just after it starts, later ones near its end.
      await sleep((figures.admin365.median * (run + 0.5)) / runs.pageDuringReport);
      const page = await timedGet(`${server.base}/`, {});
      if (!reportDone) during.push(page.ms);
      reportAnswers.push(await report);
    }
    if (during.length > 0) figures.pageDuringReport = summary(during);
    const reportsRefused = timedSummary(reportAnswers).refused;
    console.log(
      `  GET / while /admin?days=365 is being read: ${during.length > 0 ? timing(figures.pageDuringReport!) : 'no run'} (${during.length} of ${runs.pageDuringReport} answered before the report${reportsRefused ? `, which answered ${reportsRefused}` : ''}; ` +
        `alone: ${timing(timedSummary(alone))})`,
    );

    const stats: number[] = [];
    for (let run = 0; run < runs.stats; run++) {
      const result = await timeStatsScript(['--json', '--days', String(volumeDays)], setup.variables, limits.statsMs);
      if (result.code !== 0) throw new Error(`npm run stats exited with ${result.code}: ${result.stderr.trim()}`);
      stats.push(result.ms);
      if (run === 0) {
        const report = JSON.parse(result.stdout) as { all: { views: number; clicks: number; conversions: number } };
        console.log(`    (the report counts ${number(report.all.views)} views, ${number(report.all.clicks)} clicks, ${number(report.all.conversions)} conversions not refunded; ${kilobytes(result.stdoutBytes)} of JSON)`);
      }
    }
    figures.stats365 = summary(stats);
    console.log(`  npm run stats -- --json --days ${volumeDays} (spawned as npm runs it: tsx scripts/stats.ts, Node's start included): ${timing(figures.stats365)}`);

    const recorded: [string, autocannon.Result][] = [];
    const view: ViewBeaconBody = { page: '/', referrer: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november' };
    recorded.push([`POST ${viewEndpoint}`, await postBeacons(server.base, viewEndpoint, JSON.stringify(view))]);
    recorded.push([`POST ${clickEndpoint}`, await postBeacons(server.base, clickEndpoint, JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.google.com' }))]);
    figures.recordingP99 = { views: recorded[0]![1].latency.p99, clicks: recorded[1]![1].latency.p99 };
    for (const [what, result] of recorded) {
      console.log(`  ${what} on a year of rows (10 connections, 10 s): p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s, ${result['2xx']} acknowledged, ${result.non2xx} refused`);
    }

    const today = utcDay(new Date());
    const span = Date.now() - Date.parse(`${today}T00:00:00Z`);
    const writtenToday = await write(setup, (writer) => writeSourceFlood(writer, today, span, floodSources, 'flood'));
    figures.floodToday = await measureFlood(server, `today (${today}, read raw), written in ${seconds(writtenToday)}`);

    // The same flood on a closed day: yesterday's totals are taken back and the flood added while the
    // server is stopped; started again, it closes yesterday anew (today's flood is removed first).
    const firstPeak = peakMegabytes(server.child.pid);
    await server.stop();
    const yesterday = addDays(today, -1);
    const writtenClosed = await write(setup, async (writer) => {
      await writer.run(`delete from views where day = '${today}' and source like 'flood-%'`);
      await writer.run(`delete from daily_counts where day = '${yesterday}'`);
      await writer.run(`delete from closed_days where day = '${yesterday}'`);
      await writeSourceFlood(writer, yesterday, 86_400_000, floodSources, 'flood-closed');
    });
    await setup.afterDelete?.();
    server = await start(setup, children, cgroup);
    await waitForClosing(setup, server);
    figures.floodClosed = await measureFlood(server, `yesterday (${yesterday}, closed: 1,000 sources kept, the rest in one row), written in ${seconds(writtenClosed)}`);
    // The first server's peak covered closing the year and the reports above; this one's, closing the
    // flooded day and its reports: the higher is what the site needs.
    const peak = Math.max(firstPeak ?? 0, peakMegabytes(server.child.pid) ?? 0);
    if (peak > 0) figures.peakMegabytes = peak;
    console.log(`  the server's peak resident memory (VmHWM, its report worker included): ${firstPeak ?? '?'} MB through closing the year and the reports, ${peakMegabytes(server.child.pid) ?? '?'} MB through the flooded day`);
  } catch (error) {
    // What the server said last tells a crash from a refusal.
    const { exitCode, signalCode } = server.child;
    const state = exitCode !== null || signalCode !== null ? `the server had exited (${exitCode ?? signalCode})` : 'the server was still running';
    throw new Error(`${error instanceof Error ? error.message : String(error)}; ${state}; its last output:\n${server.output().trim().split('\n').slice(-15).join('\n')}`);
  } finally {
    await server.stop();
  }
}

/**
 * A year's report read as npm run stats reads it (in process, read-only), and rendered as /admin renders it;
 * then the three grouped reads of the year's costs the report makes (server/costs/costStore.ts), each alone.
 */
async function reportParts(settings: DatabaseSettings): Promise<{ read: Summary; render: Summary; costs: CostParts }> {
  const database = await openDatabase(settings, { logger: silentLogger, readOnly: true });
  try {
    const reads: number[] = [];
    const renders: number[] = [];
    for (let run = 0; run < runs.parts; run++) {
      const started = performance.now();
      const report = await readFunnelReport(database.db, reportRange({ days: volumeDays }));
      const read = performance.now();
      renderToStaticMarkup(createElement(AdminPage, { report, linkHealth: undefined, affiliateUrl: 'https://www.example.com/register' }));
      reads.push(read - started);
      renders.push(performance.now() - read);
    }
    const range = reportRange({ days: volumeDays });
    const timed = async (read: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let run = 0; run < runs.parts; run++) {
        const started = performance.now();
        await read();
        times.push(performance.now() - started);
      }
      return summary(times);
    };
    const costs: CostParts = {
      rows: Number((await database.db.selectFrom('costs').select((eb) => eb.fn.countAll().as('rows')).where('day', '>=', range.from).where('day', '<=', range.to).executeTakeFirstOrThrow()).rows),
      byKey: await timed(() => readCostTotals(database.db, range)),
      byDay: await timed(() => readDailyCostTotals(database.db, range)),
    };
    return { read: summary(reads), render: summary(renders), costs };
  } finally {
    await database.close();
  }
}

/** The year's costs rows, and what each grouped read of them took. */
interface CostParts {
  rows: number;
  /** Per source, campaign, ad and currency: the one read sources and campaigns both take their costs from. */
  byKey: Summary;
  byDay: Summary;
}

/**
 * What the watch reads every five minutes and the digest once a week, on the year's rows, timed in this
 * process on a read-only connection: both must cost what they cost on a day's.
 */
async function watchParts(settings: DatabaseSettings): Promise<{ rules: Summary; digest: Summary }> {
  const database = await openDatabase(settings, { logger: silentLogger, readOnly: true });
  try {
    const rules: number[] = [];
    const digests: number[] = [];
    for (let run = 0; run < runs.parts; run++) {
      const started = performance.now();
      await readSalesVerdicts(database.db);
      await readSilenceVerdict(database.db, 'views', Date.now());
      await readSilenceVerdict(database.db, 'clicks', Date.now());
      const read = performance.now();
      await inProcessReportReader(database.db).readDigest(lastCompleteWeek(new Date()), { siteUrl: 'https://auctions.example.com' });
      rules.push(read - started);
      digests.push(performance.now() - read);
    }
    return { rules: summary(rules), digest: summary(digests) };
  } finally {
    await database.close();
  }
}

/** Runs `work` on a writer of its own (as a second connection would write), timed. */
async function write(setup: EngineSetup, work: (writer: BulkWriter) => Promise<void>): Promise<number> {
  const started = performance.now();
  const writer = await setup.writer(false);
  try {
    await work(writer);
  } finally {
    await writer.close();
  }
  return performance.now() - started;
}

/**
 * /admin?days=365 after a flood of floodSources views, each with a source of its own: its time and size.
 * The first report after the flood is told apart, as the first after start-up is above: it counts the
 * flood's rows (today's) or starts the report worker (after a restart); the runs after it are the figure.
 */
async function measureFlood(server: RunningServer, what: string) {
  const admin = () => timedGet(`${server.base}/admin?days=365`, { authorization: `Bearer ${adminToken}` });
  const [first] = await repeat(1, admin);
  const results = await repeat(runs.flood, admin);
  const time = timedSummary(results);
  const { bytes, wireBytes } = answered(results);
  console.log(`  flood of ${number(floodSources)} sources on ${what}: GET /admin?days=365 ${timing(time)}, the first ${ms(first!.ms)} (${first!.status}); ${kilobytes(bytes)} of HTML (${kilobytes(wireBytes)} sent)`);
  return { time, bytes };
}
