import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/support/mainProcess';
import { openMemoryCgroup } from '../../tests/support/memoryCgroup';
import { startServer, stop } from './benchServer';
import { floodReports } from './reportFlood';

/**
 * Part 7: the memory of a server taking reports from half a million addresses, then reporting that day on
 * /admin: resident at start (idle), as the flood goes, and its peak; inside a 256 MB memory cgroup (as
 * deploy/auctions-guide.service's MemoryMax holds it) where one can be made, which must not kill it.
 */

/** Reports the memory part sends: enough to fill every per-address and per-visitor limiter (100,000 keys each) several times over. */
const memoryReports = 500_000;
/** The memory part stops after this long, whatever it has sent by then. */
const memoryTimeLimitMs = 10 * 60_000;
/** The memory cgroup's limit: the smallest rented server's share (issue 28). */
const cgroupLimitBytes = 256 * 1024 * 1024;
const adminToken = 'bench-memory-admin-token-0123456789';

/** A process's resident memory now and at its peak, in MB, from /proc (Linux). */
function residentMemory(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const megabytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { now: megabytes('VmRSS'), peak: megabytes('VmHWM') };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function benchMemory() {
  const port = await freePort();
  const opened = openMemoryCgroup('auctions-guide-bench-memory', cgroupLimitBytes);
  const cgroup = 'cgroup' in opened ? opened.cgroup : undefined;
  console.log(`\nMemory of a server sent ${memoryReports.toLocaleString('en')} reports (clicks and views in turn), each from an address of its own (10 keep-alive connections), then /admin of that day`);
  console.log(cgroup ? `  inside a memory cgroup (v${cgroup.version}) of ${mb(cgroupLimitBytes)}, memory and swap` : `  not in a memory cgroup: ${(opened as { unusable: string }).unusable}`);
  const cgroupLine = () => (cgroup ? `; cgroup charged ${mb(cgroup.usageBytes())} (${mb(cgroup.charged().fileBytes)} of it file cache), peak ${mb(cgroup.peakBytes())}, killed for memory: ${cgroup.oomKills()}` : '');
  try {
    const server = await startServer(
      port,
      { CLICKS_DB: path.join(mkdtempSync(path.join(tmpdir(), 'bench-memory-')), 'clicks.sqlite'), ADMIN_TOKEN: adminToken },
      cgroup?.inside,
    );
    const pid = server.pid!;
    try {
      const idle = residentMemory(pid);
      console.log(`  idle, at start: resident ${idle.now.toFixed(1)} MB${cgroupLine()}`);
      const flood = await floodReports(`http://127.0.0.1:${port}`, {
        reports: memoryReports,
        timeLimitMs: memoryTimeLimitMs,
        onAnswer: (answered) => {
          if (answered % 100_000 === 0) console.log(`  after ${answered.toLocaleString('en')}: resident ${residentMemory(pid).now.toFixed(1)} MB`);
        },
      });
      const after = residentMemory(pid);
      console.log(
        `  after:   resident ${after.now.toFixed(1)} MB, peak ${after.peak.toFixed(1)} MB (${flood.acknowledged} acknowledged, ${flood.refused} refused, ${flood.failed} failed, in ${flood.seconds.toFixed(0)} s)${cgroupLine()}`,
      );
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/admin?days=1`, { headers: { authorization: `Basic ${Buffer.from(`bench:${adminToken}`).toString('base64')}` } });
      const html = await response.text();
      const report = residentMemory(pid);
      console.log(
        `  /admin of that day: ${response.status}, ${(html.length / 1024).toFixed(0)} KB in ${(performance.now() - started).toFixed(0)} ms; resident ${report.now.toFixed(1)} MB, peak ${report.peak.toFixed(1)} MB${cgroupLine()}`,
      );
      console.log(`  idle ${idle.now.toFixed(0)} MB, peak ${report.peak.toFixed(0)} MB (for comparison: GoatCounter, one Go binary, runs in tens of megabytes)`);
    } finally {
      // A server the kernel killed has nothing left to stop.
      if (server.exitCode === null && server.signalCode === null) await stop(server);
    }
  } finally {
    cgroup?.remove();
  }
}
