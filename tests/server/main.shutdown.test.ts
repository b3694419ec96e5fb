import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { serverTimeouts } from '../../server/httpServer';
import { freePort, startMain, waitForOutput, type Started } from '../support/mainProcess';

/**
 * Keep-alive clients talking to the real built server while it shuts down. A client that writes a
 * request on a connection it was allowed to keep must get an answer, never a reset: the server may
 * only end a keep-alive connection by saying `Connection: close` on a response (or by its keep-alive
 * timeout, which clients see coming).
 */

type Moment = 'before the signal' | 'after SIGTERM was sent' | 'after the server logged it';

interface Outcome {
  path: string;
  sent: Moment;
  /** True when the request went out on a kept-alive connection rather than a new one. */
  reusedSocket: boolean;
  status?: number;
  connection?: string;
  /** The error code (ECONNRESET for "socket hang up" too), when there was no answer. */
  error?: string;
}

function get(agent: Agent, port: number, path: string, sent: Moment): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ path, sent, reusedSocket: req.reusedSocket, status: res.statusCode, connection: res.headers.connection }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ path, sent, reusedSocket: req.reusedSocket, error: error.code ?? error.message }));
    req.end();
  });
}

/**
 * Opens a new connection and sends a request on it: "answered" if the server served it, otherwise the
 * error (ECONNREFUSED when the port is closed) or "closed without an answer".
 */
function requestOnNewConnection(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve(received ? 'answered' : 'closed without an answer'));
  });
}

/** The built server on a free loopback port, once it says it is listening. */
async function startServer(): Promise<{ started: Started; port: number }> {
  const port = await freePort();
  const started = startMain({ PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_TIMEOUT_MS: '10000' });
  // A process that stops at start-up (the port taken meanwhile) prints nothing more: fail with its words.
  const exitedEarly = started.exit.then((code) => Promise.reject(new Error(`server exited ${code} at start-up: ${started.stderr()}`)));
  exitedEarly.catch(() => {});
  await Promise.race([waitForOutput(started, /listening on/), exitedEarly]);
  return { started, port };
}

describe('server/main shutdown', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s finishes the request in flight, then exits 0', async (signal) => {
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1' });
    await waitForOutput(started, /listening on/);

    // A request whose headers are still arriving when the signal comes is in flight.
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));

    started.child.kill(signal);
    await waitForOutput(started, new RegExp(`${signal} received`));
    socket.write('\r\n');
    await once(socket, 'close');

    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response).toMatch(/\r\n\r\nok\n$/);
    expect(await started.exit).toBe(0);
  });

  it('refuses new connections once shutting down', async () => {
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1' });
    await waitForOutput(started, /listening on/);
    const holder = connect(port, '127.0.0.1');
    await once(holder, 'connect');
    holder.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
    started.child.kill('SIGTERM');
    await waitForOutput(started, /SIGTERM received/);
    const late = connect(port, '127.0.0.1');
    const [error] = (await once(late, 'error')) as [NodeJS.ErrnoException];
    // Refused by the closed port, or reset if the kernel had queued it just before the close: never served.
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(error.code);
    holder.end('\r\n');
    expect(await started.exit).toBe(0);
  });
});

describe('server/main shutdown with keep-alive clients', () => {
  const clientCount = 4;
  const warmUpResponses = 20;
  /** A bound so a server that never stops accepting fails the test instead of looping for ever. */
  const maxRequestsPerClient = 5_000;

  let started: Started;
  let port: number;
  const agents: Agent[] = [];
  afterAll(() => {
    for (const agent of agents) agent.destroy();
    if (started?.child.exitCode === null) started.child.kill('SIGKILL');
  });

  let streams: Outcome[][];
  let probeAfterSignal: Outcome;
  let newConnectionDuringShutdown: string;
  let exitCodeWhileDraining: number | null;
  let exitCode: number | null;

  beforeAll(async () => {
    ({ started, port } = await startServer());

    let moment: Moment = 'before the signal';
    let warmedUp = 0;
    let onWarmedUp!: () => void;
    const allWarmedUp = new Promise<void>((resolve) => (onWarmedUp = resolve));

    // Each streaming client sends GET /healthz and GET / back to back on one keep-alive connection,
    // until it is refused a new connection (the server has stopped accepting).
    const stream = async (agent: Agent): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      while (outcomes.length < maxRequestsPerClient) {
        const outcome = await get(agent, port, outcomes.length % 2 ? '/' : '/healthz', moment);
        outcomes.push(outcome);
        if (outcomes.length === warmUpResponses && ++warmedUp === clientCount) onWarmedUp();
        if (outcome.error) break;
      }
      return outcomes;
    };
    const newAgent = () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return agent;
    };
    const running = Promise.all(Array.from({ length: clientCount }, () => stream(newAgent())));
    await allWarmedUp;

    // The probe holds one idle keep-alive connection through the signal, then uses it.
    const probe = newAgent();
    await get(probe, port, '/healthz', moment);

    started.child.kill('SIGTERM');
    moment = 'after SIGTERM was sent';
    await waitForOutput(started, /SIGTERM received/);
    moment = 'after the server logged it';

    newConnectionDuringShutdown = await requestOnNewConnection(port);
    exitCodeWhileDraining = started.child.exitCode;
    probeAfterSignal = await get(probe, port, '/', moment);

    streams = await running;
    exitCode = await started.exit;
  });

  it('answers every request written on an open connection: no reset, no hang-up', () => {
    const failures = streams.flat().filter((outcome) => outcome.error !== undefined && outcome.error !== 'ECONNREFUSED');
    expect(failures).toEqual([]);
    expect(probeAfterSignal).toMatchObject({ reusedSocket: true, status: 200 });
  });

  it('ends each keep-alive connection by answering with Connection: close', () => {
    for (const outcomes of streams) {
      const answers = outcomes.filter((outcome) => outcome.status !== undefined);
      expect(answers.length).toBeGreaterThanOrEqual(warmUpResponses);
      expect(answers.at(-1)).toMatchObject({ status: 200, connection: 'close' });
    }
  });

  it('says Connection: close on every answer to a request sent after the server logged the signal', () => {
    const late = [...streams.flat(), probeAfterSignal].filter((outcome) => outcome.sent === 'after the server logged it' && outcome.status !== undefined);
    expect(late.length).toBeGreaterThanOrEqual(1);
    expect(late.filter((outcome) => outcome.connection !== 'close')).toEqual([]);
  });

  it('kept the connections alive before the signal', () => {
    // The first answers all came before SIGTERM was sent (later ones may race the signal).
    const early = streams.flatMap((outcomes) => outcomes.slice(0, warmUpResponses));
    expect(early.filter((outcome) => outcome.status !== 200 || outcome.connection !== 'keep-alive')).toEqual([]);
  });

  it('refuses new connections once shutting down', () => {
    // Refused by the closed port; or, when the kernel queued it in the instant between the log line
    // and the close, reset with the queue: never served either way.
    expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(newConnectionDuringShutdown);
    // Still draining then (the probe's connection was open), so that refusal was the shutdown, not the exit.
    expect(exitCodeWhileDraining).toBeNull();
    for (const outcomes of streams) {
      expect(outcomes.at(-1)).toMatchObject({ reusedSocket: false, error: 'ECONNREFUSED' });
      expect(outcomes.at(-1)?.sent).not.toBe('before the signal');
    }
  });

  it('finishes without cutting anything off and exits 0', () => {
    expect(started.stdout()).not.toMatch(/cut off/);
    expect(exitCode).toBe(0);
  });
});

describe('server/main shutdown with an idle keep-alive connection', () => {
  let started: Started;
  afterAll(() => {
    if (started?.child.exitCode === null) started.child.kill('SIGKILL');
  });

  it('leaves it open until its keep-alive timeout, closes it cleanly, then exits 0', async () => {
    let port: number;
    ({ started, port } = await startServer());
    // A raw client that keeps the connection but, unlike an HTTP agent, does not close it on its own.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let errorCode: string | undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => (errorCode = error.code));
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.endsWith('\r\n\r\nok\n')) resolve();
      });
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await answered;
    const idleSince = performance.now();
    expect(received).toMatch(/\r\nKeep-Alive: timeout=5\r\n/);

    started.child.kill('SIGTERM');
    await waitForOutput(started, /SIGTERM received/);
    await closed;
    const idleMs = performance.now() - idleSince;

    expect(idleMs).toBeGreaterThanOrEqual(serverTimeouts.keepAliveTimeout - 50);
    expect(idleMs).toBeLessThanOrEqual(serverTimeouts.keepAliveTimeout + 2_000);
    expect(errorCode).toBeUndefined();
    expect(await started.exit).toBe(0);
    expect(started.stdout()).not.toMatch(/cut off/);
  });
});
