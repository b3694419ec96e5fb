import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { startNginx, type RunningNginx } from '../support/nginx';
import { createTestDatabase, startPostgresCluster, testDatabaseUrlVariable, type TestDatabase } from '../support/postgres';

// Each test below starts a real service; initdb and a start take about a second on this machine.
jest.setTimeout(60_000);

async function queryOnce<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('the shared PostgreSQL cluster', () => {
  it('is named by TEST_DATABASE_URL, on loopback, and answers select 1', async () => {
    const url = process.env[testDatabaseUrlVariable]!;
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(await queryOnce(url, 'select 1 as one')).toEqual([{ one: 1 }]);
  });
});

describe('createTestDatabase', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('gives two separate, empty databases', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    databases.push(first!, second!);
    expect(first!.url).not.toBe(second!.url);
    await queryOnce(first!.url, 'create table visits (n int); insert into visits values (1)');

    expect(await queryOnce(first!.url, 'select n from visits')).toEqual([{ n: 1 }]);
    await expect(queryOnce(second!.url, 'select n from visits')).rejects.toThrow(/relation "visits" does not exist/);
  });

  it('drops a database even while a connection is open to it', async () => {
    const database = await createTestDatabase();
    const holder = new Client({ connectionString: database.url });
    holder.on('error', () => undefined); // the drop ends this connection
    await holder.connect();
    await database.drop();
    const name = new URL(database.url).pathname.slice(1);
    const server = process.env[testDatabaseUrlVariable]!;
    expect(await queryOnce(server, `select count(*)::int as n from pg_database where datname = '${name}'`)).toEqual([{ n: 0 }]);
    await holder.end().catch(() => undefined);
  });
});

describe('startPostgresCluster', () => {
  it('refuses connections while stopped and answers again after start(), on the same port', async () => {
    const cluster = await startPostgresCluster();
    try {
      expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
      expect(await queryOnce(cluster.url, 'select 1 as one')).toEqual([{ one: 1 }]);

      await cluster.stop();
      await expect(queryOnce(cluster.url, 'select 1')).rejects.toThrow(/ECONNREFUSED/);

      await cluster.start();
      expect(await queryOnce(cluster.url, "select current_setting('port')::int as port")).toEqual([{ port: cluster.port }]);
    } finally {
      await cluster.destroy();
    }
  });
});

interface Upstream {
  server: Server;
  port: number;
  /** The headers of each request it answered, by path. */
  received: { method: string; path: string; headers: IncomingHttpHeaders }[];
}

async function startUpstream(name: string, answer: 'answers' | 'drops' = 'answers'): Promise<Upstream> {
  const received: Upstream['received'] = [];
  const server = createServer((req, res) => {
    received.push({ method: req.method!, path: req.url!, headers: req.headers });
    if (answer === 'drops') req.socket.destroy();
    else res.end(name);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, received };
}

function send(method: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

describe('startNginx', () => {
  let upstreams: Upstream[] = [];
  let nginx: RunningNginx;

  beforeAll(async () => {
    upstreams = await Promise.all([startUpstream('a'), startUpstream('b')]);
    nginx = await startNginx({ upstreams: upstreams.map((upstream) => upstream.port) });
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const upstream of upstreams) {
      upstream.server.closeAllConnections();
      upstream.server.close();
    }
  });

  it('listens on loopback and shows its upstreams in its config', () => {
    expect(nginx.url).toBe(`http://127.0.0.1:${nginx.port}`);
    expect(nginx.config).toContain(`listen 127.0.0.1:${nginx.port};`);
    for (const { port } of upstreams) expect(nginx.config).toContain(`server 127.0.0.1:${port};`);
    expect(nginx.config).not.toMatch(/^\s*proxy_next_upstream\b/m);
  });

  it('sends GET requests to each instance in turn', async () => {
    const bodies: string[] = [];
    for (let i = 0; i < 10; i += 1) bodies.push((await send('GET', `${nginx.url}/`)).body);
    expect(upstreams.map((upstream) => upstream.received.length)).toEqual([5, 5]);
    expect(bodies.join('')).toMatch(/^(ab){5}$|^(ba){5}$/);
  });

  it('forwards the client address in X-Forwarded-For, with Host and X-Forwarded-Proto', async () => {
    await send('GET', `${nginx.url}/where`, { 'X-Forwarded-For': '203.0.113.7', Host: 'guide.example.test' });
    const [seen] = upstreams.flatMap((upstream) => upstream.received).filter((request) => request.path === '/where').map((request) => request.headers);
    expect(seen!['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(seen!['x-forwarded-proto']).toBe('http');
    expect(seen!.host).toBe('guide.example.test');
  });
});

describe('startNginx with an instance that drops requests', () => {
  // nginx's round-robin gives a fresh upstream group's first request to the first server: the one that drops it.
  let dropping: Upstream;
  let answering: Upstream;
  let nginx: RunningNginx | undefined;

  beforeEach(async () => {
    [dropping, answering] = await Promise.all([startUpstream('dropping', 'drops'), startUpstream('answering')]);
    nginx = await startNginx({ upstreams: [dropping.port, answering.port] });
  });
  afterEach(async () => {
    await nginx?.stop();
    for (const upstream of [dropping, answering]) {
      upstream.server.closeAllConnections();
      upstream.server.close();
    }
  });

  it('passes a dropped GET on to the next instance', async () => {
    const response = await send('GET', `${nginx!.url}/`);
    expect(dropping.received.map((request) => request.method)).toEqual(['GET']);
    expect(answering.received.map((request) => request.method)).toEqual(['GET']);
    expect(response).toEqual({ status: 200, body: 'answering' });
  });

  it('answers 502 to a dropped POST and never sends it to another instance', async () => {
    const response = await send('POST', `${nginx!.url}/api/clicks`);
    expect(dropping.received.map((request) => request.method)).toEqual(['POST']);
    expect(answering.received).toEqual([]);
    expect(response.status).toBe(502);
  });
});
