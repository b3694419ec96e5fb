import { createServer, type RequestListener, type Server } from 'node:http';

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
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve('timeout');
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve('closed');
    });
    // Keep-alive sockets with no request on them would otherwise hold close() open until they time out.
    server.closeIdleConnections();
  });
}
