import { connect } from 'node:net';
import { createHttpServer, serverTimeouts, shutDown } from '../../server/httpServer';
import { startTestServer } from '../support/testApp';

describe('the HTTP server', () => {
  it('limits how long slow clients may take to send headers and requests, and idle keep-alive time', () => {
    const server = createHttpServer(() => {});
    expect(server.headersTimeout).toBe(serverTimeouts.headersTimeout);
    expect(server.requestTimeout).toBe(serverTimeouts.requestTimeout);
    expect(server.keepAliveTimeout).toBe(serverTimeouts.keepAliveTimeout);
    expect(serverTimeouts.headersTimeout).toBeLessThanOrEqual(15_000);
    expect(serverTimeouts.requestTimeout).toBeLessThanOrEqual(60_000);
  });
});

describe('shutDown', () => {
  it('resolves "timeout" and cuts the connections left once timeoutMs has passed', async () => {
    const { server, url } = await startTestServer({ CLICK_STATS: 'off' });
    // A request whose headers never finish stays in flight (for 10 s, far past this shutdown's 300 ms).
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));

    const startedAt = performance.now();
    expect(await shutDown(server, 300)).toBe('timeout');
    const tookMs = performance.now() - startedAt;
    await closed;

    expect(tookMs).toBeGreaterThanOrEqual(300 - 50);
    expect(tookMs).toBeLessThan(2_000);
  });
});
