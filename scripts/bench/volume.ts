/**
 * npm run bench -- volume [--views N] [--engine sqlite|postgres] [--memory-limit MB|off] [--keep]: a year of a busy site (10,000,000 page
 * views, 1,000,000 clicks, 50,000 conversions unless --views says fewer; 200 paid campaigns of an ad or
 * two, each with a cost every day) on SQLite and on a throwaway
 * PostgreSQL, then the built server on it: how long closing the year's days takes, /admin for 365 and 30
 * days, a page asked for while a year's report is being read, npm run stats -- --json --days 365, the
 * cost of recording a view and a click, and /admin after a flood of 100,000 made-up sources; last, the
 * figures against the issue's targets.
 * The rows: volumePlan.ts (how many, on which days), volumeTraffic.ts (their shape), volumeRows.ts (writing
 * them through bulkWriter.ts); the server: volumeServer.ts (started and timed), volumeMeasurements.ts (what is
 * timed), volumeEngines.ts (each engine's database), volumeFigures.ts (the figures and the targets' table).
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { openMemoryCgroup, type MemoryCgroup } from '../../tests/support/memoryCgroup';
import { startPostgresCluster } from '../../tests/support/postgres';
import { postgresSetup, sqliteSetup, type EngineSetup } from './volumeEngines';
import { load, number, printTargets, seconds, type VolumeFigures } from './volumeFigures';
import { measureServer } from './volumeMeasurements';
import { planDays, volumeCounts, volumeDays, type VolumeCounts } from './volumePlan';
import { writeVolume } from './volumeRows';
import { paidCampaigns } from './volumeTraffic';

const usage = 'npm run bench -- volume [--views N] [--engine sqlite|postgres] [--memory-limit MB|off] [--keep]';
/** The memory cgroups made and not yet removed: a bench stopped from outside removes them too. */
const openCgroups = new Set<MemoryCgroup>();
/** The server runs in a memory cgroup of this many MB (deploy/auctions-guide.service's MemoryMax) where one can be made. */
const defaultMemoryLimitMb = 256;
const defaultViews = 10_000_000;

function volumeOptions(args: string[]): { counts: VolumeCounts; engines: string[]; memoryLimitMb: number | undefined; keep: boolean } {
  const { values } = parseArgs({ args, options: { views: { type: 'string' }, engine: { type: 'string', multiple: true }, 'memory-limit': { type: 'string' }, keep: { type: 'boolean' } }, strict: true, allowPositionals: false });
  const views = values.views === undefined ? defaultViews : Number(values.views.replaceAll(/[,_]/g, ''));
  if (!Number.isSafeInteger(views) || views < 1_000 || views > 100_000_000) throw new Error(`--views must be a whole number from 1,000 to 100,000,000, got "${values.views}"\n${usage}`);
  const engines = values.engine ?? ['sqlite', 'postgres'];
  for (const engine of engines) if (!['sqlite', 'postgres'].includes(engine)) throw new Error(`--engine must be sqlite or postgres, got "${engine}"\n${usage}`);
  const limit = values['memory-limit'];
  const memoryLimitMb = limit === 'off' ? undefined : limit === undefined ? defaultMemoryLimitMb : Number(limit);
  if (memoryLimitMb !== undefined && !(Number.isSafeInteger(memoryLimitMb) && memoryLimitMb >= 64 && memoryLimitMb <= 65_536)) throw new Error(`--memory-limit must be a whole number of MB from 64 to 65,536, or off, got "${limit}"\n${usage}`);
  return { counts: volumeCounts(views), engines, memoryLimitMb, keep: values.keep === true };
}

export async function benchVolume(args: string[]): Promise<void> {
  const { counts, engines, memoryLimitMb, keep } = volumeOptions(args);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-volume-'));
  const children = new Set<ChildProcess>();
  // Stopped from outside: no server outlives the bench, nor its files (the PostgreSQL cluster has its own watchdog).
  const onSignal = (signal: NodeJS.Signals) => {
    for (const child of children) child.kill('SIGKILL');
    for (const cgroup of openCgroups) cgroup.remove();
    rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  console.log(`\nA year of a busy site: ${number(counts.views)} page views, ${number(counts.clicks)} clicks, ${number(counts.conversions)} conversions over ${volumeDays} UTC days, today included`);
  const figures: VolumeFigures[] = [];
  try {
    if (engines.includes('sqlite')) figures.push(await onEngine(sqliteSetup(path.join(dir, 'clicks.sqlite')), counts, children, memoryLimitMb));
    if (engines.includes('postgres')) {
      // The recording parts' cluster: PostgreSQL's durable defaults, fsync and synchronous_commit on.
      const cluster = await startPostgresCluster({ timeoutMs: 120_000, settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', wal_level: 'replica' } });
      try {
        figures.push(await onEngine(postgresSetup(cluster.url), counts, children, memoryLimitMb));
      } finally {
        await cluster.destroy();
      }
    }
  } finally {
    // --keep leaves the SQLite file, its days closed, for profiling the server on it (the PostgreSQL cluster goes).
    if (keep) console.log(`\nkept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  printTargets(figures);
}

/**
 * Generation, then the server on the result, in a memory cgroup of memoryLimitMb where one can be made (the
 * database's own server, PostgreSQL, stays outside it: the limit is the site's); a failure ends this
 * engine's part with its message, and the figures so far are kept.
 */
async function onEngine(setup: EngineSetup, counts: VolumeCounts, children: Set<ChildProcess>, memoryLimitMb: number | undefined): Promise<VolumeFigures> {
  const figures: VolumeFigures = { engine: setup.name };
  console.log(`\n${setup.name} (${load()})`);
  const opened = memoryLimitMb === undefined ? undefined : openMemoryCgroup(`auctions-guide-bench-volume-${process.pid}`, memoryLimitMb * 1024 * 1024);
  const cgroup = opened && 'cgroup' in opened ? opened.cgroup : undefined;
  if (cgroup) openCgroups.add(cgroup);
  try {
    figures.generationMs = await generate(setup, counts);
    if (cgroup) console.log(`  the server runs in a memory cgroup (v${cgroup.version}) of ${memoryLimitMb} MB, page cache included`);
    else console.log(`  the server runs without a memory limit${opened && 'unusable' in opened ? ` (no memory cgroup: ${opened.unusable})` : ''}`);
    await measureServer(setup, figures, children, cgroup);
  } catch (error) {
    console.log(`  stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (cgroup && memoryLimitMb !== undefined) {
      figures.memoryLimit = { limitMb: memoryLimitMb, peakMb: Math.round(cgroup.peakBytes() / 1024 / 1024), oomKills: cgroup.oomKills() };
      console.log(`  the memory cgroup's peak: ${figures.memoryLimit.peakMb} MB of ${memoryLimitMb} MB, page cache included; processes killed for memory: ${figures.memoryLimit.oomKills}`);
      cgroup.remove();
      openCgroups.delete(cgroup);
    }
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
    `  generated ${number(written.views)} views (${number(written.visitors)} visitor-days) with ${number(written.leaves)} leave reports, ${number(written.clicks)} clicks, ${number(written.conversions)} conversions (${number(written.refunds)} refunded) ` +
      `from ${plan[0]!.day} to ${plan.at(-1)!.day} in ${seconds(took)} (${number(Math.round((written.views + written.clicks) / (took / 1000)))} rows/s); ` +
      `${number(paidCampaigns.length)} paid campaigns with ${number(paidCampaigns.reduce((sum, { ads }) => sum + ads.length, 0))} ads brought ${number(written.paidVisitors)} of the visitor-days and ${number(written.costs)} rows of daily costs`,
  );
  if (setup.afterLoad) console.log(`  ${await setup.afterLoad()}`);
  console.log(`  database size: ${(await setup.size() / 1e9).toFixed(2)} GB`);
  return took;
}
