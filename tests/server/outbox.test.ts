import type { OutboxMessage } from '../../server/delivery/outbox';
import {
  claimDue,
  deliveriesOf,
  deliveryLimits,
  enqueue,
  forgetDeliveriesBefore,
  markFailed,
  markSent,
  retryDelayMs,
  type DeliveryLimits,
} from '../../server/delivery/outbox';
import { engines, useTestDatabase } from '../support/engines';

const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const lease = deliveryLimits.leaseMs;

function alertMessage(incidentId: number, event: 'opened' | 'recovered' = 'opened'): OutboxMessage {
  const subject = `The affiliate link is broken (incident ${incidentId})`;
  return {
    event,
    incidentId,
    subject,
    text: `${subject}: two checks in a row answered 404.`,
    alert: { rule: 'link', subject, state: event === 'opened' ? 'opened' : 'recovered', at: new Date(t0).toISOString(), site: 'https://auctions.example.org', incident: incidentId },
  };
}

const digest: OutboxMessage = { event: 'digest', incidentId: null, subject: 'Your week', text: 'Visitors 120', html: '<p>Visitors 120</p>' };

describe('retryDelayMs', () => {
  const middle = () => 0.5;

  it('waits 30 s after the first failure, doubling up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 30].map((attempts) => retryDelayMs(attempts, deliveryLimits, middle) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600,
    ]);
  });

  it('spreads each wait within ±20 %', () => {
    expect(retryDelayMs(1, deliveryLimits, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, deliveryLimits, () => 0.999_999)).toBe(36_000);
  });

  it('keeps trying for most of a day before the bound', () => {
    const total = Array.from({ length: deliveryLimits.maxAttempts - 1 }, (_, i) => retryDelayMs(i + 1, deliveryLimits, middle)).reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(25);
  });
});

describe.each(engines)('the outbox on %s', (engine) => {
  const { db } = useTestDatabase(engine);

  const rows = () => db().selectFrom('outbox').selectAll().orderBy('id').execute();

  describe('enqueue', () => {
    it('writes one row per channel, due now, with what each channel sends', async () => {
      await enqueue(db(), alertMessage(7), ['webhook', 'email'], t0);
      const written = await rows();
      expect(written.map((row) => [row.incident_id, row.event, row.channel, row.next_attempt_at, row.attempts, row.sent_at])).toEqual([
        [7, 'opened', 'webhook', t0, 0, null],
        [7, 'opened', 'email', t0, 0, null],
      ]);
      const message = alertMessage(7);
      expect(JSON.parse(written[0]!.payload)).toEqual({ text: message.text, content: message.text, alert: message.alert });
      expect(JSON.parse(written[1]!.payload)).toEqual({ subject: message.subject, text: message.text });
    });

    it('sends the digest by e-mail only, with its HTML part', async () => {
      await enqueue(db(), digest, ['webhook', 'email'], t0);
      const written = await rows();
      expect(written.map((row) => [row.incident_id, row.channel])).toEqual([[null, 'email']]);
      expect(JSON.parse(written[0]!.payload)).toEqual({ subject: 'Your week', text: 'Visitors 120', html: '<p>Visitors 120</p>' });
    });

    it('writes nothing without a channel', async () => {
      await enqueue(db(), alertMessage(1), [], t0);
      await enqueue(db(), digest, ['webhook'], t0);
      expect(await rows()).toEqual([]);
    });

    it('cuts the content Discord shows to its 2,000 characters and keeps the whole text for Slack', async () => {
      const long = { ...alertMessage(2), text: 'x'.repeat(2_500) };
      await enqueue(db(), long, ['webhook'], t0);
      const body = JSON.parse((await rows())[0]!.payload) as { text: string; content: string };
      expect(body.text).toHaveLength(2_500);
      expect(body.content).toHaveLength(2_000);
      expect(body.content.endsWith('…')).toBe(true);
    });

    it('belongs to the transaction it is called in: rolled back with it, the message never existed', async () => {
      const rollback = new Error('rollback');
      await expect(
        db()
          .transaction()
          .execute(async (trx) => {
            await enqueue(trx, alertMessage(3), ['webhook'], t0);
            throw rollback;
          }),
      ).rejects.toBe(rollback);
      await db().transaction().execute((trx) => enqueue(trx, alertMessage(4), ['webhook'], t0));
      expect((await rows()).map((row) => row.incident_id)).toEqual([4]);
    });
  });

  describe('claims', () => {
    it('give each due row to exactly one of many claimants at once', async () => {
      for (let incident = 1; incident <= 6; incident += 1) await enqueue(db(), alertMessage(incident), ['webhook', 'email'], t0);
      const claims = await Promise.all(Array.from({ length: 8 }, () => claimDue(db(), t0, 4, lease)));
      const ids = claims.flat().map((claimed) => claimed.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Whatever the first claimants left is claimed by the next round, and nothing twice.
      const rest = await claimDue(db(), t0, 12, lease);
      expect([...ids, ...rest.map((claimed) => claimed.id)].sort((a, b) => a - b)).toEqual((await rows()).map((row) => row.id));
      expect((await rows()).every((row) => row.attempts === 1 && row.next_attempt_at === t0 + lease)).toBe(true);
    });

    it('leave rows not yet due, and take the oldest due first, at most the limit', async () => {
      await enqueue(db(), alertMessage(1), ['webhook'], t0 + 1_000);
      await enqueue(db(), alertMessage(2), ['webhook'], t0 - 2_000);
      await enqueue(db(), alertMessage(3), ['webhook'], t0 - 1_000);
      expect((await claimDue(db(), t0, 1, lease)).map((claimed) => claimed.incidentId)).toEqual([2]);
      expect((await claimDue(db(), t0, 5, lease)).map((claimed) => claimed.incidentId)).toEqual([3]);
      expect((await claimDue(db(), t0 + 1_000, 5, lease)).map((claimed) => [claimed.incidentId, claimed.attempts])).toEqual([[1, 1]]);
    });

    it('hold until the lease lapses; then another sender takes the row, and the first one can no longer record it', async () => {
      await enqueue(db(), alertMessage(1), ['webhook'], t0);
      const [first] = await claimDue(db(), t0, 5, lease);
      expect(await claimDue(db(), t0 + lease - 1, 5, lease)).toEqual([]);
      const [second] = await claimDue(db(), t0 + lease, 5, lease);
      expect(second).toMatchObject({ id: first!.id, attempts: 2 });
      expect(await markSent(db(), first!, t0 + lease + 5)).toBe(false);
      expect(await markFailed(db(), first!, t0 + lease + 5, 'HTTP 500')).toEqual({ kind: 'lost' });
      expect(await markSent(db(), second!, t0 + lease + 10)).toBe(true);
      const [row] = await rows();
      expect(row).toMatchObject({ sent_at: t0 + lease + 10, next_attempt_at: null, attempts: 2, last_error: null });
    });
  });

  describe('outcomes', () => {
    const limits: DeliveryLimits = { ...deliveryLimits, maxAttempts: 3 };
    const middle = () => 0.5;

    it('retry a failure after the backoff, then give it up after the last attempt', async () => {
      await enqueue(db(), alertMessage(5), ['webhook'], t0);
      let now = t0;
      const outcomes = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const [claimed] = await claimDue(db(), now, 5, lease);
        expect(claimed?.attempts).toBe(attempt);
        const outcome = await markFailed(db(), claimed!, now, `HTTP 50${attempt}`, limits, middle);
        outcomes.push(outcome);
        if (outcome.kind === 'retry') {
          expect(await claimDue(db(), outcome.at - 1, 5, lease)).toEqual([]);
          now = outcome.at;
        }
      }
      expect(outcomes).toEqual([
        { kind: 'retry', at: t0 + 30_000 },
        { kind: 'retry', at: t0 + 90_000 },
        { kind: 'given-up' },
      ]);
      expect((await rows())[0]).toMatchObject({ attempts: 3, next_attempt_at: null, given_up_at: t0 + 90_000, last_error: 'HTTP 503', sent_at: null });
      expect(await claimDue(db(), t0 + 86_400_000, 5, lease)).toEqual([]);
    });

    it('keep a reason to one short line', async () => {
      await enqueue(db(), alertMessage(5), ['webhook'], t0);
      const [claimed] = await claimDue(db(), t0, 5, lease);
      await markFailed(db(), claimed!, t0, 'e'.repeat(5_000), limits, middle);
      expect((await rows())[0]!.last_error).toHaveLength(300);
    });
  });

  describe('deliveriesOf', () => {
    it('shows each incident delivery as sent, pending (attempts, next try, last error) or given up', async () => {
      await enqueue(db(), alertMessage(10), ['webhook', 'email'], t0);
      await enqueue(db(), alertMessage(11), ['webhook'], t0);
      await enqueue(db(), alertMessage(12), ['webhook'], t0);
      await enqueue(db(), digest, ['email'], t0);
      const claimed = await claimDue(db(), t0, 10, lease);
      const byIncident = (id: number, channel: string) => claimed.find((row) => row.incidentId === id && row.channel === channel)!;
      await markSent(db(), byIncident(10, 'webhook'), t0 + 100);
      await markFailed(db(), byIncident(10, 'email'), t0 + 100, 'connect ECONNREFUSED', deliveryLimits, () => 0.5);
      await markFailed(db(), byIncident(11, 'webhook'), t0 + 100, 'HTTP 410', { ...deliveryLimits, maxAttempts: 1 });
      expect(await deliveriesOf(db(), [12, 10, 11, 10, 99])).toEqual([
        { incidentId: 10, event: 'opened', channel: 'webhook', createdAt: t0, status: { state: 'sent', at: t0 + 100 } },
        { incidentId: 10, event: 'opened', channel: 'email', createdAt: t0, status: { state: 'pending', attempts: 1, nextAttemptAt: t0 + 30_100, lastError: 'connect ECONNREFUSED' } },
        { incidentId: 11, event: 'opened', channel: 'webhook', createdAt: t0, status: { state: 'given-up', at: t0 + 100, attempts: 1, lastError: 'HTTP 410' } },
        { incidentId: 12, event: 'opened', channel: 'webhook', createdAt: t0, status: { state: 'pending', attempts: 1, nextAttemptAt: t0 + lease, lastError: null } },
      ]);
      expect(await deliveriesOf(db(), [])).toEqual([]);
    });

    it('reads any number of incidents in bounded queries', async () => {
      await enqueue(db(), alertMessage(450), ['webhook'], t0);
      const ids = Array.from({ length: 500 }, (_, i) => i + 1);
      expect((await deliveriesOf(db(), ids)).map((delivery) => delivery.incidentId)).toEqual([450]);
    });
  });

  it('forgets finished rows past a date and keeps every pending one', async () => {
    await enqueue(db(), alertMessage(1), ['webhook'], t0);
    await enqueue(db(), alertMessage(2), ['webhook'], t0);
    await enqueue(db(), alertMessage(3), ['webhook'], t0 + 10);
    const claimed = await claimDue(db(), t0 + 10, 10, lease);
    await markSent(db(), claimed.find((row) => row.incidentId === 1)!, t0 + 20);
    await markSent(db(), claimed.find((row) => row.incidentId === 3)!, t0 + 20);
    await forgetDeliveriesBefore(db(), t0 + 5);
    expect((await rows()).map((row) => row.incident_id)).toEqual([2, 3]);
  });
});
