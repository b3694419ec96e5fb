/**
 * Benchmarks that print figures (timings never gate the tests). Run with `npm run bench`, which builds first.
 * 1. Start-up: spawning the built server to its first answered request (median of 5).
 * 2. Lighthouse 13 (mobile preset, simulated throttling) against Debian's Chromium, median of 3 runs per
 *    route: the four category scores, FCP, LCP, TBT, CLS, bytes transferred and script bytes transferred.
 * 2b. Scripts before interaction: each route loaded in a fresh browser context at phone and desktop
 *    width, left alone until the network is quiet, and the scripts it fetched summed from the browser's
 *    resource timing (transferSize: the compressed body plus the 300 bytes browsers report for headers).
 * 3. Throughput: autocannon on `/` of the built server, and on the same bytes served by express.static.
 * 4. Clicks: the server-side cost of recording one affiliate click on each engine (SQLite, and a throwaway
 *    PostgreSQL on loopback with its durable defaults), in process (the insert alone) and over HTTP
 *    (POST /api/clicks against GET /healthz on the same server), p50 and p99.
 * 5. Views: the same for a page-view report (the view store's insert, POST /api/views).
 * 6. Conversions: the same for a network's postback (the conversion store's record of a sale with a
 *    fresh txid, and GET /api/conversions with the key, one request in four repeating an earlier txid).
 * Parts 4 to 6 share one PostgreSQL cluster and one server on it.
 * 7. Memory: a server of its own on SQLite takes 500,000 click and view reports, each from an address of its
 *    own (half IPv4, half IPv6 in /64s of their own), and its resident memory is read from /proc before,
 *    every 100,000 reports, after, and at its peak.
 * Volume (only when named: `npm run bench -- volume [--views N]`): a year of a busy site's rows on each
 *    engine, and what reading it costs the server and npm run stats (scripts/bench/volume.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import { createClickStore } from '../server/clicks/clickStore';
import { parseConversion } from '../server/conversions/conversionFields';
import { conversionsEndpoint } from '../server/conversions/conversionRoute';
import { createConversionStore } from '../server/conversions/conversionStore';
import type { DatabaseSettings } from '../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../server/db/openDatabase';
import { silentLogger } from '../server/lib/logger';
import { createViewStore } from '../server/views/viewStore';
import { clickEndpoint } from '../shared/clickBeacon';
import { pagePaths } from '../shared/routes';
import { viewEndpoint, type ViewBeaconBody } from '../shared/viewBeacon';
import { chromiumPath, launchBrowser, viewports } from '../tests/support/browser';
import { freePort } from '../tests/support/mainProcess';
import { startPostgresCluster } from '../tests/support/postgres';
import { postBeacons } from './bench/postBeacons';
import { benchVolume } from './bench/volume';

const root = path.join(__dirname, '..');
const mainScript = path.join(root, 'dist/server/main.cjs');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
/** The bench's click database: never the operator's data/. */
const benchClicksDb = path.join(mkdtempSync(path.join(tmpdir(), 'bench-clicks-')), 'clicks.sqlite');
/** The bench servers' CONVERSIONS_KEY, so GET /api/conversions exists on them. */
const benchConversionsKey = 'bench-conversions-key-0123456789abcdef';

async function waitUntilUp(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startServer(port: number, database: Record<string, string> = { CLICKS_DB: benchClicksDb }): Promise<ChildProcess> {
  const child = spawn(process.execPath, [mainScript], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://localhost:${port}`,
      ...database,
      CLICK_STATS: 'on',
      CONVERSIONS_KEY: benchConversionsKey,
      // Each benchmark report comes from its own X-Forwarded-For address, as many visitors would.
      TRUST_PROXY: 'true',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk));
  // A server that stops at start-up (a bad setting, a database it cannot use) ends the bench, saying why.
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`The bench's server on port ${port} exited with code ${code} before answering: ${errors.trim()}`);
  });
  await Promise.race([waitUntilUp(`http://127.0.0.1:${port}/healthz`), exited]);
  exited.catch(() => {});
  return child;
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function benchStartup() {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, [mainScript], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CLICKS_DB: benchClicksDb }, stdio: 'ignore' });
    await waitUntilUp(`http://127.0.0.1:${port}/`);
    runs.push(performance.now() - started);
    await stop(child);
  }
  console.log(`\nStart-up to first answered request: median ${median(runs).toFixed(0)} ms (runs ${runs.map((ms) => ms.toFixed(0)).join(', ')})`);
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  scriptBytes: number;
}

/** The bytes of script Lighthouse saw transferred (it never interacts, so all of it came before any interaction). */
function scriptBytesOf(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

async function benchLighthouse(base: string) {
  // Both are ES modules; this script runs as CommonJS.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  console.log('\nLighthouse 13, mobile preset, simulated throttling; median of 3 runs per route');
  console.log('route               perf  a11y  best   seo    FCP     LCP     TBT    CLS    bytes   script');
  try {
    for (const route of pagePaths) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await lighthouse(`${base}${route}`, { port: chrome.port, output: 'json', logLevel: 'error' });
        const lhr = result!.lhr;
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
        runs.push({
          performance: (lhr.categories.performance?.score ?? 0) * 100,
          accessibility: (lhr.categories.accessibility?.score ?? 0) * 100,
          bestPractices: (lhr.categories['best-practices']?.score ?? 0) * 100,
          seo: (lhr.categories.seo?.score ?? 0) * 100,
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          bytes: audit('total-byte-weight'),
          scriptBytes: scriptBytesOf(lhr),
        });
      }
      const pick = (key: keyof LighthouseFigures) => median(runs.map((run) => run[key]));
      console.log(
        `${route.padEnd(18)} ${pick('performance').toFixed(0).padStart(5)} ${pick('accessibility').toFixed(0).padStart(5)} ${pick('bestPractices').toFixed(0).padStart(5)} ${pick('seo').toFixed(0).padStart(5)}` +
          ` ${(pick('fcp') / 1000).toFixed(2).padStart(6)}s ${(pick('lcp') / 1000).toFixed(2).padStart(6)}s ${pick('tbt').toFixed(0).padStart(5)}ms ${pick('cls').toFixed(3).padStart(6)} ${(pick('bytes') / 1024).toFixed(1).padStart(6)} KiB ${(pick('scriptBytes') / 1024).toFixed(1).padStart(5)} KiB`,
      );
    }
  } finally {
    await chrome.kill();
  }
}

/** Script bytes each route fetches while nobody touches it, by the browser's own resource timing. */
async function benchScripts(base: string) {
  const browser = await launchBrowser();
  console.log('\nScripts fetched before any interaction (resource timing, fresh browser context, network quiet for 0.5 s and 1 s more)');
  console.log(`${'route'.padEnd(18)} ${'phone'.padEnd(25)} desktop`);
  try {
    for (const route of pagePaths) {
      const cells: string[] = [];
      for (const viewport of [viewports.phone, viewports.desktop]) {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.setViewport(viewport);
        await page.goto(`${base}${route}`, { waitUntil: 'networkidle0' });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const scripts = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
            .map((entry) => (entry as PerformanceResourceTiming).transferSize),
        );
        cells.push(`${(scripts.reduce((sum, bytes) => sum + bytes, 0) / 1024).toFixed(1).padStart(5)} KiB in ${scripts.length} files`);
        await context.close();
      }
      console.log(`${route.padEnd(18)} ${cells.map((cell) => cell.padEnd(25)).join(' ')}`);
    }
  } finally {
    await browser.close();
  }
}

function runAutocannon(url: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration: 10, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function benchThroughput(base: string) {
  const html = await (await fetch(`${base}/`, { headers: { 'Accept-Encoding': 'identity' } })).text();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-static-'));
  writeFileSync(path.join(dir, 'index.html'), html);
  const staticApp = express();
  staticApp.use(express.static(dir));
  const staticServer = staticApp.listen(0, '127.0.0.1');
  await once(staticServer, 'listening');
  const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`;
  try {
    const ours = await runAutocannon(`${base}/`);
    const theirs = await runAutocannon(staticUrl);
    console.log('\nThroughput on / (autocannon, 50 connections, 10 s, no compression asked for)');
    console.log(`  this server:      ${ours.requests.average.toFixed(0)} req/s, p99 ${ours.latency.p99} ms`);
    console.log(`  express.static:   ${theirs.requests.average.toFixed(0)} req/s, p99 ${theirs.latency.p99} ms (same ${html.length} bytes)`);
    console.log(`  ratio:            ${(ours.requests.average / theirs.requests.average).toFixed(2)}`);
  } finally {
    staticServer.close();
  }
}

/** Times each of `rows` awaited calls one after another, in microseconds, sorted. */
async function timeEach(rows: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const micros: number[] = [];
  for (let i = 0; i < rows; i++) {
    const started = process.hrtime.bigint();
    await call(i);
    micros.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return micros.sort((a, b) => a - b);
}

/** A store on its own connection to the engine (a fresh file, or the engine's cluster), timed on `rows` writes one after another. */
async function inProcessCost(settings: DatabaseSettings, rows: number, writer: (db: AppDatabase['db']) => (i: number) => Promise<unknown>) {
  const database = await openDatabase(settings, { logger: silentLogger });
  try {
    return await timeEach(rows, writer(database.db));
  } finally {
    await database.close();
  }
}

interface EngineTarget {
  name: string;
  /** A database of the engine for the in-process part: a fresh SQLite file, or the cluster the server uses too. */
  settings: DatabaseSettings;
  /** The built server on that engine. */
  base: string;
}

const insertLine = (what: string, micros: number[]) => `    ${what}: p50 ${percentile(micros, 50).toFixed(1)} µs, p99 ${percentile(micros, 99).toFixed(1)} µs`;
const httpLine = (what: string, result: autocannon.Result, counted = `${result['2xx']} acknowledged`) =>
  `    ${what}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s, ${counted}, ${result.non2xx} refused`;
const ratioLine = (what: string, p99s: number[]) => `  ${what} p99, PostgreSQL / SQLite: ${(p99s[1]! / Math.max(p99s[0]!, 1)).toFixed(2)}`;

async function benchClicks(engines: EngineTarget[]) {
  console.log('\nRecording a click');
  const p99s: number[] = [];
  for (const engine of engines) {
    const inserts = await inProcessCost(engine.settings, 5_000, (db) => {
      const store = createClickStore(db);
      return (i) => store.record({ at: new Date(), placement: 'hero', page: '/', referrerHost: 'www.google.com', device: 'mobile', visitor: `visitor-${i}`, via: 'beacon' });
    });
    const posts = await postBeacons(engine.base, clickEndpoint, JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.google.com' }));
    const health = await autocannon({ url: `${engine.base}/healthz`, connections: 10, duration: 5 });
    p99s.push(posts.latency.p99);
    console.log(`  ${engine.name}`);
    console.log(insertLine('insert (in process, 5,000 rows one after another)', inserts));
    console.log(httpLine(`POST ${clickEndpoint} (HTTP, 10 connections, 10 s)`, posts));
    console.log(`    GET /healthz on the same server, for scale:  p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms, ${health.requests.average.toFixed(0)} req/s`);
  }
  console.log(`${ratioLine(`POST ${clickEndpoint}`, p99s)} (target: at most 3)`);
}

async function benchViews(engines: EngineTarget[]) {
  console.log('\nRecording a page view');
  const body: ViewBeaconBody = { page: '/', referrer: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november' };
  const p99s: number[] = [];
  for (const engine of engines) {
    const inserts = await inProcessCost(engine.settings, 5_000, (db) => {
      const store = createViewStore(db);
      return (i) => store.record({ at: new Date(), page: '/', referrerHost: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november', device: 'mobile', visitor: `visitor-${i}` });
    });
    const posts = await postBeacons(engine.base, viewEndpoint, JSON.stringify(body));
    p99s.push(posts.latency.p99);
    console.log(`  ${engine.name}`);
    console.log(insertLine('insert (in process, 5,000 rows one after another)', inserts));
    console.log(httpLine(`POST ${viewEndpoint} (HTTP, 10 connections, 10 s)`, posts));
  }
  console.log(ratioLine(`POST ${viewEndpoint}`, p99s));
}

/** One sale in this many repeats a txid sent earlier, as a network retrying would. */
const repeatEvery = 4;
/** How far back a repeat reaches: to a txid long since answered, and a fresh one (no multiple of repeatEvery back). */
const repeatBack = 25 * repeatEvery + 1;

/** GET /api/conversions for 10 s over 10 connections: sales with fresh txids, one in `repeatEvery` a txid already sent. */
async function sendPostbacks(base: string, prefix: string) {
  let sent = 0;
  const outcomes = new Map<string, number>();
  const result = await autocannon({
    url: base,
    connections: 10,
    duration: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          sent += 1;
          const n = sent % repeatEvery === 0 && sent > repeatBack ? sent - repeatBack : sent;
          const query = new URLSearchParams({ key: benchConversionsKey, txid: `${prefix}-${n}`, subid: 'hero', payout: '12.50', currency: 'USD' });
          return { ...req, path: `${conversionsEndpoint}?${query}` };
        },
        onResponse: (_status, body) => {
          const outcome = body.trim();
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, outcomes };
}

async function benchConversions(engines: EngineTarget[]) {
  console.log('\nRecording a postback');
  const p99s: number[] = [];
  for (const engine of engines) {
    const records = await inProcessCost(engine.settings, 5_000, (db) => {
      const store = createConversionStore(db);
      const { report } = parseConversion({ txid: 'store', subid: 'hero', payout: '12.50' });
      return (i) => store.record({ ...report!, txid: `store-${i}` }, 'postback');
    });
    const { result, outcomes } = await sendPostbacks(engine.base, `bench-${engine.name}-${Date.now()}`);
    p99s.push(result.latency.p99);
    const counted = ['recorded', 'duplicate'].map((outcome) => `${outcomes.get(outcome) ?? 0} ${outcome}`).join(', ');
    console.log(`  ${engine.name}`);
    console.log(insertLine('record a sale (in process, 5,000 fresh txids one after another)', records));
    console.log(httpLine(`GET ${conversionsEndpoint} (HTTP, 10 connections, 10 s, 1 in ${repeatEvery} a repeated txid)`, result, counted));
  }
  console.log(ratioLine(`GET ${conversionsEndpoint}`, p99s));
}

/** Reports the memory part sends: enough to fill every per-address and per-visitor limiter (100,000 keys each) several times over. */
const memoryReports = 500_000;
/** The memory part stops after this long, whatever it has sent by then. */
const memoryTimeLimitMs = 10 * 60_000;

/** A process's resident memory now and at its peak, in MB, from /proc (Linux). */
function residentMemory(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const megabytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { now: megabytes('VmRSS'), peak: megabytes('VmHWM') };
}

/** Report `i`'s address, never used twice (below 2^24): in pairs, one from 10.0.0.0/8, then one from a /64 of 2001:db8::/32 of its own. */
const distinctAddress = (i: number) =>
  (i >> 1) % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`;

async function benchMemory() {
  const port = await freePort();
  const server = await startServer(port, { CLICKS_DB: path.join(mkdtempSync(path.join(tmpdir(), 'bench-memory-')), 'clicks.sqlite') });
  const pid = server.pid!;
  const bodies = {
    click: JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.google.com' }),
    view: JSON.stringify({ page: '/', referrer: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november' } satisfies ViewBeaconBody),
  };
  console.log(`\nMemory of a server sent ${memoryReports.toLocaleString('en')} reports (clicks and views in turn), each from an address of its own (10 keep-alive connections)`);
  try {
    const before = residentMemory(pid);
    console.log(`  before:  resident ${before.now.toFixed(1)} MB`);
    let sent = 0;
    let answered = 0;
    const options: autocannon.Options = {
      url: `http://127.0.0.1:${port}`,
      connections: 10,
      amount: memoryReports,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const i = sent++;
            return {
              ...req,
              path: i % 2 === 0 ? clickEndpoint : viewEndpoint,
              body: i % 2 === 0 ? bodies.click : bodies.view,
              headers: { ...req.headers, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'Mozilla/5.0 (bench) Mobile', 'x-forwarded-for': distinctAddress(i) },
            };
          },
        },
      ],
    };
    let timeLimit: NodeJS.Timeout | undefined;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)));
      instance.on('response', () => {
        answered += 1;
        if (answered % 100_000 === 0) console.log(`  after ${answered.toLocaleString('en')}: resident ${residentMemory(pid).now.toFixed(1)} MB`);
      });
      timeLimit = setTimeout(() => instance.stop(), memoryTimeLimitMs);
    }).finally(() => clearTimeout(timeLimit));
    const after = residentMemory(pid);
    console.log(`  after:   resident ${after.now.toFixed(1)} MB, peak ${after.peak.toFixed(1)} MB (${result['2xx']} acknowledged, ${result.non2xx} refused, ${result.errors + result.timeouts} failed, in ${result.duration.toFixed(0)} s)`);
  } finally {
    await stop(server);
  }
}

/** SQLite on the server already running; PostgreSQL on a cluster of its own with fsync and synchronous_commit on, as a real one. */
async function withEngines(sqliteBase: string, run: (engines: EngineTarget[]) => Promise<void>) {
  const cluster = await startPostgresCluster({ settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', wal_level: 'replica' } });
  const postgresPort = await freePort();
  const postgresServer = await startServer(postgresPort, { DATABASE_URL: cluster.url });
  try {
    await run([
      { name: 'SQLite', settings: { engine: 'sqlite', file: path.join(mkdtempSync(path.join(tmpdir(), 'bench-insert-')), 'clicks.sqlite') }, base: sqliteBase },
      { name: 'PostgreSQL', settings: { engine: 'postgres', url: cluster.url }, base: `http://127.0.0.1:${postgresPort}` },
    ]);
  } finally {
    await stop(postgresServer);
    await cluster.destroy();
  }
}

async function main() {
  const only = process.argv.slice(2);
  // Volume runs only when named, alone: it takes many minutes, and the other arguments are its options.
  if (only.includes('volume')) return benchVolume(only.filter((arg) => arg !== 'volume'));
  const wants = (name: string) => only.length === 0 || only.includes(name);
  if (wants('startup')) await benchStartup();
  const port = await freePort();
  const server = await startServer(port);
  try {
    if (wants('lighthouse')) await benchLighthouse(`http://localhost:${port}`);
    if (wants('lighthouse') || wants('scripts')) await benchScripts(`http://localhost:${port}`);
    if (wants('throughput')) await benchThroughput(`http://127.0.0.1:${port}`);
    const recording = (['clicks', 'views', 'conversions'] as const).filter(wants);
    if (recording.length > 0) {
      await withEngines(`http://127.0.0.1:${port}`, async (engines) => {
        if (wants('clicks')) await benchClicks(engines);
        if (wants('views')) await benchViews(engines);
        if (wants('conversions')) await benchConversions(engines);
      });
    }
  } finally {
    await stop(server);
  }
  if (wants('memory')) await benchMemory();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
