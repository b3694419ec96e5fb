import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createClickStore } from '../../server/clicks/clickStore';
import { parseConversion } from '../../server/conversions/conversionFields';
import { conversionsEndpoint } from '../../server/conversions/conversionRoute';
import { createConversionStore } from '../../server/conversions/conversionStore';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { createLeaveStore } from '../../server/leaves/leaveStore';
import { leaveEndpoint, type LeaveBeaconBody } from '../../shared/leaveBeacon';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint, type ViewBeaconBody } from '../../shared/viewBeacon';
import { freePort } from '../../tests/support/mainProcess';
import { startPostgresCluster } from '../../tests/support/postgres';
import { benchConversionsKey, startServer, stop } from './benchServer';
import { percentile } from './percentiles';
import { postBeacons, postViewsAndLeaves } from './postBeacons';

/** Parts 4 to 6: what recording a click, a page view and a postback costs on each engine, in process and over HTTP. */

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
async function inProcessCost(
  settings: DatabaseSettings,
  rows: number,
  // The write to time, made ready first (untimed) when it needs rows of its own: a leave needs its view.
  writer: (db: AppDatabase['db']) => ((i: number) => Promise<unknown>) | Promise<(i: number) => Promise<unknown>>,
) {
  const database = await openDatabase(settings, { logger: silentLogger });
  try {
    return await timeEach(rows, await writer(database.db));
  } finally {
    await database.close();
  }
}

export interface EngineTarget {
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

export async function benchClicks(engines: EngineTarget[]) {
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

export async function benchViews(engines: EngineTarget[]) {
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

/**
 * A page view's leave report (issue 29): in process, the leave store's check and write, each leave's view
 * recorded first and not timed; over HTTP, each connection sends a view and then its leave, from an address of its own.
 */
export async function benchLeaves(engines: EngineTarget[]) {
  console.log('\nRecording a leave report');
  const view: ViewBeaconBody = { page: '/', referrer: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november' };
  const leave: LeaveBeaconBody = { page: '/', variants: '', sections: ['hero', 'what-is', 'how-it-works'], seen: ['hero', 'explainer'], engagedSeconds: 42 };
  const p99s: number[] = [];
  for (const engine of engines) {
    const records = await inProcessCost(engine.settings, 5_000, async (db) => {
      // Each leave's view first, untimed; then the leaves are timed one after another.
      const views = createViewStore(db);
      const at = new Date();
      for (let i = 0; i < 5_000; i++) await views.record({ at, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: `leaver-${i}` });
      const leaves = createLeaveStore(db);
      return async (i) => {
        const outcome = await leaves.record({ at, page: '/', device: 'mobile', visitor: `leaver-${i}`, variants: '', sections: leave.sections, seen: leave.seen, clicked: [], engagedSeconds: 42 });
        if (outcome !== 'recorded') throw new Error(`a leave after its view was not recorded: ${outcome}`);
      };
    });
    const posts = await postViewsAndLeaves(engine.base, viewEndpoint, JSON.stringify(view), leaveEndpoint, JSON.stringify(leave));
    p99s.push(posts.latency.p99);
    console.log(`  ${engine.name}`);
    console.log(insertLine('check and write (in process, 5,000 leaves, their views recorded first)', records));
    console.log(httpLine(`POST ${viewEndpoint} then ${leaveEndpoint} (HTTP, 10 connections, 10 s, both timed)`, posts));
  }
  console.log(ratioLine(`POST ${viewEndpoint} and ${leaveEndpoint}`, p99s));
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

export async function benchConversions(engines: EngineTarget[]) {
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

/** SQLite on the server already running; PostgreSQL on a cluster of its own with fsync and synchronous_commit on, as a real one. */
export async function withEngines(sqliteBase: string, run: (engines: EngineTarget[]) => Promise<void>) {
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
