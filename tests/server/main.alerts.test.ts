import path from 'node:path';
import type { OutboxMessage } from '../../server/delivery/outbox';
import { enqueue } from '../../server/delivery/outbox';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines, openTestDatabase } from '../support/engines';
import { freePort, startMain, waitForOutput } from '../support/mainProcess';
import { startSmtpReceiver } from '../support/smtpReceiver';
import { useTempDir } from '../support/tempDir';
import { waitUntil } from '../support/waitUntil';
import { startWebhookReceiver } from '../support/webhookReceiver';

/**
 * The built server runs the outbox's sender when alerts are configured: a message any instance enqueues
 * reaches the webhook and the mailbox within a poll, and SIGTERM still exits 0. Bad settings stop
 * start-up with one line that never shows the webhook's secret.
 */

const temp = useTempDir();

const message: OutboxMessage = {
  event: 'opened',
  incidentId: 1,
  subject: 'The affiliate link is broken',
  text: 'The affiliate link is broken: two checks in a row answered 404.',
  alert: { rule: 'link', subject: 'affiliate-link', state: 'opened', at: '2026-11-20T12:00:00.000Z', site: 'http://127.0.0.1', incident: 1 },
};

describe.each(engines)('server/main with alerts on %s', (engine) => {
  it('delivers what is enqueued to the webhook and by e-mail, and stops cleanly on SIGTERM', async () => {
    const postgres = engine === 'postgres' ? await openTestDatabase(engine) : undefined;
    const file = path.join(temp.dir(), 'clicks.sqlite');
    const webhook = await startWebhookReceiver();
    const smtp = await startSmtpReceiver();
    const port = await freePort();
    const started = startMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      CLICK_STATS: 'on',
      ...(postgres ? { DATABASE_URL: postgres.url! } : { CLICKS_DB: file }),
      ALERT_WEBHOOK_URL: webhook.url,
      ALERT_EMAIL_TO: 'ops@example.com',
      SMTP_URL: smtp.url,
      DIGEST_DAY: 'off',
    });
    const database = postgres?.database;
    try {
      await waitForOutput(started, /listening on/);
      const db = database ?? (await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger }));
      await enqueue(db.db, message, ['webhook', 'email'], Date.now());
      await waitUntil('the server to send the alert', () => webhook.delivered().length === 1 && smtp.messages.length === 1, { timeoutMs: 20_000 });
      expect(webhook.delivered()).toEqual([{ text: message.text, content: message.text, alert: message.alert }]);
      expect(smtp.messages[0]!.subject).toBe(message.subject);
      started.child.kill('SIGTERM');
      expect(await started.exit).toBe(0);
      expect(started.stdout() + started.stderr()).not.toContain(webhook.secret);
      if (!database) await db.close();
    } finally {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      await webhook.close();
      await smtp.close();
      await postgres?.close();
    }
  });
});

describe('server/main with bad alert settings', () => {
  it('stops with one line naming the variable, without the webhook secret, and exit code 1', async () => {
    const secret = 'T0AAA/B0BBB/zzSecretWebhookTokenzz';
    const started = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', ALERT_WEBHOOK_URL: `http://hooks.example.com/services/${secret}` });
    expect(await started.exit).toBe(1);
    expect(started.stderr()).toBe(
      'auctions-guide: ALERT_WEBHOOK_URL must be an https:// address (or http:// on 127.0.0.1, ::1 or localhost), got "http://hooks.example.com/…"\n',
    );
    expect(started.stdout()).not.toContain(secret);
  });
});
