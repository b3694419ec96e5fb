import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the test merchant answers one path: a page, or a handler of the test's own. */
export type MerchantAnswer =
  | { status?: number; body: string; headers?: Record<string, string> }
  | ((request: IncomingMessage, response: ServerResponse) => void);

export interface MerchantRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A merchant site of the tests' own on 127.0.0.1 (plain node:http), its answers changed by the test while
 * it runs. No robots.txt set answers 404 (which allows everything). Every request is recorded; `inFlight`
 * is the most requests it had open at once.
 */
export interface TestMerchant {
  origin: string;
  answers: Map<string, MerchantAnswer>;
  requests: MerchantRequest[];
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startTestMerchant(answers: Record<string, MerchantAnswer> = {}): Promise<TestMerchant> {
  const merchant: Omit<TestMerchant, 'origin' | 'close'> = { answers: new Map(Object.entries(answers)), requests: [], maxInFlight: 0 };
  let inFlight = 0;
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    merchant.requests.push({ path, headers: request.headers });
    inFlight += 1;
    merchant.maxInFlight = Math.max(merchant.maxInFlight, inFlight);
    response.on('close', () => {
      inFlight -= 1;
    });
    const answer = merchant.answers.get(path.split('?')[0]!);
    if (answer === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof answer === 'function') {
      answer(request, response);
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(merchant, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The paths requested, robots.txt included, in order. */
export function requestedPaths(merchant: TestMerchant): string[] {
  return merchant.requests.map((request) => request.path);
}
