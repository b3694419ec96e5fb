import { sql } from 'kysely';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { addClicksBetween, addSales, momentsBetween } from '../support/alertRows';
import { startListeningMain, stopMain, countLines, type ListeningMain } from '../support/listeningMain';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { waitUntil } from '../support/waitUntil';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

/**
 * Two built server processes on one PostgreSQL database (several instances need it), a real webhook
 * receiver on loopback, and sales gone silent laid out in the database: both instances start their
 * watch at once, and the receiver gets the alert exactly once.
 */

const hour = 3_600_000;
const day = 24 * hour;

describe('two instances watching one database', () => {
  let database: TestDatabase;
  let db: AppDatabase;
  let webhook: WebhookReceiver;
  const instances: ListeningMain[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase({ engine: 'postgres', url: database.url }, { logger: silentLogger });
    webhook = await startWebhookReceiver();
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopMain(instance)));
    await webhook?.close();
    await db?.close();
    await database?.drop();
  });

  it('send the sales alert once', async () => {
    const now = Date.now();
    const lastSale = now - 2 * hour;
    // 20 sales in 1,000 clicks over the 30 days up to the last sale, then 1,000 clicks and no sale. The window is the sale's whole
    // days, so it holds those clicks too (20 in 2,000 at most: 1%), and the first 681 of them pass the line of 6.8 sales expected.
    await addClicksBetween(db.db, 'hero', 1000, lastSale - 29 * day, lastSale - hour);
    await addSales(db.db, 'hero', [...momentsBetween(19, lastSale - 29 * day, lastSale - 2 * hour), lastSale]);
    await addClicksBetween(db.db, 'hero', 1000, lastSale + 60_000, now - 60_000);

    const env = { DATABASE_URL: database.url, CLICK_STATS: 'on', ALERT_WEBHOOK_URL: webhook.url, SITE_URL: 'https://auctions.example.com', CONTACT_EMAIL: 'privacy@auctions.example.com' };
    const started = await Promise.allSettled([startListeningMain(env), startListeningMain(env)]);
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    expect(started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);

    const [alert] = await waitUntil('the sales alert at the webhook', () => webhook.delivered().length > 0 && webhook.delivered(), { timeoutMs: 30_000 });
    expect(alert).toMatchObject({ alert: { rule: 'sales', subject: 'hero', state: 'opened', site: 'https://auctions.example.com' } });
    expect((alert as { text: string }).text).toMatch(/^Alert: sales gone silent on hero \(auctions\.example\.com\)\.\nNo sale on hero since/);

    // Its outbox row is marked sent, and both instances have looked in this period (one claimed it, the other found it claimed).
    await waitUntil('the delivery recorded', async () => (await db.db.selectFrom('outbox').select('sent_at').executeTakeFirst())?.sent_at);
    const outbox = await db.db.selectFrom('outbox').select(['event', 'channel']).execute();
    expect(outbox).toEqual([{ event: 'opened', channel: 'webhook' }]);
    expect(await db.db.selectFrom('incidents').select(['rule', 'subject']).execute()).toEqual([{ rule: 'sales', subject: 'hero' }]);
    const watchClaims = await sql<{ n: number }>`select count(*)::int as n from job_runs where job = 'watch'`.execute(db.db);
    expect(watchClaims.rows[0]!.n).toBeGreaterThanOrEqual(1);
    expect(webhook.received).toHaveLength(1);
    const output = () => instances.map((instance) => instance.stdout() + instance.stderr()).join('\n');
    // The opening instance logs it after its transaction, while the sender may already have sent it.
    await waitUntil('the opening logged', () => countLines(output(), /alert: sales \(hero\) opened/) > 0);
    expect(countLines(output(), /alert: sales \(hero\) opened/)).toBe(1);
    expect(output()).not.toContain(webhook.secret);
  }, 60_000);
});
