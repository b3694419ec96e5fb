import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Limits that keep slow or idle clients from holding the server: the whole header block must
 * arrive within 10 s and the whole request within 30 s (Node then answers 408 and closes); idle
 * keep-alive sockets close after 5 s. Node enforces the first two on a timer, every
 * connectionsCheckingInterval, 30 s by default, which let a slow client keep its socket for up to
 * 40 s and 60 s; checking every second holds them to within a second of the limit, for the cost of
 * one walk over the connections still sending a request.
 */
export const serverTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

export function createHttpServer(app: RequestListener): Server {
  // Given at creation: Node reads connectionsCheckingInterval only there.
  return createServer({ ...serverTimeouts }, app);
}

/**
 * Stops accepting connections at once, answers every request that still arrives on an open one,
 * and resolves "closed" once the last connection has ended, or "timeout" after timeoutMs (what is
 * left is then cut).
 *
 * It never closes an idle keep-alive connection itself, as http.Server.close() does (Node 19+):
 * the client may just have written a request on it, still unread in the kernel's buffer, and
 * closing a socket with unread data sends a TCP reset instead of an answer. Instead each answer
 * from now on says Connection: close, after which the client opens no new connection (there is
 * none to open), and a connection nobody uses ends by the keep-alive timeout (5 s, announced as
 * Keep-Alive: timeout=5, so clients close it a little before the server would). A response whose
 * headers were already being prepared when shutdown began may still say keep-alive; that
 * connection ends on its next answer or its timeout the same way. So with idle keep-alive clients
 * shutdown takes up to about 5 s, well within the default SHUTDOWN_TIMEOUT_MS.
 */
export function shutDown(server: Server, timeoutMs: number): Promise<'closed' | 'timeout'> {
  return new Promise((resolve) => {
    // Prepended, so it runs before the app, which may answer synchronously.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.shouldKeepAlive = false;
    });
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve('timeout');
    }, timeoutMs);
    timer.unref();
    // net.Server's close, not http.Server's: stop listening without closing idle connections. Node's
    // own header and request timeouts keep running meanwhile (their checker is only stopped by
    // http.Server.close), so a slow client cannot stretch the drain past them either.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve('closed');
    });
  });
}
