import path from 'node:path';
import request from 'supertest';
import { closeDeliveryChannels, createDeliveryChannels } from '../../server/delivery/deliveryChannels';
import { createOutboxSender, type OutboxSender, type OutboxSenderOptions } from '../../server/delivery/outboxSender';
import type { AlertsConfig } from '../../server/alerts/alertTypes';
import type { OutboxMessage } from '../../server/delivery/outbox';
import { createEmailChannel } from '../../server/delivery/emailChannel';
import { deliveriesOf, deliveryLimits, enqueue } from '../../server/delivery/outbox';
import { createWebhookChannel } from '../../server/delivery/webhookChannel';
import { createAvailability } from '../../server/db/availability';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { errorSummary } from '../../server/lib/errorText';
import { silentLogger, type Logger } from '../../server/lib/logger';
import { createStatsStores } from '../../server/statsStores';
import { pagePaths } from '../../shared/routes';
import { engines, openTestDatabase, useTestDatabase } from '../support/engines';
import { createTestDatabase } from '../support/postgres';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtpReceiver';
import { useTempDir } from '../support/tempDir';
import { createTestApp, testConfig } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const site = 'https://auctions.example.org';

function alertMessage(incidentId: number, event: 'opened' | 'recovered' = 'opened'): OutboxMessage {
  const subject = event === 'opened' ? `Sales went silent on hero (incident ${incidentId})` : `Sales are back on hero (incident ${incidentId})`;
  return {
    event,
    incidentId,
    subject,
    text: `${subject}: 240 clicks since the last sale, where 4.8 were expected.`,
    alert: { rule: 'sales', subject: 'hero', state: event, at: new Date(t0).toISOString(), site, incident: incidentId },
  };
}

/** A logger that keeps its lines, errors with their one-line summary, as the console would show them. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (line) => lines.push(line),
    warning: (line) => lines.push(line),
    error: (message, error) => lines.push(error === undefined ? message : `${message} ${errorSummary(error)}`),
  };
}

/** Everything each test starts, stopped after it. */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function webhookReceiver(behaviour?: Parameters<typeof startWebhookReceiver>[0]): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(behaviour);
  cleanups.push(() => receiver.close());
  return receiver;
}

async function smtpReceiver(login?: { user: string; password: string }): Promise<SmtpReceiver> {
  const receiver = await startSmtpReceiver(login);
  cleanups.push(() => receiver.close());
  return receiver;
}

function sender(options: OutboxSenderOptions): OutboxSender {
  const created = createOutboxSender(options);
  cleanups.push(async () => {
    await created.stop();
    closeDeliveryChannels(options.channels);
  });
  return created;
}

/** The alert settings as start-up reads them from the environment. */
function alertsFrom(env: Record<string, string>): AlertsConfig {
  return testConfig(env).alerts!;
}

describe.each(engines)('the alert sender on %s', (engine) => {
  const testDatabase = useTestDatabase(engine);
  const { db } = testDatabase;
  let clock = t0;
  const now = () => clock;
  beforeEach(() => {
    clock = t0;
  });

  it('posts an alert and its recovery to the webhook as JSON that Slack and Discord display, each once', async () => {
    const receiver = await webhookReceiver();
    const alerts = sender({ db: db(), channels: createDeliveryChannels(alertsFrom({ ALERT_WEBHOOK_URL: receiver.url })), logger: silentLogger, now });
    await enqueue(db(), alertMessage(1), ['webhook'], clock);
    expect(await alerts.sendDue()).toMatchObject({ sent: [1], retried: [], gaveUp: [] });
    await enqueue(db(), alertMessage(1, 'recovered'), ['webhook'], clock);
    await alerts.sendDue();
    expect(await alerts.sendDue()).toEqual({ sent: [], retried: [], gaveUp: [], lost: [] });

    expect(receiver.received).toHaveLength(2);
    const [first] = receiver.received;
    expect(first).toMatchObject({ method: 'POST', path: `/services/T0/B0/${receiver.secret}` });
    expect(first!.headers['content-type']).toBe('application/json');
    const opened = alertMessage(1);
    expect(receiver.delivered()).toEqual([
      { text: opened.text, content: opened.text, alert: opened.alert },
      { text: alertMessage(1, 'recovered').text, content: alertMessage(1, 'recovered').text, alert: alertMessage(1, 'recovered').alert },
    ]);
    expect((await deliveriesOf(db(), [1])).map((delivery) => [delivery.event, delivery.status])).toEqual([
      ['opened', { state: 'sent', at: t0 }],
      ['recovered', { state: 'sent', at: t0 }],
    ]);
  });

  it('e-mails an alert and the digest through a real SMTP server: subject, text, HTML, From and To', async () => {
    const smtp = await smtpReceiver();
    const settings = alertsFrom({ ALERT_EMAIL_TO: 'ops@example.com,owner@example.com', SMTP_URL: smtp.url });
    const alerts = sender({ db: db(), channels: createDeliveryChannels(settings), logger: silentLogger, now });
    await enqueue(db(), alertMessage(3), ['email'], clock);
    await enqueue(db(), { event: 'digest', incidentId: null, subject: 'Auctions Guide: your week', text: 'Visitors 1,204 (+8 %)', html: '<h1>Your week</h1><p>Visitors 1,204</p>' }, ['webhook', 'email'], clock);
    expect((await alerts.sendDue()).sent).toHaveLength(2);

    expect(smtp.messages).toHaveLength(2);
    const [alertMail, digestMail] = smtp.messages;
    expect(alertMail!.subject).toBe(alertMessage(3).subject);
    expect(alertMail!.text?.trim()).toBe(alertMessage(3).text);
    expect(alertMail!.html).toBe(false);
    expect(alertMail!.from?.text).toBe('alerts@auctions.example.org');
    expect([alertMail!.to].flat().map((to) => to?.text)).toEqual(['ops@example.com, owner@example.com']);
    expect(smtp.recipients[0]).toEqual(['ops@example.com', 'owner@example.com']);
    expect(digestMail!.subject).toBe('Auctions Guide: your week');
    expect(digestMail!.text?.trim()).toBe('Visitors 1,204 (+8 %)');
    expect(digestMail!.html).toBe('<h1>Your week</h1><p>Visitors 1,204</p>');
  });

  it('signs in with the user and password SMTP_URL carries; a wrong password fails the attempt without showing it', async () => {
    const password = 'sm7p-Pa55word!';
    const smtp = await smtpReceiver({ user: 'mailer', password });
    const good = alertsFrom({ ALERT_EMAIL_TO: 'ops@example.com', SMTP_URL: smtp.url, ALERT_EMAIL_FROM: 'watch@example.com' });
    expect(await createEmailChannel(good.email!).send(JSON.stringify({ subject: 'Signed in', text: 'hello' }))).toEqual({ ok: true });
    expect(smtp.messages.map((mail) => [mail.subject, mail.from?.text])).toEqual([['Signed in', 'watch@example.com']]);

    const wrongPassword = 'wr0ng-Pa55word!';
    const bad = alertsFrom({ ALERT_EMAIL_TO: 'ops@example.com', SMTP_URL: smtp.url.replace(encodeURIComponent(password), encodeURIComponent(wrongPassword)) });
    const logger = recordingLogger();
    const alerts = sender({ db: db(), channels: createDeliveryChannels(bad), logger, now, random: () => 0.5 });
    await enqueue(db(), alertMessage(4), ['email'], clock);
    expect((await alerts.sendDue()).retried).toHaveLength(1);
    const [delivery] = await deliveriesOf(db(), [4]);
    expect(delivery!.status).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: t0 + 30_000 });
    const reason = (delivery!.status as { lastError: string }).lastError;
    expect(reason).toMatch(/Invalid login|535/);
    for (const text of [reason, ...logger.lines]) {
      expect(text).not.toContain(wrongPassword);
      expect(text).not.toContain(encodeURIComponent(wrongPassword));
    }
  });

  it('retries a receiver that fails (500, then 200) after the backoff, and delivers the alert once', async () => {
    const receiver = await webhookReceiver((n) => (n === 1 ? 500 : 200));
    const logger = recordingLogger();
    const alerts = sender({ db: db(), channels: { webhook: createWebhookChannel(receiver.url) }, logger, now, random: () => 0.5 });
    await enqueue(db(), alertMessage(5), ['webhook'], clock);
    expect(await alerts.sendDue()).toMatchObject({ sent: [], retried: [1] });
    expect((await deliveriesOf(db(), [5]))[0]!.status).toEqual({ state: 'pending', attempts: 1, nextAttemptAt: t0 + 30_000, lastError: 'HTTP 500' });

    clock = t0 + 29_999;
    expect(await alerts.sendDue()).toEqual({ sent: [], retried: [], gaveUp: [], lost: [] });
    clock = t0 + 30_000;
    expect(await alerts.sendDue()).toMatchObject({ sent: [1] });
    clock = t0 + 86_400_000;
    expect(await alerts.sendDue()).toEqual({ sent: [], retried: [], gaveUp: [], lost: [] });

    expect(receiver.received).toHaveLength(2);
    expect(receiver.delivered()).toHaveLength(1);
    expect((await deliveriesOf(db(), [5]))[0]!.status).toEqual({ state: 'sent', at: t0 + 30_000 });
    expect(logger.lines).toEqual(['alert delivery 1 (opened, webhook) failed (HTTP 500); retrying with backoff']);
  });

  it('gives up after the bound of attempts and logs one line, naming neither the address nor its secret', async () => {
    const receiver = await webhookReceiver(() => 503);
    const logger = recordingLogger();
    const limits = { ...deliveryLimits, maxAttempts: 4 };
    const alerts = sender({ db: db(), channels: createDeliveryChannels(alertsFrom({ ALERT_WEBHOOK_URL: receiver.url })), logger, now, limits, random: () => 0.5 });
    await enqueue(db(), alertMessage(6), ['webhook'], clock);
    const rounds = [];
    for (let round = 0; round < 6; round += 1) {
      rounds.push(await alerts.sendDue());
      clock += deliveryLimits.maxRetryMs * 2;
    }
    expect(rounds.map((round) => (round.retried.length ? 'retried' : round.gaveUp.length ? 'given up' : 'nothing'))).toEqual([
      'retried',
      'retried',
      'retried',
      'given up',
      'nothing',
      'nothing',
    ]);
    expect(receiver.received).toHaveLength(4);
    expect((await deliveriesOf(db(), [6]))[0]!.status).toMatchObject({ state: 'given-up', attempts: 4, lastError: 'HTTP 503' });
    const givenUp = logger.lines.filter((line) => line.includes('given up'));
    expect(givenUp).toEqual(['alert delivery 1 (opened, webhook) given up after 4 attempts (last error: HTTP 503)']);
    for (const line of logger.lines) {
      expect(line).not.toContain(receiver.secret);
      expect(line).not.toContain('/services/');
    }
  });

  it('never slows a page while the webhook hangs; the timeout then marks the attempt failed', async () => {
    const receiver = await webhookReceiver(() => 'hang');
    const app = await createTestApp({}, { stores: createStatsStores(testDatabase.opened.database) });
    const alerts = sender({ db: db(), channels: { webhook: createWebhookChannel(receiver.url, { timeoutMs: 2_000 }) }, logger: silentLogger, now, random: () => 0.5 });
    await enqueue(db(), alertMessage(7), ['webhook'], clock);

    let roundOver = false;
    const round = alerts.sendDue().finally(() => {
      roundOver = true;
    });
    await waitUntil('the webhook to receive the alert', () => receiver.received.length === 1);
    for (const page of pagePaths) {
      const started = performance.now();
      const response = await request(app).get(page);
      expect(response.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    expect(roundOver).toBe(false);

    expect(await round).toMatchObject({ sent: [], retried: [1] });
    expect((await deliveriesOf(db(), [7]))[0]!.status).toEqual({ state: 'pending', attempts: 1, nextAttemptAt: t0 + 30_000, lastError: 'no answer within 2 s' });
  });

  it('fails an attempt on a receiver that is not there, with a short reason', async () => {
    const receiver = await webhookReceiver();
    await receiver.close();
    expect(await createWebhookChannel(receiver.url).send('{}')).toEqual({ ok: false, reason: 'could not reach the webhook (ECONNREFUSED)' });
  });

  it('sends at once when woken after an enqueue, without waiting for the next poll', async () => {
    const receiver = await webhookReceiver();
    const alerts = sender({ db: db(), channels: { webhook: createWebhookChannel(receiver.url) }, logger: silentLogger, now });
    await db().transaction().execute((trx) => enqueue(trx, alertMessage(8), ['webhook'], clock));
    alerts.wake();
    // The receiver has the alert before the sender has its answer and records it sent: wait for both (once
    // in 20 runs under load, the row was read between the two).
    const sent = async () => (await deliveriesOf(db(), [8]))[0]!.status.state === 'sent';
    await waitUntil('the woken sender to deliver and record it sent', async () => receiver.delivered().length === 1 && (await sent()));
    expect(receiver.delivered()).toHaveLength(1);
  });

  it('sends a burst bigger than one batch in one tick, a few at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const receiver = await webhookReceiver();
    const webhook = createWebhookChannel(receiver.url);
    const counted = {
      ...webhook,
      send: async (payload: string) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          return await webhook.send(payload);
        } finally {
          inFlight -= 1;
        }
      },
    };
    for (let incident = 1; incident <= 10; incident += 1) await enqueue(db(), alertMessage(incident), ['webhook'], clock);
    const alerts = sender({ db: db(), channels: { webhook: counted }, logger: silentLogger, now });
    const polled = alerts.poll();
    await waitUntil('all ten alerts', () => receiver.delivered().length === 10);
    await polled; // its last rows recorded before the next test's
    expect(most).toBeLessThanOrEqual(4);
  });

  it('lets a send in flight finish when stopped', async () => {
    const receiver = await webhookReceiver();
    const webhook = createWebhookChannel(receiver.url);
    let called = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = {
      send: async (payload: string) => {
        called = true;
        await gate;
        return webhook.send(payload);
      },
      close: () => {},
    };
    const alerts = createOutboxSender({ db: db(), channels: { webhook: held }, logger: silentLogger, now });
    await enqueue(db(), alertMessage(9), ['webhook'], clock);
    const round = alerts.sendDue();
    await waitUntil('the send to start', () => called);
    let stopped = false;
    const stopping = alerts.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await round).sent).toEqual([1]);
    expect(receiver.delivered()).toHaveLength(1);
    expect((await deliveriesOf(db(), [9]))[0]!.status.state).toBe('sent');
  });

  it('gives up rows of a channel no longer configured, without sending them', async () => {
    const logger = recordingLogger();
    await enqueue(db(), alertMessage(11), ['webhook', 'email'], clock);
    const receiver = await webhookReceiver();
    const alerts = sender({ db: db(), channels: { webhook: createWebhookChannel(receiver.url) }, logger, now });
    expect(await alerts.sendDue()).toMatchObject({ sent: [1], gaveUp: [2] });
    expect((await deliveriesOf(db(), [11]))[1]!.status).toMatchObject({ state: 'given-up', lastError: 'the email channel is no longer configured' });
    expect(logger.lines).toEqual(['alert delivery 2 (opened, email) dropped: that channel is no longer configured']);
  });
});

describe.each(engines)('a database that stops answering, on %s', (engine) => {
  it('keeps the sender quiet while its availability reports the outage, and never throws', async () => {
    const own = await openTestDatabase(engine);
    const database: AppDatabase = own.database;
    await own.close();
    const logger = recordingLogger();
    const down = createAvailability(database.name, silentLogger);
    down.opened();
    down.failed(new Error('connection refused'));
    const quiet = createOutboxSender({ db: database.db, channels: {}, logger, availability: down });
    const rounds = [await quiet.sendDue(), await quiet.sendDue()];
    expect(rounds.every((round) => round.error !== undefined && round.sent.length === 0)).toBe(true);
    expect(logger.lines).toEqual([]);

    const unexplained = createOutboxSender({ db: database.db, channels: {}, logger });
    await unexplained.sendDue();
    await unexplained.sendDue();
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^sending alerts failed; retrying on the next round /);
  });
});

describe.each(engines)('two instances sharing one %s database', (engine) => {
  const { dir } = useTempDir();

  async function openTwice(): Promise<[AppDatabase, AppDatabase]> {
    if (engine === 'sqlite') {
      const file = path.join(dir(), 'clicks.sqlite');
      const first = await openDatabase({ engine, file }, { logger: silentLogger });
      const second = await openDatabase({ engine, file }, { logger: silentLogger });
      cleanups.push(() => first.close(), () => second.close());
      return [first, second];
    }
    const created = await createTestDatabase();
    cleanups.push(() => created.drop());
    const first = await openDatabase({ engine, url: created.url }, { logger: silentLogger });
    const second = await openDatabase({ engine, url: created.url }, { logger: silentLogger });
    cleanups.push(() => first.close(), () => second.close());
    return [first, second];
  }

  it('deliver each message once, whichever instance sends it', async () => {
    const [first, second] = await openTwice();
    const receiver = await webhookReceiver();
    const smtp = await smtpReceiver();
    const settings = alertsFrom({ ALERT_WEBHOOK_URL: receiver.url, ALERT_EMAIL_TO: 'ops@example.com', SMTP_URL: smtp.url });
    for (let incident = 1; incident <= 12; incident += 1) await enqueue(first.db, alertMessage(incident), ['webhook', 'email'], t0);
    const instances = [first, second].map((database) =>
      sender({ db: database.db, channels: createDeliveryChannels(settings), logger: silentLogger, availability: database.availability, now: () => t0 }),
    );
    const sentBy: number[][] = [[], []];
    for (let round = 0; round < 12 && receiver.delivered().length + smtp.messages.length < 24; round += 1) {
      const results = await Promise.all(instances.map((instance) => instance.sendDue()));
      results.forEach((result, i) => sentBy[i]!.push(...result.sent));
    }
    const texts = receiver.delivered().map((body) => (body as { text: string }).text);
    expect(texts.sort()).toEqual(Array.from({ length: 12 }, (_, i) => alertMessage(i + 1).text).sort());
    expect(smtp.messages.map((mail) => mail.subject).sort()).toEqual(Array.from({ length: 12 }, (_, i) => alertMessage(i + 1).subject).sort());
    expect([...sentBy[0]!, ...sentBy[1]!].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(new Set(sentBy[0]).size + new Set(sentBy[1]).size).toBe(24);
  });
});
