import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint, type ViewBeaconBody } from '../../shared/viewBeacon';
import { freePort } from '../../tests/support/mainProcess';
import { startServer, stop } from './benchServer';

/** Part 7: the resident memory of a server taking reports from half a million addresses. */

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

export async function benchMemory() {
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
