import path from 'node:path';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines, openTestDatabase } from '../support/engines';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { useTempDir } from '../support/tempDir';

/**
 * The built server keeps the reports it did not count in memory and adds them to the database every
 * 10 s (server/beacons/filteredCounter.ts) and at shutdown: one stopped before the first 10 s are up has
 * them in the database all the same.
 */

const temp = useTempDir();

describe.each(engines)('server/main on %s', (engine) => {
  it('writes the filtered counts it holds when it stops on SIGTERM', async () => {
    const postgres = engine === 'postgres' ? await openTestDatabase(engine) : undefined;
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const port = await freePort();
    const started = startMain({ PORT: String(port), HOST: '127.0.0.1', CLICK_STATS: 'on', ...(postgres ? { DATABASE_URL: postgres.url! } : { CLICKS_DB: file }) });
    try {
      await waitForOutput(started, /listening on/);
      const send = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/api/views`, { method: 'POST', headers: { 'Content-Type': 'text/plain', ...headers }, body: '{}' });
      expect((await send({ 'User-Agent': 'Googlebot/2.1' })).status).toBe(204);
      expect((await send({ 'User-Agent': 'Googlebot/2.1' })).status).toBe(204);
      expect((await send({ 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' })).status).toBe(400);
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);

      const database = postgres?.database ?? (await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger }));
      const rows = await database.db.selectFrom('filtered_counts').select(['beacon', 'reason', 'count']).orderBy('reason').execute();
      expect(rows.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([
        { beacon: 'view', reason: 'bot', count: 2 },
        { beacon: 'view', reason: 'malformed', count: 1 },
      ]);
      if (!postgres) await database.close();
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      await postgres?.close();
    }
  });
});
