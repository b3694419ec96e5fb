import path from 'node:path';
import { openDatabase } from '../../server/db/openDatabase';
import { lastCompleteWeek } from '../../server/digest/digestWeek';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { engines, openTestDatabase } from '../support/engines';
import { parseHtml } from '../support/html';
import { errorLines } from '../support/listeningMain';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { startSmtpReceiver } from '../support/smtpReceiver';
import { view } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';
import { waitUntil } from '../support/waitUntil';

/**
 * The built server sends the weekly digest once its day and hour have come: here today at 00:00 UTC, so
 * it is due at start-up and reports the seven days ending yesterday, read and written in the real report
 * worker, and delivered by the outbox's sender to a real SMTP server.
 */

const temp = useTempDir();
const weekDays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

describe.each(engines)('server/main’s weekly digest on %s', (engine) => {
  it('is e-mailed at start-up once its hour has come, with the last seven days', async () => {
    const postgres = engine === 'postgres' ? await openTestDatabase(engine) : undefined;
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = postgres?.database ?? (await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger }));
    const now = new Date();
    const week = lastCompleteWeek(now);
    await createViewStore(database.db).record(view({ at: new Date(`${week.current.to}T12:00:00Z`), visitor: 'a' }));
    const smtp = await startSmtpReceiver();
    const port = await freePort();
    const started = startMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      CLICK_STATS: 'on',
      ...(postgres ? { DATABASE_URL: postgres.url! } : { CLICKS_DB: file }),
      ALERT_EMAIL_TO: 'owner@example.com',
      SMTP_URL: smtp.url,
      DIGEST_DAY: weekDays[now.getUTCDay()]!,
      DIGEST_HOUR: '0',
    });
    try {
      await waitForOutput(started, new RegExp(`Weekly digest of ${week.current.from} to ${week.current.to} enqueued for e-mail`));
      const [mail] = await waitUntil('the digest at the SMTP server', () => smtp.messages.length > 0 && smtp.messages, { timeoutMs: 20_000 });
      expect(mail!.subject).toBe(`Weekly digest for 127.0.0.1:${port}, ${week.current.from} to ${week.current.to}: 1 visitor (new), 0 conversions, 0.00 USD`);
      expect(mail!.text).toMatch(/^Visitors +1 +0 +new$/m);
      expect(parseHtml(mail!.html as string).all('table.compare tbody tr')[0]!.children().map((cell) => cell.text())).toEqual(['Visitors', '1', '0', 'new']);
      const rows = await database.db.selectFrom('outbox').select(['event', 'channel']).execute();
      expect(rows).toEqual([{ event: 'digest', channel: 'email' }]);
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
      expect(errorLines(started.stderr())).toEqual([]);
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      await smtp.close();
      if (postgres) await postgres.close();
      else await database.close();
    }
  });
});
