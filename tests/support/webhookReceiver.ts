import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with the nth request (counting from 1): answer with a status, or never answer. */
export type WebhookBehaviour = (n: number) => number | 'hang';

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT/services/T0/B0/<secret>: a Slack-shaped address whose last segment is the secret. */
  url: string;
  secret: string;
  /** Every request received, answered or not. */
  received: ReceivedWebhook[];
  /** The bodies of the requests answered 2xx, parsed. */
  delivered(): unknown[];
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback, standing in for Slack or Discord. */
export async function startWebhookReceiver(behaviour: WebhookBehaviour = () => 200): Promise<WebhookReceiver> {
  const secret = 'R3ceiverS3cretXyZ0123456789';
  const received: ReceivedWebhook[] = [];
  const answered: Array<{ status: number; body: string }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      const action = behaviour(received.length);
      if (action === 'hang') return;
      answered.push({ status: action, body });
      response.writeHead(action, { 'content-type': 'text/plain' }).end(action < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T0/B0/${secret}`,
    secret,
    received,
    delivered: () => answered.filter((answer) => answer.status < 300).map((answer) => JSON.parse(answer.body) as unknown),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
