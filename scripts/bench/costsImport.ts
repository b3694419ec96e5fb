import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { readCostReport } from '../../server/costs/costReports';
import { readCosts, replaceCosts } from '../../server/costs/costStore';
import { decodeCsvText } from '../../server/conversions/csvText';
import type { DatabaseSettings } from '../../server/db/databaseSettings';
import { openDatabase } from '../../server/db/openDatabase';
import { projectRoot } from '../../server/lib/paths';
import { silentLogger } from '../../server/lib/logger';
import { addDays, utcDay } from '../../server/lib/utcDay';
import { freePort } from '../../tests/support/mainProcess';
import { startPostgresCluster } from '../../tests/support/postgres';
import { maxReportBytes } from '../costs-import';
import { startServer, stop } from './benchServer';
import { percentile } from './percentiles';

/**
 * Part 8 (`npm run bench -- costs`): importing a year of 200 campaigns' daily costs (issue 27: within
 * 10 s). A plain-form file of the 365 UTC days up to today × 200 campaigns × one or two ads is imported
 * by `npm run costs:import` on each engine, twice (the second run is the same file again: nothing
 * changes), timed from outside as an operator waits for it (npm's and Node's start included); then the
 * same work in process, split into reading the file and writing it, and two imports of the file at once.
 * Last, on SQLite, what an import in another process does to the built server on the same file: `GET /`
 * and click reports timed before and while it runs (SQLite has one writer at a time, and the server
 * writes a click in its serving thread).
 */

const campaigns = 200;
const days = 365;
const sources = ['facebook', 'google', 'bing', 'tiktok'] as const;

/** The year's file: half the campaigns with two ads, the rest one; amounts from 1.00 to 400.99. */
function yearOfCosts(lastDay: string): { text: string; rows: number } {
  const lines = ['day,source,campaign,content,cost,currency'];
  const first = addDays(lastDay, -(days - 1));
  for (let d = 0; d < days; d++) {
    const day = addDays(first, d);
    for (let c = 0; c < campaigns; c++) {
      const ads = c % 2 === 0 ? ['ad-1', 'ad-2'] : ['ad-1'];
      ads.forEach((content, a) => {
        const cents = 100 + ((d * 7919 + c * 104_729 + a * 31) % 40_000);
        lines.push(`${day},${sources[c % sources.length]},campaign-${String(c + 1).padStart(3, '0')},${content},${(cents / 100).toFixed(2)},USD`);
      });
    }
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

interface Run {
  seconds: number;
  code: number | null;
  written: string;
  stderr: string;
}

/** `npm run costs:import -- FILE [args]`, as an operator types it, timed to its end. */
async function npmImport(file: string, args: string[], env: Record<string, string>): Promise<Run> {
  const environment = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete environment.DATABASE_URL;
  const started = process.hrtime.bigint();
  const child = spawn('npm', ['run', '--silent', 'costs:import', '--', file, ...args], { cwd: projectRoot, env: environment });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, code, written: /written: .*/.exec(stdout)?.[0] ?? stdout.trim(), stderr: stderr.trim() };
}

const runLine = (what: string, run: Run) => `    ${what}: ${run.seconds.toFixed(2)} s, exit ${run.code}, ${run.written}${run.stderr ? ` (stderr: ${run.stderr})` : ''}`;

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

const browserAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** `GET /` and a click report (each from an address of its own, so none is refused) one after another until stopped, each timed in ms. */
function keepAsking(base: string) {
  let running = true;
  let address = 0;
  const pages: number[] = [];
  const clicks: number[] = [];
  const loop = async (times: number[], ask: () => Promise<Response>) => {
    while (running) {
      const started = performance.now();
      await (await ask()).arrayBuffer();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const loops = Promise.all([
    loop(pages, () => fetch(`${base}/`)),
    loop(clicks, () => {
      address += 1;
      return fetch(`${base}/api/clicks`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': browserAgent, 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` },
        body: JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.google.com' }),
      });
    }),
  ]);
  return {
    marks: () => ({ pages: pages.length, clicks: clicks.length }),
    stop: async () => {
      running = false;
      await loops;
      return { pages, clicks };
    },
  };
}

const spread = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `${sorted.length} answered, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms`;
};

/** The built server on a SQLite file, asked for `/` and sent clicks for 2 s alone, then while the year is imported into the same file. */
async function serverDuringImport(file: string, dir: string) {
  const sqliteFile = path.join(dir, 'served.sqlite');
  const port = await freePort();
  const server = await startServer(port, { CLICKS_DB: sqliteFile });
  try {
    const asking = keepAsking(`http://127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = asking.marks();
    const run = await npmImport(file, ['--db', sqliteFile], {});
    const { pages, clicks } = await asking.stop();
    console.log(`  the built server on the same SQLite file while another process imports the year`);
    console.log(runLine('the import', run));
    console.log(`    GET /, 2 s alone: ${spread(pages.slice(0, before.pages))}; during the import: ${spread(pages.slice(before.pages))}`);
    console.log(`    POST /api/clicks, 2 s alone: ${spread(clicks.slice(0, before.clicks))}; during the import: ${spread(clicks.slice(before.clicks))}`);
  } finally {
    await stop(server);
  }
}

interface Engine {
  name: string;
  /** A fresh, empty database of the engine each call, and what to give costs:import for it. */
  fresh(): Promise<{ settings: DatabaseSettings; args: string[]; env: Record<string, string> }>;
}

export async function benchCostsImport() {
  // The year's file and the SQLite databases (some 90 MB): removed however the bench ends.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-costs-'));
  try {
    await benchCostsImportIn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchCostsImportIn(dir: string) {
  const lastDay = utcDay(new Date());
  const file = path.join(dir, 'year-of-costs.csv');
  const year = yearOfCosts(lastDay);
  writeFileSync(file, year.text);
  const bytes = statSync(file).size;
  console.log(`\nImporting a year of costs: ${days} days × ${campaigns} campaigns × 1–2 ads (target: within 10 s)`);
  console.log(
    `  the file: ${year.rows.toLocaleString('en')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of the ${maxReportBytes / 1024 / 1024} MB costs:import takes (${((100 * bytes) / maxReportBytes).toFixed(0)}%)`,
  );

  const help = await timed(async () => {
    const child = spawn('npm', ['run', '--silent', 'costs:import', '--', '--help'], { cwd: projectRoot, stdio: 'ignore' });
    await once(child, 'close');
  });
  console.log(`  npm and Node starting costs:import alone (--help): ${(help.ms / 1000).toFixed(2)} s`);

  // The same durable settings as the recording parts: fsync and synchronous_commit on.
  const cluster = await startPostgresCluster({ settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', wal_level: 'replica' } });
  let databases = 0;
  const engines: Engine[] = [
    {
      name: 'SQLite',
      fresh: async () => {
        const sqliteFile = path.join(dir, `costs-${++databases}.sqlite`);
        return { settings: { engine: 'sqlite', file: sqliteFile }, args: ['--db', sqliteFile], env: {} };
      },
    },
    {
      name: 'PostgreSQL',
      fresh: async () => {
        const name = `bench_costs_${++databases}`;
        const admin = new Client({ connectionString: cluster.url });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        const url = new URL(cluster.url);
        url.pathname = `/${name}`;
        return { settings: { engine: 'postgres', url: url.toString() }, args: [], env: { DATABASE_URL: url.toString() } };
      },
    },
  ];
  try {
    for (const engine of engines) {
      console.log(`  ${engine.name}`);
      const target = await engine.fresh();
      const first = await npmImport(file, target.args, target.env);
      const again = await npmImport(file, target.args, target.env);
      console.log(runLine('npm run costs:import, into an empty database', first));
      console.log(runLine('the same file again', again));

      // In process, on a database of its own: where the time goes.
      const own = await engine.fresh();
      const database = await openDatabase(own.settings, { logger: silentLogger });
      try {
        const read = await timed(() => {
          const decoded = decodeCsvText(readFileSync(file));
          if (decoded.error !== undefined) throw new Error(decoded.error);
          const report = readCostReport(decoded.text);
          if ('error' in report) throw new Error(report.error);
          return report;
        });
        const write = await timed(() => replaceCosts(database.db, read.value.rows));
        const rewrite = await timed(() => replaceCosts(database.db, read.value.rows));
        const held = (await readCosts(database.db, { from: addDays(lastDay, -(days - 1)), to: lastDay })).length;
        console.log(
          `    in process: reading and checking the file ${read.ms.toFixed(0)} ms; writing it (${engine.name === 'SQLite' ? 'in slices of 40 ms with 30 ms pauses' : 'one transaction'}) ${write.ms.toFixed(0)} ms, ${write.value.changed.toLocaleString('en')} new; again ${rewrite.ms.toFixed(0)} ms, ${rewrite.value.unchanged.toLocaleString('en')} already held; ${held.toLocaleString('en')} costs stored`,
        );
      } finally {
        await database.close();
      }

      // Two instances importing the same year at once: one writes, the other waits for it and finds every row held.
      const shared = await engine.fresh();
      // Created and migrated first, as a running site leaves it.
      await (await openDatabase(shared.settings, { logger: silentLogger })).close();
      const both = await timed(() => Promise.all([npmImport(file, shared.args, shared.env), npmImport(file, shared.args, shared.env)]));
      const check = await openDatabase(shared.settings, { logger: silentLogger });
      const stored = await readCosts(check.db, { from: addDays(lastDay, -(days - 1)), to: lastDay }).finally(() => check.close());
      console.log(`    two imports of the file at once: both done in ${(both.ms / 1000).toFixed(2)} s, ${stored.length.toLocaleString('en')} costs stored`);
      for (const [index, run] of both.value.entries()) console.log(runLine(`  import ${index + 1}`, run));
    }
  } finally {
    await cluster.destroy();
  }
  await serverDuringImport(file, dir);
}
