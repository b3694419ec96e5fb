/**
 * npm run bench -- volume [--views N] [--engine sqlite|postgres]: a year of a busy site (10,000,000 page
 * views, 1,000,000 clicks, 50,000 conversions unless --views says fewer) on SQLite and on a throwaway
 * PostgreSQL, then the built server on it: how long closing the year's days takes, /admin for 365 and 30
 * days, a page asked for while a year's report is being read, npm run stats -- --json --days 365, the
 * cost of recording a view and a click, and /admin after a flood of 100,000 made-up sources; last, the
 * figures against the issue's targets.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite from 'better-sqlite3';
import type autocannon from 'autocannon';
import pg from 'pg';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AdminPage } from '../../server/admin/AdminPage';
import { addDays, utcDay } from '../../server/lib/utcDay';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { openDatabase } from '../../server/db/openDatabase';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { reportRange } from '../../server/funnelReport/reportRange';
import { lastFinishedDay } from '../../server/jobs/closeDays';
import { silentLogger } from '../../server/lib/logger';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint, type ViewBeaconBody } from '../../shared/viewBeacon';
import { freePort } from '../../tests/support/mainProcess';
import { startPostgresCluster } from '../../tests/support/postgres';
import { postBeacons } from './postBeacons';
import { planDays, postgresWriter, sqliteWriter, volumeCounts, volumeDays, writeSourceFlood, writeVolume, type BulkWriter, type VolumeCounts } from './volumeRows';
import { sleep, startBuiltServer, timedGet, timeStatsScript, type RunningServer, type Timed } from './volumeServer';

const usage = 'npm run bench -- volume [--views N] [--engine sqlite|postgres]';
const defaultViews = 10_000_000;
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

/** The issue's targets. */
const targets = { admin365Ms: 300, admin30Ms: 100, statsMs: 3_000, pageDuringReportMs: 50, floodBytes: 300_000 };

interface Summary {
  median: number;
  max: number;
  count: number;
  /** Answers other than 200 among the runs, e.g. "503 ×2" (a report stopped after the server's limit); '' when none. */
  refused?: string;
}

const summary = (values: number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN, count: sorted.length };
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
const timing = ({ median, max, count, refused }: Summary) => `median ${ms(median)}, max ${ms(max)} (${count} runs${refused ? `; answered ${refused}` : ''})`;
const number = (value: number) => value.toLocaleString('en');
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
/** The machine is shared: how busy it was is part of every figure. */
const load = () => `load average ${loadavg().map((value) => value.toFixed(1)).join(', ')}`;

interface VolumeFigures {
  engine: string;
  generationMs?: number;
  /** The first start on the year's rows: to /healthz, and to every finished day closed. */
  readyMs?: number;
  closedMs?: number;
  recordingP99?: { views: number; clicks: number };
  admin365?: Summary;
  admin30?: Summary;
  pageDuringReport?: Summary;
  stats365?: Summary;
  floodToday?: { time: Summary; bytes: number };
  floodClosed?: { time: Summary; bytes: number };
}

/** One engine's database: how to reach it, write to it and read how many days are closed. */
interface EngineSetup {
  name: string;
  settings: DatabaseSettings;
  /** The variable that names it to the server and to npm run stats. */
  variables: Record<string, string>;
  writer(bulk: boolean): Promise<BulkWriter>;
  /** What a real installation's housekeeping would have done to freshly loaded tables. */
  afterLoad?(): Promise<string>;
  /** The same after many rows were deleted (PostgreSQL keeps them as dead rows until a vacuum). */
  afterDelete?(): Promise<void>;
  size(): Promise<number>;
  closedDays(): Promise<{ count: number; last: string }>;
}

function sqliteSetup(file: string): EngineSetup {
  return {
    name: 'SQLite',
    settings: { engine: 'sqlite', file },
    variables: { CLICKS_DB: file },
    writer: async (bulk) => sqliteWriter(file, { bulk }),
    size: async () => ['', '-wal'].reduce((sum, suffix) => sum + (statSync(`${file}${suffix}`, { throwIfNoEntry: false })?.size ?? 0), 0),
    closedDays: async () => {
      const database = new BetterSqlite(file, { readonly: true, fileMustExist: true });
      try {
        const row = database.prepare('select count(*) as count, max(day) as last from closed_days').get() as { count: number; last: string | null };
        return { count: row.count, last: row.last ?? '' };
      } finally {
        database.close();
      }
    },
  };
}

function postgresSetup(url: string): EngineSetup {
  const query = async <Row extends pg.QueryResultRow>(text: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    name: 'PostgreSQL',
    settings: { engine: 'postgres', url },
    variables: { DATABASE_URL: url },
    writer: () => postgresWriter(url),
    afterLoad: async () => {
      const started = performance.now();
      await query('vacuum analyze');
      return `vacuum analyze (what autovacuum would have done to a year of inserts) ${seconds(performance.now() - started)}`;
    },
    afterDelete: async () => void (await query('vacuum analyze views')),
    size: async () => Number((await query<{ size: string }>('select pg_database_size(current_database()) as size'))[0]!.size),
    closedDays: async () => {
      const [row] = await query<{ count: string; last: string | null }>('select count(*) as count, max(day) as last from closed_days');
      return { count: Number(row!.count), last: row!.last ?? '' };
    },
  };
}

function volumeOptions(args: string[]): { counts: VolumeCounts; engines: string[] } {
  const { values } = parseArgs({ args, options: { views: { type: 'string' }, engine: { type: 'string', multiple: true } }, strict: true, allowPositionals: false });
  const views = values.views === undefined ? defaultViews : Number(values.views.replaceAll(/[,_]/g, ''));
  if (!Number.isSafeInteger(views) || views < 1_000 || views > 100_000_000) throw new Error(`--views must be a whole number from 1,000 to 100,000,000, got "${values.views}"\n${usage}`);
  const engines = values.engine ?? ['sqlite', 'postgres'];
  for (const engine of engines) if (!['sqlite', 'postgres'].includes(engine)) throw new Error(`--engine must be sqlite or postgres, got "${engine}"\n${usage}`);
  return { counts: volumeCounts(views), engines };
}

export async function benchVolume(args: string[]): Promise<void> {
  const { counts, engines } = volumeOptions(args);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-volume-'));
  const children = new Set<ChildProcess>();
  // Stopped from outside: no server outlives the bench, nor its files (the PostgreSQL cluster has its own watchdog).
  const onSignal = (signal: NodeJS.Signals) => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  console.log(`\nA year of a busy site: ${number(counts.views)} page views, ${number(counts.clicks)} clicks, ${number(counts.conversions)} conversions over ${volumeDays} UTC days, today included`);
  const figures: VolumeFigures[] = [];
  try {
    if (engines.includes('sqlite')) figures.push(await onEngine(sqliteSetup(path.join(dir, 'clicks.sqlite')), counts, children));
    if (engines.includes('postgres')) {
      // The recording parts' cluster: PostgreSQL's durable defaults, fsync and synchronous_commit on.
      const cluster = await startPostgresCluster({ timeoutMs: 120_000, settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', wal_level: 'replica' } });
      try {
        figures.push(await onEngine(postgresSetup(cluster.url), counts, children));
      } finally {
        await cluster.destroy();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  printTargets(figures);
}

/** Generation, then the server on the result; a failure ends this engine's part with its message, and the figures so far are kept. */
async function onEngine(setup: EngineSetup, counts: VolumeCounts, children: Set<ChildProcess>): Promise<VolumeFigures> {
  const figures: VolumeFigures = { engine: setup.name };
  console.log(`\n${setup.name} (${load()})`);
  try {
    figures.generationMs = await generate(setup, counts);
    await measureServer(setup, figures, children);
  } catch (error) {
    console.log(`  stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
  return figures;
}

/** Resolves to how long writing the rows took. */
async function generate(setup: EngineSetup, counts: VolumeCounts): Promise<number> {
  // Opened once as the server opens it, so the schema is the current one; the rows go in beside it.
  await (await openDatabase(setup.settings, { logger: silentLogger })).close();
  const now = new Date();
  const plan = planDays(counts, now);
  const started = performance.now();
  const writer = await setup.writer(true);
  let written;
  try {
    const every = Math.ceil(plan.length / 5);
    written = await writeVolume(writer, plan, now, (done) => {
      if (done % every === 0) console.log(`  ${done} of ${plan.length} days written (${seconds(performance.now() - started)})`);
    });
  } finally {
    await writer.close();
  }
  const took = performance.now() - started;
  console.log(
    `  generated ${number(written.views)} views (${number(written.visitors)} visitor-days), ${number(written.clicks)} clicks, ${number(written.conversions)} conversions (${number(written.refunds)} refunded) ` +
      `from ${plan[0]!.day} to ${plan.at(-1)!.day} in ${seconds(took)} (${number(Math.round((written.views + written.clicks) / (took / 1000)))} rows/s)`,
  );
  if (setup.afterLoad) console.log(`  ${await setup.afterLoad()}`);
  console.log(`  database size: ${(await setup.size() / 1e9).toFixed(2)} GB`);
  return took;
}

/** Resolves to the milliseconds from the server's start to every finished day closed. */
async function waitForClosing(setup: EngineSetup, server: RunningServer): Promise<number> {
  for (const deadline = performance.now() + limits.closingMs; ; ) {
    const { count, last } = await setup.closedDays();
    if (last !== '' && last >= lastFinishedDay(new Date())) {
      const closedMs = performance.now() - server.startedAt;
      console.log(`  every finished day closed (${count} in closed_days, the last ${last}) ${seconds(closedMs)} after the server was started`);
      return closedMs;
    }
    if (/maintenance .* did not finish/.test(server.output())) throw new Error(`closing days failed: ${server.output().trim().slice(-2_000)}`);
    if (performance.now() > deadline) throw new Error(`closing was not done after ${limits.closingMs / 60_000} minutes (${count} days closed, the last ${last || 'none'})`);
    await sleep(limits.pollMs);
  }
}

async function start(setup: EngineSetup, children: Set<ChildProcess>): Promise<RunningServer> {
  const server = await startBuiltServer(await freePort(), { ...setup.variables, ADMIN_TOKEN: adminToken, TRUST_PROXY: 'true' }, limits.startMs, children);
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

async function measureServer(setup: EngineSetup, figures: VolumeFigures, children: Set<ChildProcess>): Promise<void> {
  let server = await start(setup, children);
  try {
    figures.readyMs = server.readyMs;
    figures.closedMs = await waitForClosing(setup, server);
    const admin = (days: number) => () => timedGet(`${server.base}/admin?days=${days}`, { authorization: `Bearer ${adminToken}` });

    const [first] = await repeat(1, admin(365));
    const year = await repeat(runs.admin, admin(365));
    figures.admin365 = timedSummary(year);
    console.log(`  GET /admin?days=365: ${timing(figures.admin365)}; the first after start-up ${ms(first!.ms)} (${first!.status}); ${kilobytes(answered(year).bytes)} of HTML, ${kilobytes(answered(year).wireBytes)} sent (brotli)`);
    const { read, render } = await reportParts(setup.settings);
    console.log(`    where its time goes, timed in this process: reading the report ${timing(read)}; rendering its HTML ${timing(render)}`);
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
    await server.stop();
    const yesterday = addDays(today, -1);
    const writtenClosed = await write(setup, async (writer) => {
      await writer.run(`delete from views where day = '${today}' and source like 'flood-%'`);
      await writer.run(`delete from daily_counts where day = '${yesterday}'`);
      await writer.run(`delete from closed_days where day = '${yesterday}'`);
      await writeSourceFlood(writer, yesterday, 86_400_000, floodSources, 'flood-closed');
    });
    await setup.afterDelete?.();
    server = await start(setup, children);
    await waitForClosing(setup, server);
    figures.floodClosed = await measureFlood(server, `yesterday (${yesterday}, closed: 1,000 sources kept, the rest in one row), written in ${seconds(writtenClosed)}`);
  } catch (error) {
    // What the server said last tells a crash from a refusal.
    const { exitCode, signalCode } = server.child;
    const state = exitCode !== null || signalCode !== null ? `the server had exited (${exitCode ?? signalCode})` : 'the server was still running';
    throw new Error(`${error instanceof Error ? error.message : String(error)}; ${state}; its last output:\n${server.output().trim().split('\n').slice(-15).join('\n')}`);
  } finally {
    await server.stop();
  }
}

/** A year's report read as npm run stats reads it (in process, read-only), and rendered as /admin renders it. */
async function reportParts(settings: DatabaseSettings): Promise<{ read: Summary; render: Summary }> {
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
    return { read: summary(reads), render: summary(renders) };
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

function printTargets(figures: VolumeFigures[]) {
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
  ];
  const plain = (value: (f: VolumeFigures) => number | undefined, format: (n: number) => string) => (f: VolumeFigures) => {
    const n = value(f);
    return n === undefined ? 'not measured' : format(n);
  };
  rows.push(
    ['generating the rows', '', plain((f) => f.generationMs, seconds)],
    ['first start to /healthz', '', plain((f) => f.readyMs, seconds)],
    ['... to every day closed', '', plain((f) => f.closedMs, seconds)],
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
