import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

/**
 * Limits that keep slow or idle clients from holding the server: the whole header block must
 * arrive within 10 s and the whole request within 30 s; idle keep-alive sockets close after 5 s.
 */
export const serverTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
} as const;

export function createHttpServer(app: RequestListener): Server {
  const server = createServer(app);
  server.headersTimeout = serverTimeouts.headersTimeout;
  server.requestTimeout = serverTimeouts.requestTimeout;
  server.keepAliveTimeout = serverTimeouts.keepAliveTimeout;
  return server;
}

/**
 * Stops accepting connections, lets in-flight requests finish, and resolves once the server has
 * closed, or with "timeout" when they take longer than timeoutMs (their sockets are then cut).
 */
export function shutDown(server: Server, timeoutMs: number): Promise<'closed' | 'timeout'> {
  return new Promise((resolve) => {
    // Requests that arrive on open keep-alive sockets are still answered, but with Connection: close,
    // and sockets that fall idle are closed at once rather than after their keep-alive timeout.
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.shouldKeepAlive = false;
    });
    const sweeper = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      clearInterval(sweeper);
      server.closeAllConnections();
      resolve('timeout');
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearInterval(sweeper);
      clearTimeout(timer);
      resolve('closed');
    });
    server.closeIdleConnections();
  });
}
