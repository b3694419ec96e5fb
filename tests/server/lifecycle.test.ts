import { once } from 'node:events';
import { createServer, connect } from 'node:net';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';

describe('server/main start-up', () => {
  it.each([
    [{ PORT: 'http' }, 'PORT'],
    [{ AFFILIATE_URL: 'http://partner.example.net/' }, 'AFFILIATE_URL'],
    [{ SITE_URL: 'guide.example.com' }, 'SITE_URL'],
  ])('stops on a bad %j with exit code 1 and one line naming %s, no stack trace', async (env, name) => {
    const started = startMain(env);
    expect(await started.exit).toBe(1);
    const lines = started.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^auctions-guide: ${name} must`));
    expect(started.stderr()).not.toMatch(/\n\s+at /);
  });

  it('stops with a clear line when the port is taken', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    try {
      const started = startMain({ PORT: String(port), HOST: '127.0.0.1' });
      expect(await started.exit).toBe(1);
      expect(started.stderr().trim()).toBe(`auctions-guide: port ${port} on 127.0.0.1 is already in use (set PORT to another port)`);
    } finally {
      blocker.close();
    }
  });
});

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
