import path from 'node:path';
import { createOutboxSender } from '../../server/delivery/outboxSender';
import { createEmailChannel } from '../../server/delivery/emailChannel';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { createDigestJob } from '../../server/digest/digestJob';
import { weekEnding } from '../../server/digest/digestWeek';
import { silentLogger } from '../../server/lib/logger';
import { inProcessReportReader, workerReportReader, type ReportReader } from '../../server/reports/reportReader';
import { createViewStore } from '../../server/views/viewStore';
import { useTestDatabase, engines } from '../support/engines';
import { parseHtml } from '../support/html';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtpReceiver';
import { click, view } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';
import { waitUntil } from '../support/waitUntil';

const siteUrl = 'https://auctions.example.com';

async function recordWeek(database: AppDatabase): Promise<void> {
  const views = createViewStore(database.db);
  for (const [at, visitor] of [['2026-01-13T08:00:00Z', 'a'], ['2026-01-14T08:00:00Z', 'b'], ['2026-01-07T08:00:00Z', 'c']] as const) {
    await views.record(view({ at: new Date(at), visitor }));
  }
  await createClickStore(database.db).record(click({ at: new Date('2026-01-13T08:01:00Z'), visitor: 'a' }));
}

describe.each(engines)('the weekly digest by e-mail on %s', (engine) => {
  const test = useTestDatabase(engine);
  let smtp: SmtpReceiver;
  beforeEach(async () => {
    smtp = await startSmtpReceiver();
  });
  afterEach(() => smtp.close());

  it('arrives through the outbox at a real SMTP server with its HTML and text parts', async () => {
    const database = test.opened.database;
    await recordWeek(database);
    const clock = Date.parse('2026-01-19T08:00:00Z');
    const email = { to: ['owner@auctions.example.com'], from: 'alerts@auctions.example.com', smtpUrl: smtp.url };
    const sender = createOutboxSender({ db: database.db, channels: { email: createEmailChannel(email) }, logger: silentLogger, now: () => clock });
    try {
      const job = createDigestJob({
        db: database.db,
        reports: inProcessReportReader(database.db),
        schedule: { day: 1, hour: 8 },
        siteUrl,
        logger: silentLogger,
        enqueued: () => sender.wake(),
        now: () => clock,
      });
      expect(await job.check()).toEqual({ outcome: 'sent', period: '2026-W04' });
      const [mail] = await waitUntil('the digest at the SMTP server', () => smtp.messages.length > 0 && smtp.messages);
      expect(smtp.recipients).toEqual([['owner@auctions.example.com']]);
      expect(mail!.subject).toBe('Weekly digest for auctions.example.com, 2026-01-12 to 2026-01-18: 2 visitors (+100%), 0 conversions, 0.00 USD');
      expect(mail!.text).toMatch(/^Visitors +2 +1 +\+100%$/m);
      const page = parseHtml(mail!.html as string);
      expect(page.all('table.compare tbody tr')[0]!.children().map((cell) => cell.text())).toEqual(['Visitors', '2', '1', '+100%']);
      expect(page.all('[style]').length).toBeGreaterThan(100);
      expect(mail!.attachments).toEqual([]);
      expect(await job.check()).toEqual({ outcome: 'done', period: '2026-W04' });
    } finally {
      await sender.stop();
    }
  });
});

describe('the weekly digest in the report worker', () => {
  const temp = useTempDir();
  let reader: ReportReader | undefined;
  afterEach(() => reader?.close());

  it('is read and written off the serving thread, the same as in it', async () => {
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const database = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
    try {
      await recordWeek(database);
      const week = weekEnding('2026-01-18', '2026-W04');
      reader = workerReportReader({ engine: 'sqlite', file });
      expect(await reader.readDigest(week, { siteUrl })).toEqual(await inProcessReportReader(database.db).readDigest(week, { siteUrl }));
    } finally {
      await database.close();
    }
  });
});
