import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { createClickStore } from '../../server/clicks/clickStore';
import { createStatsStores } from '../../server/statsStores';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createRateLimiter } from '../../server/limits/rateLimiter';
import { engines, useTestDatabase } from '../support/engines';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { click } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';
import { visitorAddresses } from '../support/visitorAddresses';
import { startTestServer } from '../support/testApp';

const temp = useTempDir();
const browserUserAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const reportBody = JSON.stringify({ placement: 'hero', page: '/', referrer: 'www.bing.com' });

const countRows = (file: string) => {
  const db = new Database(file, { readonly: true });
  const { n } = db.prepare('SELECT count(*) AS n FROM clicks').get() as { n: number };
  db.close();
  return n;
};

describe('click recording under load', () => {
  it('records exactly as many rows as it acknowledged, for thousands of concurrent reports', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
    // Room for every report from one address too, so the limiter cannot hide a lost write.
    const unlimited = () => createRateLimiter({ burst: 1e9, refillMs: 1 });
    const site = await startTestServer(
      { TRUST_PROXY: 'true' },
      { stores: createStatsStores(database), clickRateLimiter: unlimited(), addressRateLimiter: unlimited() },
    );
    const nextAddress = visitorAddresses();
    const total = 3000;
    try {
      const result = await autocannon({
        url: `${site.url}/api/clicks`,
        connections: 50,
        amount: total,
        requests: [
          {
            method: 'POST',
            body: reportBody,
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
            }),
          },
        ],
      });
      expect(result.errors).toBe(0);
      expect(result.non2xx).toBe(0);
      expect(result['2xx']).toBe(total);
      expect(countRows(file)).toBe(total);
      const { visitors } = await database.db.selectFrom('clicks').select((eb) => eb.fn.count<number>('visitor').distinct().as('visitors')).executeTakeFirstOrThrow();
      expect(visitors).toBe(total);
    } finally {
      await site.close();
      await database.close();
    }
  });
});

describe('click recording and shutdown', () => {
  it('loses no acknowledged click when SIGTERM arrives during the load', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1', TRUST_PROXY: 'true', CLICK_STATS: 'on', CLICKS_DB: file });
    await waitForOutput(started, /listening on/);
    const nextAddress = visitorAddresses();
    let acknowledged = 0;
    let sent = 0;
    let signalled = false;

    // Twenty clients post reports back to back until the server stops answering.
    const client = async () => {
      for (;;) {
        sent += 1;
        try {
          const response = await fetch(`http://127.0.0.1:${port}/api/clicks`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserUserAgent, 'x-forwarded-for': nextAddress() },
            body: reportBody,
          });
          if (response.status === 204) acknowledged += 1;
          else throw new Error(`unexpected status ${response.status}`);
        } catch (error) {
          if (signalled) return;
          throw error;
        }
        if (acknowledged >= 400 && !signalled) {
          signalled = true;
          started.child.kill('SIGTERM');
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, client));

    expect(await started.exit).toBe(0);
    expect(acknowledged).toBeGreaterThanOrEqual(400);
    const rows = countRows(file);
    // Every 204 was sent after its row was committed; a report cut off mid-answer may be stored without its 204.
    expect(rows).toBeGreaterThanOrEqual(acknowledged);
    expect(rows).toBeLessThanOrEqual(sent);
  });
});

describe.each(engines)('on %s', (engine) => {
  const { db } = useTestDatabase(engine);

  describe('the click store', () => {
    it('commits a click before record resolves', async () => {
      await createClickStore(db()).record(click({ referrerHost: 'www.google.com' }));
      expect(await db().selectFrom('clicks').select(['at', 'day', 'placement', 'page', 'referrer_host', 'device', 'visitor', 'via']).execute()).toEqual([
        { at: Date.parse('2026-11-20T12:00:00Z'), day: '2026-11-20', placement: 'hero', page: '/', referrer_host: 'www.google.com', device: 'mobile', visitor: 'v1', via: 'beacon' },
      ]);
    });
  });
});
