/**
 * Benchmarks that print figures (timings never gate the tests). Run with `npm run bench`, which builds first.
 * 1. Start-up: spawning the built server to its first answered request (median of 5).
 * 2. Lighthouse 13 (mobile preset, simulated throttling) against Debian's Chromium, median of 3 runs per
 *    route: the four category scores, FCP, LCP, TBT, CLS, bytes transferred and script bytes transferred.
 * 2b. Scripts before interaction: each route loaded in a fresh browser context at phone and desktop
 *    width, left alone until the network is quiet, and the scripts it fetched summed from the browser's
 *    resource timing (transferSize: the compressed body plus the 300 bytes browsers report for headers).
 * 2c. First tap at first paint: the menu button, an FAQ question and the carousel's next arrow tapped the
 *    moment a 375 px page first paints, with the CPU slowed to a low-end and a mid-tier phone's BenchmarkIndex
 *    (found in the run), median of 9; a bare page's same taps beside them.
 * 2d. Trace: the menu's and the bare popover's first tap once each at the low-end rate under a performance
 *    trace, with the main thread's tasks before the tap (what it waited behind).
 * 3. Throughput: autocannon on `/` of the built server, and on the same bytes served by express.static.
 * 4. Clicks: the server-side cost of recording one affiliate click on each engine (SQLite, and a throwaway
 *    PostgreSQL on loopback with its durable defaults), in process (the insert alone) and over HTTP
 *    (POST /api/clicks against GET /healthz on the same server), p50 and p99.
 * 5. Views: the same for a page-view report (the view store's insert, POST /api/views).
 * 5b. Leaves: a view's leave report (the leave store's check and write after its view; POST /api/views then
 *    POST /api/leaves from one address).
 * 6. Conversions: the same for a network's postback (the conversion store's record of a sale with a
 *    fresh txid, and GET /api/conversions with the key, one request in four repeating an earlier txid).
 * Parts 4 to 6 share one PostgreSQL cluster and one server on it.
 * 7. Memory: a server of its own on SQLite, inside a 256 MB memory cgroup where one can be made, takes 500,000
 *    click and view reports, each from an address of its own (half IPv4, half IPv6 in /64s of their own), then
 *    serves that day's /admin; its resident memory is read from /proc at start (idle), every 100,000 reports,
 *    after, and at its peak, with what the cgroup was charged and whether the kernel killed anything.
 * 8. Costs: importing a year of 200 campaigns' daily costs (a plain-form file of about 110,000 rows) with
 *    npm run costs:import on each engine, twice (the second is the same file again), then where the time goes
 *    in process, and two imports of the file at once (scripts/bench/costsImport.ts).
 * Volume (only when named: `npm run bench -- volume [--views N]`): a year of a busy site's rows on each
 *    engine, and what reading it costs the server and npm run stats (scripts/bench/volume.ts).
 * Each part lives in scripts/bench/: serving.ts (1 and 3), lighthouse.ts (2), scriptsFetched.ts (2b), interactions.ts (2c; deviceRate.ts finds the rates), tapTrace.ts (2d; traceTasks.ts reads the trace), barePage.ts (the floor of 2 to 2d),
 * recording.ts (4 to 6), memory.ts (7; reportFlood.ts sends its reports), costsImport.ts (8); benchServer.ts starts the built server they share;
 * benchParts.ts names the parts, and runBench.ts runs them.
 */
import { benchArguments, benchUsage } from './bench/benchParts';

async function main(): Promise<number> {
  const wanted = benchArguments(process.argv.slice(2));
  if ('help' in wanted) {
    process.stdout.write(`${benchUsage}\n`);
    return 0;
  }
  if ('problem' in wanted) {
    process.stderr.write(`bench: ${wanted.problem}\n${benchUsage}\n`);
    return 64;
  }
  const { runBench } = await import('./bench/runBench');
  await runBench(wanted);
  return 0;
}

main().then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  console.error(error);
  process.exit(1);
});
