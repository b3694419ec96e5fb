import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { errorLines } from '../support/listeningMain';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const reportBody = JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.bing.com' });

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
      expect(errorLines(started.stderr())).toEqual([`auctions-guide: port ${port} on 127.0.0.1 is already in use (set PORT to another port)`]);
    } finally {
      blocker.close();
    }
  });
});

describe('click database start-up checks', () => {
  it('stops start-up with one clear line when CLICKS_DB is not a database', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    writeFileSync(file, 'definitely not SQLite\n'.repeat(100));
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', CLICKS_DB: file });
    expect(await started.exit).toBe(1);
    expect(started.stderr().trim()).toMatch(new RegExp(`^auctions-guide: CLICKS_DB ${file} is damaged or not a SQLite database .*move it aside`));
    expect(started.stderr().trim().split('\n')).toHaveLength(1);
  });

  it('stops start-up with one clear line when CLICKS_DB cannot be created', async () => {
    const blocker = path.join(temp.dir(), 'a-file');
    writeFileSync(blocker, '');
    const file = path.join(blocker, 'clicks.sqlite');
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', CLICKS_DB: file });
    expect(await started.exit).toBe(1);
    expect(started.stderr().trim()).toMatch(new RegExp(`^auctions-guide: CLICKS_DB ${file} cannot`));
  });

  it('creates no database and serves no endpoint with CLICK_STATS=off', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1', CLICK_STATS: 'off', CLICKS_DB: file });
    await waitForOutput(started, /Click counting is off/);
    await request(`http://127.0.0.1:${port}`).post('/api/clicks').send(reportBody).expect(404);
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});

describe('server start-up with DATABASE_URL', () => {
  it('exits 1 with one line naming DATABASE_URL, without its password, when nothing listens there', async () => {
    const port = await freePort();
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', DATABASE_URL: `postgres://u:secret-pw@127.0.0.1:${port}/db` });
    expect(await started.exit).toBe(1);
    const lines = started.stderr().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^auctions-guide: DATABASE_URL postgres://u:\\*\\*\\*@127\\.0\\.0\\.1:${port}/db refused the connection`))]);
    expect(started.stderr() + started.stdout()).not.toContain('secret-pw');
  });

  it('exits 1 with one line naming DATABASE_URL when it is not a postgres:// URL', async () => {
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', DATABASE_URL: 'mysql://u:secret-pw@127.0.0.1:3306/db' });
    expect(await started.exit).toBe(1);
    const lines = started.stderr().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^auctions-guide: DATABASE_URL must start with postgres:\/\//)]);
    expect(started.stderr() + started.stdout()).not.toContain('secret-pw');
  });
});
