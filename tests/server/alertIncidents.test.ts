import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger, type Logger } from '../../server/lib/logger';
import { createIncidentStore } from '../../server/alerts/incidents';
import { AlertWatch, runRules, watchPeriodMs } from '../../server/alerts/watch';
import { claimJobRun } from '../../server/jobs/jobRuns';
import { DatabaseOutage } from '../../server/alerts/databaseOutage';
import type { DeliveryChannel } from '../../server/delivery/deliveryChannel';
import { readAlertsOverview } from '../../server/alerts/alertsOverview';
import { addClicksBetween, addSales, momentsBetween } from '../support/alertRows';
import { engines, useTestDatabase } from '../support/engines';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const siteUrl = 'https://auctions.example.com';
const now = Date.parse('2026-11-21T20:00:00Z');

/** The hero silent: 2% of 1,000 clicks converted in the 30 days up to its last sale, and 400 clicks came since (past the line of 6.8 sales expected at 341). */
async function layOutSilentSales(db: Kysely<Schema>): Promise<void> {
  const lastSale = Date.parse('2026-11-20T12:00:00Z');
  const windowStart = Date.parse('2026-10-22T00:00:00Z');
  await addClicksBetween(db, 'hero', 1000, windowStart, lastSale);
  await addSales(db, 'hero', [...momentsBetween(19, windowStart, lastSale - hour), lastSale]);
  await addClicksBetween(db, 'hero', 400, Date.parse('2026-11-21T00:00:00Z'), now);
}

const events = async (db: Kysely<Schema>) => (await db.selectFrom('outbox').select(['event', 'channel']).orderBy('id').execute()).map((row) => `${row.event} ${row.channel}`);

describe.each(engines)('incidents on %s', (engine) => {
  const test = useTestDatabase(engine);
  let second: AppDatabase | undefined;
  afterEach(async () => {
    await second?.close();
    second = undefined;
  });

  /**
   * Two instances' stores: on PostgreSQL, each on a connection pool of its own to the one database, as
   * two processes have; SQLite has one writer (several instances need PostgreSQL), so there both share it.
   */
  async function twoInstances() {
    const other = test.opened.url ? (second = await openDatabase({ engine: 'postgres', url: test.opened.url }, { logger: silentLogger })).db : test.db();
    const options = { channels: ['webhook', 'email'] as const, siteUrl };
    return [
      { db: test.db(), store: createIncidentStore(test.db(), options) },
      { db: other, store: createIncidentStore(other, options) },
    ];
  }

  it('alerts once, and recovers once, when two instances run the rules at the same time', async () => {
    await layOutSilentSales(test.db());
    const instances = await twoInstances();
    for (let round = 0; round < 3; round += 1) {
      const runs = await Promise.all(instances.map(({ db, store }) => runRules({ db }, store, now + round * minute)));
      expect(runs.flatMap((run) => run.failed)).toEqual([]);
      expect(runs.flatMap((run) => run.opened)).toEqual(round === 0 ? [{ rule: 'sales', subject: 'hero' }] : []);
    }
    expect(await events(test.db())).toEqual(['opened webhook', 'opened email']);

    await addSales(test.db(), 'hero', [now + 10 * minute]);
    const runs = await Promise.all(instances.map(({ db, store }) => runRules({ db }, store, now + 15 * minute)));
    expect(runs.flatMap((run) => run.closed)).toEqual([{ rule: 'sales', subject: 'hero' }]);
    expect(await events(test.db())).toEqual(['opened webhook', 'opened email', 'recovered webhook', 'recovered email']);
  });

  it('lets one of many simultaneous opens of the same incident take it, and one close', async () => {
    const instances = await twoInstances();
    const opens = await Promise.all(Array.from({ length: 8 }, (_, index) => instances[index % 2]!.store.open('views', '', 'No page views', now)));
    expect(opens.filter(Boolean)).toHaveLength(1);
    const closes = await Promise.all(Array.from({ length: 8 }, (_, index) => instances[index % 2]!.store.close('views', '', 'Views again', now + minute)));
    expect(closes.filter(Boolean)).toHaveLength(1);
    // Closed, the same rule and subject can open a new incident.
    expect(await instances[1]!.store.open('views', '', 'No page views', now + hour)).toMatchObject({ rule: 'views', openedAt: now + hour });
    expect(await events(test.db())).toEqual(['opened webhook', 'opened email', 'recovered webhook', 'recovered email', 'opened webhook', 'opened email']);
  });

  describe('the watch', () => {
    it('runs the database rules once per five-minute period across instances, and never throws', async () => {
      await layOutSilentSales(test.db());
      const instances = await twoInstances();
      let clock = now;
      const claims: string[] = [];
      const logged: string[] = [];
      const watches = instances.map(
        ({ db, store }) =>
          new AlertWatch({
            db,
            incidents: store,
            claimJobRun: async (job, period) => {
              claims.push(period);
              return claimJobRun(db, job, period);
            },
            outage: new DatabaseOutage({ db, availability: { downSince: undefined }, incidents: store, channels: {}, names: { instance: 'x', database: 'y' }, siteUrl, logger: silentLogger }),
            available: () => true,
            logger: { info: (line: string) => void logged.push(line), warning: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) },
            now: () => clock,
          }),
      );
      await Promise.all(watches.map((watch) => watch.tick()));
      expect(logged).toEqual(['alert: sales (hero) opened']);
      // A minute later, the same period: neither instance claims again.
      clock += 60_000;
      await Promise.all(watches.map((watch) => watch.tick()));
      expect(claims).toEqual([String(Math.floor(now / watchPeriodMs)), String(Math.floor(now / watchPeriodMs))]);
      clock = (Math.floor(now / watchPeriodMs) + 1) * watchPeriodMs;
      await Promise.all(watches.map((watch) => watch.tick()));
      expect(claims).toHaveLength(4);
      expect(await events(test.db())).toEqual(['opened webhook', 'opened email']);
    });
  });

  describe('the database rule', () => {
    function fakeChannel(results: boolean[] = []) {
      const sent: string[] = [];
      const channel: DeliveryChannel = {
        send: async (payload) => {
          sent.push(payload);
          return results.shift() ?? true ? { ok: true } : { ok: false, reason: 'HTTP 500' };
        },
        close() {},
      };
      return { channel, sent };
    }
    const logged: string[] = [];
    const logger: Logger = { info: () => {}, warning: (line: string) => void logged.push(line), error: (line: string) => void logged.push(line) };
    const names = { instance: 'web-1 pid 4242', database: 'DATABASE_URL postgres://site:***@db/site' };

    it('sends the alert itself once the database has not answered for 5 minutes, and records the outage when it answers', async () => {
      const availability: { downSince: number | undefined } = { downSince: undefined };
      const webhook = fakeChannel([false]);
      const email = fakeChannel();
      const store = createIncidentStore(test.db(), { channels: ['webhook', 'email'], siteUrl });
      const outage = new DatabaseOutage({ db: test.db(), availability, incidents: store, channels: { webhook: webhook.channel, email: email.channel }, names, siteUrl, logger });

      const down = now;
      availability.downSince = down;
      await outage.check(down + minute);
      await outage.check(down + 5 * minute);
      expect(webhook.sent).toEqual([]);
      // Past 5 minutes: sent on both; the webhook failed once and is tried again at the next look, the e-mail is not sent twice.
      await outage.check(down + 5 * minute + 1);
      expect([webhook.sent.length, email.sent.length]).toEqual([1, 1]);
      await outage.check(down + 6 * minute);
      await outage.check(down + 7 * minute);
      expect([webhook.sent.length, email.sent.length]).toEqual([2, 1]);
      const body = JSON.parse(webhook.sent[1]!) as { text: string; alert: Record<string, unknown> };
      expect(body.text).toContain('The statistics database (DATABASE_URL postgres://site:***@db/site) has not answered instance web-1 pid 4242 since 2026-11-21 20:00 UTC, more than 5 minutes');
      expect(body.alert).toMatchObject({ rule: 'database', subject: 'web-1 pid 4242', state: 'opened', incident: 0 });
      expect(await events(test.db())).toEqual([]);

      availability.downSince = undefined;
      await outage.check(down + 12 * minute);
      const incidents = await test.db().selectFrom('incidents').selectAll().execute();
      expect(incidents).toEqual([
        expect.objectContaining({ rule: 'database', subject: 'web-1 pid 4242', opened_at: down, closed_at: down + 12 * minute, recovery: expect.stringContaining('again, after about 12 minutes') }),
      ]);
      expect(await events(test.db())).toEqual(['recovered webhook', 'recovered email']);
      await outage.check(down + 13 * minute);
      expect(await test.db().selectFrom('incidents').selectAll().execute()).toHaveLength(1);
      expect([webhook.sent.length, email.sent.length]).toEqual([2, 1]);
    });

    it('forgets an outage of 5 minutes or less, and records a long one with alerts off', async () => {
      const availability: { downSince: number | undefined } = { downSince: now };
      const store = createIncidentStore(test.db(), { channels: [], siteUrl });
      const outage = new DatabaseOutage({ db: test.db(), availability, incidents: store, channels: {}, names, siteUrl, logger });
      await outage.check(now + 4 * minute);
      availability.downSince = undefined;
      await outage.check(now + 5 * minute);
      expect(await test.db().selectFrom('incidents').selectAll().execute()).toEqual([]);

      availability.downSince = now + hour;
      await outage.check(now + hour + 10 * minute);
      availability.downSince = undefined;
      await outage.check(now + hour + 11 * minute);
      expect(await test.db().selectFrom('incidents').select(['rule', 'opened_at', 'closed_at']).execute()).toEqual([{ rule: 'database', opened_at: now + hour, closed_at: now + hour + 11 * minute }]);
      expect(await events(test.db())).toEqual([]);
    });
  });

  describe('the overview /admin shows', () => {
    it('lists the open incidents and the closed ones of the last 30 days, with each delivery', async () => {
      const store = createIncidentStore(test.db(), { channels: ['webhook'], siteUrl });
      await store.open('link', '', 'The link is broken', now - 40 * day);
      await store.close('link', '', 'It works', now - 35 * day);
      await store.open('views', '', 'No views since', now - 40 * day);
      await store.close('views', '', 'Views again', now - 2 * day);
      await store.open('sales', 'hero', 'No sale', now - hour);
      await test.db().updateTable('outbox').set({ sent_at: now - 30 * minute, next_attempt_at: null }).where('event', '=', 'opened').execute();

      const overview = await readAlertsOverview(test.db(), ['webhook'], now);
      expect(overview.channels).toEqual(['webhook']);
      expect(overview.open).toEqual([expect.objectContaining({ rule: 'sales', subject: 'hero', summary: 'No sale', closedAt: null })]);
      expect(overview.open[0]!.deliveries).toEqual([expect.objectContaining({ event: 'opened', channel: 'webhook', status: { state: 'sent', at: now - 30 * minute } })]);
      expect(overview.recent.map((incident) => incident.rule)).toEqual(['views']);
      expect(overview.recent[0]!.deliveries.map((delivery) => [delivery.event, delivery.status.state])).toEqual([
        ['opened', 'sent'],
        ['recovered', 'pending'],
      ]);
      expect(overview.truncated).toBe(false);
      // No range asked: none for a chart.
      expect(overview.inRange).toEqual([]);
    });

    it('adds the incidents opened in a report range, open or closed, however old, newest first', async () => {
      const store = createIncidentStore(test.db(), { channels: [], siteUrl });
      const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
      await store.open('link', '', 'Broken long ago', now - 200 * day);
      await store.close('link', '', 'It works', now - 199 * day);
      await store.open('views', '', 'Before the range', now - 400 * day);
      await store.close('views', '', 'Views again', now - 399 * day);
      await store.open('sales', 'hero', 'No sale', now - hour);
      const overview = await readAlertsOverview(test.db(), [], now, { from: dayOf(now - 364 * day), to: dayOf(now) });
      expect(overview.inRange.map((incident) => incident.summary)).toEqual(['No sale', 'Broken long ago']);
      // A range in the past leaves out what opened after its last day.
      const past = await readAlertsOverview(test.db(), [], now, { from: dayOf(now - 364 * day), to: dayOf(now - 150 * day) });
      expect(past.inRange.map((incident) => incident.summary)).toEqual(['Broken long ago']);
    });
  });
});
