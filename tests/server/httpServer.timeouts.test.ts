import { connect } from 'node:net';
import { serverTimeouts } from '../../server/httpServer';
import { clickEndpoint } from '../../shared/clickBeacon';
import { startTestServer, type RunningServer } from '../support/testApp';

/**
 * The documented limits, measured from outside with raw sockets against the real app: headers within
 * 10 s, the whole request within 30 s. Node checks them every connectionsCheckingInterval (1 s here),
 * so a slow client is cut between the limit and a second after it; the tolerance allows one more second
 * for a busy machine. What Node does at the limit: it answers `408 Request Timeout` with
 * `Connection: close` (nothing had been sent on the connection yet) and closes the socket.
 */
const toleranceMs = 2_000;
/** Timers and clocks may round a few milliseconds apart; never a cut noticeably before the limit. */
const earlyMarginMs = 50;
const requestTimeout408 = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

interface Cut {
  afterMs: number;
  received: string;
}

/**
 * Opens a connection, writes `first`, then one byte of `drip` every second (if given) until the server
 * closes the connection; resolves with how long that took and what the server sent. A connection still
 * open at `giveUpMs` is closed by the test, so a server that fails to cut it fails the bounds below.
 */
function holdOpen(port: number, giveUpMs: number, first: string, drip?: string): Promise<Cut> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let startedAt = 0;
    let received = '';
    let dripTimer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('connect', () => {
      startedAt = performance.now();
      socket.write(first);
      let next = 0;
      if (drip) dripTimer = setInterval(() => socket.write(drip[next++ % drip.length]!), 1_000);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      clearInterval(dripTimer);
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(dripTimer);
      clearTimeout(giveUp);
      resolve({ afterMs: performance.now() - startedAt, received });
    });
  });
}

describe('the HTTP server with slow clients', () => {
  let server: RunningServer;
  let slowHeaders: Cut;
  let stalledBody: Cut;

  // Started in a hook of its own, so a slow start on a busy machine never eats into the timed hook's allowance below.
  beforeAll(async () => {
    server = await startTestServer();
  });
  // Both clients at once, so the whole file takes about 31 s.
  beforeAll(async () => {
    const port = Number(new URL(server.url).port);
    [slowHeaders, stalledBody] = await Promise.all([
      holdOpen(port, serverTimeouts.headersTimeout + toleranceMs + 1_000, 'G', `ET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(60)}`),
      holdOpen(
        port,
        serverTimeouts.requestTimeout + toleranceMs + 1_000,
        `POST ${clickEndpoint} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n{"placeme`,
      ),
    ]);
  }, serverTimeouts.requestTimeout + toleranceMs + 5_000);
  afterAll(() => server?.close());

  describe('a client sending its headers a byte a second, never finishing', () => {
    it('is answered 408 and cut', () => {
      expect(slowHeaders.received).toBe(requestTimeout408);
    });

    it('is cut no sooner than the 10 s headers timeout', () => {
      expect(slowHeaders.afterMs).toBeGreaterThanOrEqual(serverTimeouts.headersTimeout - earlyMarginMs);
    });

    it('is cut within 2 s of the headers timeout', () => {
      expect(slowHeaders.afterMs).toBeLessThanOrEqual(serverTimeouts.headersTimeout + toleranceMs);
    });
  });

  describe('a POST whose body stalls after 10 of its 100 bytes', () => {
    it('is answered 408 and cut', () => {
      expect(stalledBody.received).toBe(requestTimeout408);
    });

    it('is cut no sooner than the 30 s request timeout', () => {
      expect(stalledBody.afterMs).toBeGreaterThanOrEqual(serverTimeouts.requestTimeout - earlyMarginMs);
    });

    it('is cut within 2 s of the request timeout', () => {
      expect(stalledBody.afterMs).toBeLessThanOrEqual(serverTimeouts.requestTimeout + toleranceMs);
    });
  });
});
