import autocannon from 'autocannon';
import { clickEndpoint } from '../../shared/clickBeacon';
import { viewEndpoint, type ViewBeaconBody } from '../../shared/viewBeacon';

/**
 * A flood of click and view reports, each from an address of its own (through X-Forwarded-For, so the
 * server needs TRUST_PROXY): what the memory bench (memory.ts) and the 256 MB test
 * (tests/server/memoryLimit.test.ts) send a server.
 */

/** Report `i`'s address, never used twice (below 2^24): in pairs, one from 10.0.0.0/8, then one from a /64 of 2001:db8::/32 of its own. */
export const distinctAddress = (i: number) =>
  (i >> 1) % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`;

const bodies = {
  click: JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.google.com' }),
  view: JSON.stringify({ page: '/', referrer: 'www.google.com', source: 'newsletter', medium: 'email', campaign: 'november' } satisfies ViewBeaconBody),
};

export interface FloodOptions {
  /** How many reports: clicks and views in turn, a click first. */
  reports: number;
  /** The first report's number (0 unless given, and even): a flood that goes on from an earlier one, from addresses of its own. */
  firstReport?: number;
  /** Keep-alive connections (10 unless given). */
  connections?: number;
  /** The flood stops after this long, whatever it has sent by then. */
  timeLimitMs: number;
  /** Called after each answer, with how many have been answered. */
  onAnswer?: (answered: number) => void;
}

export interface FloodResult {
  acknowledged: number;
  refused: number;
  failed: number;
  seconds: number;
}

/** Sends the flood to the server at `url` (http://host:port) and resolves once every report is answered or the time is up. */
export async function floodReports(url: string, { reports, firstReport = 0, connections = 10, timeLimitMs, onAnswer }: FloodOptions): Promise<FloodResult> {
  let sent = firstReport;
  let answered = 0;
  const options: autocannon.Options = {
    url,
    connections,
    amount: reports,
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
    instance.on('response', () => onAnswer?.(++answered));
    timeLimit = setTimeout(() => instance.stop(), timeLimitMs);
  }).finally(() => clearTimeout(timeLimit));
  return { acknowledged: result['2xx'], refused: result.non2xx, failed: result.errors + result.timeouts, seconds: result.duration };
}
