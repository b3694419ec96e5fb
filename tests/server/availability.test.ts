import { pagePaths } from '../../shared/routes';
import { countLines, errorLines, startListeningMain, stopMain, type ListeningMain } from '../support/listeningMain';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres';
import { queryDatabase } from '../support/queryDatabase';
import { visitorAddresses } from '../support/visitorAddresses';
import { waitUntil } from '../support/waitUntil';

const adminToken = 'outage-test-admin-token-0123456789abcdef';
const browserUserAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const reportBody = JSON.stringify({ placement: 'hero', page: '/', referrer: '' });
const outageLine = /the database stopped answering/;
const recoveryLine = /the database answers again/;
/** The page's words without markup. */
const textOf = (html: string) => html.replace(/<style[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/**
 * One server process on a PostgreSQL cluster of its own (not the run's shared one), which the tests stop
 * and start under it. The describes below are phases of that one process's life and run in order.
 */
describe('a server on PostgreSQL when the database stops and starts again', () => {
  let cluster: PostgresCluster | undefined;
  let server: ListeningMain | undefined;
  const nextAddress = visitorAddresses();
  let acknowledged = 0;

  const countRows = async () => Number((await queryDatabase<{ n: string }>(cluster!.url, 'SELECT count(*) AS n FROM clicks'))[0]!.n);

  /** One click report from a visitor of its own (TRUST_PROXY=1 reads X-Forwarded-For), so no rate limit is met. */
  const report = async () => {
    const response = await fetch(`${server!.url}/api/clicks`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
      body: reportBody,
    });
    if (response.status === 204) acknowledged += 1;
    return response;
  };
  const admin = () => fetch(`${server!.url}/admin`, { headers: { authorization: `Bearer ${adminToken}` } });

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    server = await startListeningMain({ DATABASE_URL: cluster.url, CLICK_STATS: 'on', TRUST_PROXY: '1', ADMIN_TOKEN: adminToken });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([server && stopMain(server)]);
    await cluster?.destroy();
  }, 60_000);

  describe('before the outage', () => {
    it('acknowledges click reports with 204 and stores each one', async () => {
      for (let i = 0; i < 5; i += 1) expect((await report()).status).toBe(204);
      expect(await countRows()).toBe(5);
    });
  });

  describe('while PostgreSQL is stopped', () => {
    beforeAll(async () => {
      await cluster!.stop();
    }, 60_000);

    it('serves every page with 200', async () => {
      for (const path of pagePaths) {
        const response = await fetch(`${server!.url}${path}`);
        expect([path, response.status]).toEqual([path, 200]);
      }
    });

    it('answers /healthz with 200', async () => {
      expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
    });

    it('answers every click report with 503 and a Retry-After', async () => {
      for (let i = 0; i < 20; i += 1) {
        const response = await report();
        expect(response.status).toBe(503);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('answers /admin with a 503 page saying the statistics database is not answering', async () => {
      const response = await admin();
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = textOf(await response.text());
      expect(text).toContain('Statistics are unavailable');
      expect(text).toContain(`The statistics database (DATABASE_URL ${cluster!.url}) is not answering`);
      expect(text).toContain('counting resumes by itself, with no restart');
    });

    it('logs the outage exactly once, however many requests failed, and no recovery yet', async () => {
      for (let i = 0; i < 10; i += 1) {
        await report();
        await admin();
      }
      await waitUntil('the outage line', () => outageLine.test(server!.stderr()));
      expect(countLines(server!.stderr(), outageLine)).toBe(1);
      expect(countLines(server!.stdout() + server!.stderr(), recoveryLine)).toBe(0);
    });

    it('logs no line per failed request and no stack trace', () => {
      expect(server!.stderr()).not.toMatch(/\n\s+at /);
      // Besides start-up's warnings (the sample AFFILIATE_URL, no CONTACT_EMAIL), the outage's one line.
      expect(errorLines(server!.stderr())).toHaveLength(1);
    });
  });

  describe('after PostgreSQL is started again', () => {
    beforeAll(async () => {
      await cluster!.start();
    }, 60_000);

    it('acknowledges click reports again in the same process, with no restart', async () => {
      const pid = server!.child.pid;
      // The first report may still meet a connection the stop broke; within a few seconds every one is taken.
      await waitUntil('a 204 after the restart of PostgreSQL', async () => (await report()).status === 204, { timeoutMs: 15_000, intervalMs: 100 });
      for (let i = 0; i < 5; i += 1) expect((await report()).status).toBe(204);
      expect(server!.child.pid).toBe(pid);
      expect(server!.child.exitCode).toBeNull();
    });

    it('logs the recovery exactly once, and the outage still once', async () => {
      // The end is logged at the first answer that comes recoveryQuietMs (5 s) after the last failure.
      await waitUntil('the recovery line', async () => (await report()).status === 204 && recoveryLine.test(server!.stdout()), { timeoutMs: 15_000, intervalMs: 250 });
      for (let i = 0; i < 5; i += 1) await report();
      expect(countLines(server!.stdout(), recoveryLine)).toBe(1);
      expect(countLines(server!.stdout() + server!.stderr(), outageLine)).toBe(1);
    });

    it('has lost no acknowledged click: the rows are exactly the 204s', async () => {
      expect(acknowledged).toBeGreaterThanOrEqual(16);
      expect(await countRows()).toBe(acknowledged);
    });

    it('shows the counts on /admin again', async () => {
      const response = await admin();
      expect(response.status).toBe(200);
      expect(textOf(await response.text())).toContain(`${acknowledged} clicks by ${acknowledged} visitors`);
    });
  });
});
