import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { createIncidentStore, type IncidentStore } from '../../server/alerts/incidents';
import { runRules } from '../../server/alerts/watch';
import { clickCap, readSalesFacts } from '../../server/alerts/rules/salesRule';
import { dayCountCap } from '../../server/alerts/rules/silenceRule';
import { databaseLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import type { LinkCheckResult } from '../../server/linkHealth/checkLink';
import { claimJobRun } from '../../server/jobs/jobRuns';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { addClicksBetween, addSales, addViewsBetween, momentsBetween } from '../support/alertRows';
import { engines, useTestDatabase } from '../support/engines';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const siteUrl = 'https://auctions.example.com';

/** The hero's last sale, at noon; the 30 days up to it (2026-10-22 to 2026-11-20) hold 1,000 clicks and 20 sales: 2%. */
const lastSale = Date.parse('2026-11-20T12:00:00Z');
const windowStart = Date.parse('2026-10-22T00:00:00Z');
/** The clicks since the sale come on the next day, so they are not in the window. */
const nextDay = Date.parse('2026-11-21T00:00:00Z');
const now = Date.parse('2026-11-21T20:00:00Z');

async function outbox(db: Kysely<Schema>) {
  return db.selectFrom('outbox').select(['incident_id', 'event', 'channel', 'payload']).orderBy('id').execute();
}

async function incidents(db: Kysely<Schema>) {
  return db.selectFrom('incidents').selectAll().orderBy('id').execute();
}

describe.each(engines)('alert rules on %s', (engine) => {
  const { db } = useTestDatabase(engine);
  let store: IncidentStore;
  beforeEach(() => {
    store = createIncidentStore(db(), { channels: ['webhook', 'email'], siteUrl });
  });

  describe('sales gone silent', () => {
    async function layOutRate() {
      await addClicksBetween(db(), 'hero', 1000, windowStart, lastSale);
      await addSales(db(), 'hero', [...momentsBetween(19, windowStart, lastSale - hour), lastSale]);
      // Another placement's sales and a refunded hero sale after the last one change nothing.
      await addSales(db(), 'bonus', [lastSale + hour]);
      await addSales(db(), 'hero', [lastSale + 2 * hour], { reversed: true });
    }

    it('stays quiet at 339 clicks since the last sale at 2% (6.78 expected, under the line of 6.80 that 20 sales a month set)', async () => {
      await layOutRate();
      await addClicksBetween(db(), 'hero', 339, nextDay, now);
      expect(await readSalesFacts(db(), 'hero')).toEqual({ placement: 'hero', lastSaleAt: lastSale, windowSales: 20, windowClicks: 1000, clicksSince: 339 });
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
      expect(await incidents(db())).toEqual([]);
    });

    it('opens at 340 (6.80 expected: a chance of none of 0.11%), alerts on every channel once, and closes at the next sale', async () => {
      await layOutRate();
      await addClicksBetween(db(), 'hero', 340, nextDay, now);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'sales', subject: 'hero' }], closed: [], failed: [] });
      const [incident] = await incidents(db());
      expect(incident).toMatchObject({ rule: 'sales', subject: 'hero', opened_at: now, closed_at: null });
      expect(incident!.summary).toContain('No sale on hero since 2026-11-20 12:00 UTC, though 340 clicks came since');
      expect(incident!.summary).toContain('20 of 1,000 clicks converted (2.00%), so 6.8 sales were expected and the chance of none is 0.11%');
      const opened = await outbox(db());
      expect(opened.map((row) => [Number(row.incident_id), row.event, row.channel])).toEqual([
        [Number(incident!.id), 'opened', 'webhook'],
        [Number(incident!.id), 'opened', 'email'],
      ]);
      const body = JSON.parse(opened[0]!.payload) as { text: string; alert: Record<string, unknown> };
      expect(body.text).toMatch(/^Alert: sales gone silent on hero \(auctions\.example\.com\)\./);
      expect(body.alert).toEqual({ rule: 'sales', subject: 'hero', state: 'opened', at: new Date(now).toISOString(), site: siteUrl, incident: Number(incident!.id) });
      expect(JSON.parse(opened[1]!.payload)).toMatchObject({ subject: '[auctions.example.com] Alert: sales gone silent on hero' });

      // Still silent: the open incident is left alone, nothing more is sent.
      expect(await runRules({ db: db() }, store, now + 5 * minute)).toEqual({ opened: [], closed: [], failed: [] });
      expect(await outbox(db())).toHaveLength(2);

      await addSales(db(), 'hero', [now + 10 * minute]);
      expect(await runRules({ db: db() }, store, now + 15 * minute)).toEqual({ opened: [], closed: [{ rule: 'sales', subject: 'hero' }], failed: [] });
      expect(await incidents(db())).toEqual([expect.objectContaining({ closed_at: now + 15 * minute, recovery: 'Sales on hero again: the latest at 2026-11-21 20:10 UTC.' })]);
      expect((await outbox(db())).map((row) => [row.event, row.channel])).toEqual([
        ['opened', 'webhook'],
        ['opened', 'email'],
        ['recovered', 'webhook'],
        ['recovered', 'email'],
      ]);
    });

    it('reads the same rate once the window’s days are closed into daily totals', async () => {
      await layOutRate();
      await addClicksBetween(db(), 'hero', 340, nextDay, now);
      await closeFinishedDays(db(), (closing) => readRawDayCounts(db(), closing), new Date(now));
      expect(await db().selectFrom('closed_days').select('day').orderBy('day', 'desc').limit(1).executeTakeFirst()).toEqual({ day: '2026-11-20' });
      expect(await readSalesFacts(db(), 'hero')).toMatchObject({ windowSales: 20, windowClicks: 1000, clicksSince: 340 });
    });

    it('counts the clicks since the last sale no further than the rule needs', async () => {
      await layOutRate();
      await addClicksBetween(db(), 'hero', 400, nextDay, now);
      expect(clickCap(0.02, 20)).toBe(341);
      expect(await readSalesFacts(db(), 'hero')).toMatchObject({ clicksSince: 341 });
      await runRules({ db: db() }, store, now);
      expect((await incidents(db()))[0]!.summary).toContain('though more than 340 clicks came since');
    });

    it('says nothing of a placement that never sold, or whose window had no click', async () => {
      await addClicksBetween(db(), 'hero', 5000, windowStart, now);
      await addSales(db(), 'bonus', [lastSale]);
      await addClicksBetween(db(), 'bonus', 5000, nextDay, now);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
    });
  });

  describe.each(['views', 'clicks'] as const)('%s gone silent', (rule) => {
    const add = (count: number, from: number, to: number) =>
      rule === 'views' ? addViewsBetween(db(), count, from, to) : addClicksBetween(db(), 'hero', count, from, to);
    /** `perDay[d - 1]` in the same 60 minutes d days before now. */
    const layOutHours = async (perDay: number[]) => {
      for (const [index, count] of perDay.entries()) {
        const end = now - (index + 1) * day;
        await add(count, end - 59 * minute, end);
      }
    };

    it('opens when none came in the last 60 minutes and the same hour of the 14 days before averaged 12, past the line of 11.75', async () => {
      await layOutHours(Array(14).fill(12));
      // Outside the hour, before and after: not counted.
      await add(50, now - 3 * hour, now - 61 * minute);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule, subject: '' }], closed: [], failed: [] });
      const [incident] = await incidents(db());
      expect(incident!.summary).toContain(`the same 60 minutes of the 14 days before had 12.0 on average (some on 14 of them): the chance of none is 0.00061%`);

      await add(1, now + 2 * minute, now + 3 * minute);
      expect(await runRules({ db: db() }, store, now + 5 * minute)).toEqual({ opened: [], closed: [{ rule, subject: '' }], failed: [] });
      expect((await outbox(db())).map((row) => row.event)).toEqual(['opened', 'opened', 'recovered', 'recovered']);
    });

    it('stays quiet when the hour averaged 11.5, under the line its budget sets (though a chance of none of 0.001%)', async () => {
      await layOutHours([...Array(7).fill(12), ...Array(7).fill(11)]);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
    });

    it('stays quiet when one busy day alone made the average (the hour is not usually busy)', async () => {
      await layOutHours([0, 0, 0, 500, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
    });

    it('stays quiet when some came in the hour', async () => {
      await layOutHours(Array(14).fill(50));
      await add(1, now - 59 * minute, now - 58 * minute);
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
    });

    it('counts a busy day only to the cap that already decides', async () => {
      expect(dayCountCap).toBe(165);
      await layOutHours(Array(14).fill(200));
      await runRules({ db: db() }, store, now);
      expect((await incidents(db()))[0]!.summary).toContain('had at least 165.0 on average');
    });
  });

  describe('the affiliate link', () => {
    const check = (minutesAgo: number, status: number, verdict: LinkCheckResult['verdict']): LinkCheckResult => ({
      checkedAt: new Date(now - minutesAgo * minute),
      url: 'https://partner.example.net/join',
      finalUrl: 'https://partner.example.net/join',
      status,
      redirects: 0,
      ms: 80,
      verdict,
    });

    it('opens after two 404/410 in a row, ignores one, and closes at the next ok', async () => {
      const log = databaseLinkCheckLog(db(), (job, period) => claimJobRun(db(), job, period));
      const sources = { db: db(), linkChecks: log };
      await log.add(check(300, 200, 'ok'));
      await log.add(check(200, 404, 'broken'));
      expect(await runRules(sources, store, now)).toEqual({ opened: [], closed: [], failed: [] });
      await log.add(check(100, 503, 'error'));
      await log.add(check(50, 410, 'broken'));
      expect(await runRules(sources, store, now)).toEqual({ opened: [{ rule: 'link', subject: '' }], closed: [], failed: [] });
      expect((await incidents(db()))[0]!.summary).toContain('https://partner.example.net/join answered 410 on 2 checks in a row');
      await log.add(check(1, 200, 'ok'));
      expect(await runRules(sources, store, now)).toEqual({ opened: [], closed: [{ rule: 'link', subject: '' }], failed: [] });
    });

    it('is not read when the link is not checked (no LINK_CHECK_HOURS)', async () => {
      const log = databaseLinkCheckLog(db(), (job, period) => claimJobRun(db(), job, period));
      await log.add(check(200, 404, 'broken'));
      await log.add(check(100, 404, 'broken'));
      expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
    });
  });

  describe('with alerts off', () => {
    it('records the incident for /admin and enqueues nothing', async () => {
      const quiet = createIncidentStore(db(), { channels: [], siteUrl });
      for (let days = 1; days <= 14; days += 1) await addViewsBetween(db(), 20, now - days * day - 30 * minute, now - days * day);
      expect(await runRules({ db: db() }, quiet, now)).toMatchObject({ opened: [{ rule: 'views', subject: '' }] });
      expect(await outbox(db())).toEqual([]);
    });
  });
});
