import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { createIncidentStore, type IncidentStore } from '../../server/alerts/incidents';
import { runRules } from '../../server/alerts/watch';
import { readSpendFacts } from '../../server/alerts/rules/spendRule';
import { replaceCosts } from '../../server/costs/costStore';
import type { CostRow } from '../../server/costs/costRow';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { addDays, dayMs, utcDay } from '../../server/lib/utcDay';
import { engines, useTestDatabase } from '../support/engines';

/**
 * The spend rule read from rows laid out in the tables, with time as an input: views of a source (and a
 * campaign) over the 14 days up to `now`, its costs through the cost store, and its sales, credited to the
 * source and campaign of their click as migration 12 keeps them.
 */

const minute = 60_000;
const siteUrl = 'https://auctions.example.com';
/** The window at now: 2026-11-08 to 2026-11-21, today included. */
const now = Date.parse('2026-11-21T20:00:00Z');
const firstDay = '2026-11-08';
const days = Array.from({ length: 14 }, (_, index) => addDays(firstDay, index));

interface Traffic {
  source: string;
  campaign?: string;
}

/** `count` visitors of the source (and campaign), spread evenly over the 14 days up to 18:00 today. */
async function addVisitors(db: Kysely<Schema>, { source, campaign }: Traffic, count: number, from = Date.parse(`${firstDay}T00:00:00Z`), to = now - 2 * 60 * minute): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => {
    const at = Math.floor(from + ((to - from) * index) / count);
    return { at, day: utcDay(new Date(at)), page: '/', referrer_host: null, source, medium: 'cpc', campaign: campaign ?? null, content: null, device: 'mobile', visitor: `${source}-${campaign ?? ''}-${index}` };
  });
  for (let start = 0; start < rows.length; start += 500) await db.insertInto('views').values(rows.slice(start, start + 500)).execute();
}

let txids = 0;

/** Sales of `payout` USD credited to the source (and campaign), their clicks at each moment given. */
async function addSales(db: Kysely<Schema>, { source, campaign }: Traffic, moments: number[], payout = 40, currency = 'USD'): Promise<void> {
  const rows = moments.map((at) => ({
    txid: `spend-${(txids += 1)}`,
    subid: 'hero',
    click_id: null,
    placement: 'hero',
    payout_micros: payout * 1_000_000,
    currency,
    status: 'sale',
    received_at: at + 30 * minute,
    day: utcDay(new Date(at + 30 * minute)),
    reversed_at: null,
    click_day: utcDay(new Date(at)),
    source,
    campaign: campaign ?? null,
  }));
  await db.insertInto('conversions').values(rows).execute();
}

/** The same amount on each of the days, as an ad platform's daily report sets it. */
const dailyCosts = ({ source, campaign }: Traffic, amount: number, on: readonly string[] = days, currency = 'USD'): CostRow[] =>
  on.map((day) => ({ day, source, campaign: campaign ?? '', content: '', amountMicros: Math.round(amount * 1_000_000), currency }));

const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

async function incidents(db: Kysely<Schema>) {
  return db.selectFrom('incidents').selectAll().orderBy('id').execute();
}

async function outbox(db: Kysely<Schema>) {
  return db.selectFrom('outbox').select(['event', 'channel', 'payload']).orderBy('id').execute();
}

const google: Traffic = { source: 'google' };

describe.each(engines)('the spend rule on %s', (engine) => {
  const { db } = useTestDatabase(engine);
  let store: IncidentStore;
  beforeEach(() => {
    store = createIncidentStore(db(), { channels: ['webhook', 'email'], siteUrl });
  });

  /** google: 200 visitors, 40.00 USD a day (560.00 in all), 3 sales of 40.00: 1.5% against a break-even of 7%. */
  async function layOutLosingSource() {
    await addVisitors(db(), google, 200);
    await replaceCosts(db(), dailyCosts(google, 40));
    await addSales(db(), google, [noon('2026-11-10'), noon('2026-11-14'), noon('2026-11-19')]);
  }

  it('alerts once for a source losing money over the 14 days, and recovers once it pays', async () => {
    await layOutLosingSource();
    const { window, currency, facts } = await readSpendFacts(db(), now);
    expect(window).toEqual({ from: '2026-11-08', to: '2026-11-21' });
    expect(currency).toBe('USD');
    const googleFacts = facts.find((row) => row.subject === 'google');
    expect(googleFacts).toMatchObject({ cost: 560, revenue: 120, profit: -440, visitors: 200, conversions: 3 });
    expect(googleFacts!.chanceProfitable).toBeLessThan(0.05);

    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'spend', subject: 'google' }], closed: [], failed: [] });
    const [incident] = await incidents(db());
    expect(incident).toMatchObject({ rule: 'spend', subject: 'google', opened_at: now, closed_at: null });
    expect(incident!.summary).toMatch(
      /^google cost 560\.00 USD in the 14 days 2026-11-08 to 2026-11-21 \(UTC, today included\) and brought 200 visitors and 3 conversions worth 120\.00 USD: a loss of 440\.00 USD\. The chance that it earns more than it costs is [0-9.]+%, under 5%/,
    );
    const opened = await outbox(db());
    expect(opened.map((row) => [row.event, row.channel])).toEqual([
      ['opened', 'webhook'],
      ['opened', 'email'],
    ]);
    const body = JSON.parse(opened[0]!.payload) as { text: string; alert: Record<string, unknown> };
    expect(body.text).toMatch(/^Alert: losing money on google \(auctions\.example\.com\)\.\ngoogle cost 560\.00 USD/);
    expect(body.alert).toMatchObject({ rule: 'spend', subject: 'google', state: 'opened' });

    // Still losing five minutes later: nothing more is sent.
    expect(await runRules({ db: db() }, store, now + 5 * minute)).toEqual({ opened: [], closed: [], failed: [] });
    expect(await outbox(db())).toHaveLength(2);

    // Eleven more sales: 14 of 40.00 USD is 560.00, as much as it cost.
    await addSales(db(), google, Array.from({ length: 11 }, (_, index) => now - (index + 1) * 10 * minute - 3 * 60 * minute));
    expect(await runRules({ db: db() }, store, now + 10 * minute)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google' }], failed: [] });
    expect(await incidents(db())).toEqual([
      expect.objectContaining({ closed_at: now + 10 * minute, recovery: 'google pays for itself again: 560.00 USD earned for 560.00 USD spent in the 14 days 2026-11-08 to 2026-11-21.' }),
    ]);
    expect((await outbox(db())).map((row) => row.event)).toEqual(['opened', 'opened', 'recovered', 'recovered']);
    expect(await runRules({ db: db() }, store, now + 15 * minute)).toEqual({ opened: [], closed: [], failed: [] });
  });

  it('reads the same figures once the window’s days are closed into daily totals', async () => {
    await layOutLosingSource();
    const before = (await readSpendFacts(db(), now)).facts.find((row) => row.subject === 'google');
    await closeFinishedDays(db(), (closing) => readRawDayCounts(db(), closing), new Date(now));
    expect(await db().selectFrom('closed_days').select('day').orderBy('day', 'desc').limit(1).executeTakeFirst()).toEqual({ day: '2026-11-20' });
    expect((await readSpendFacts(db(), now)).facts.find((row) => row.subject === 'google')).toEqual(before);
  });

  it('recovers once its window no longer holds the least spend, and once it holds no cost at all', async () => {
    await layOutLosingSource();
    expect(await runRules({ db: db() }, store, now)).toMatchObject({ opened: [{ rule: 'spend', subject: 'google' }] });

    // 13 days on, the window (2026-11-21 to 2026-12-04) holds one day of 40.00 USD: under 50.
    const later = now + 13 * dayMs;
    expect(await runRules({ db: db() }, store, later)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google' }], failed: [] });
    expect((await incidents(db()))[0]!.recovery).toBe('google cost 40.00 USD in the 14 days 2026-11-21 to 2026-12-04, under the 50.00 USD the rule watches.');

    // It loses money again (a week of 100.00 USD a day and no sale of its own, planned with the site's
    // payout: a newsletter sale), then its window holds nothing: the report no longer lists it at all,
    // and the incident still closes.
    const laterDays = Array.from({ length: 7 }, (_, index) => addDays('2026-12-01', index));
    await replaceCosts(db(), dailyCosts(google, 100, laterDays));
    await addVisitors(db(), google, 100, Date.parse('2026-12-01T00:00:00Z'), Date.parse('2026-12-07T12:00:00Z'));
    await addSales(db(), { source: 'newsletter' }, [noon('2026-12-03')]);
    const reopen = Date.parse('2026-12-07T20:00:00Z');
    expect(await runRules({ db: db() }, store, reopen)).toEqual({ opened: [{ rule: 'spend', subject: 'google' }], closed: [], failed: [] });
    const gone = Date.parse('2026-12-25T20:00:00Z');
    expect((await readSpendFacts(db(), gone)).facts.map((row) => row.subject)).not.toContain('google');
    expect(await runRules({ db: db() }, store, gone)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google' }], failed: [] });
    expect((await incidents(db()))[1]!.recovery).toBe('google has no cost in USD in the 14 days 2026-12-12 to 2026-12-25 any more: nothing left to lose.');
  });

  it('stays quiet under the least spend, and on a cost in another currency than the main one', async () => {
    // Neither brought a visitor (a chance of profit of 0): tiktok spent 49.99 USD, bing 50.00.
    await replaceCosts(db(), [...dailyCosts({ source: 'tiktok' }, 49.99, ['2026-11-20']), ...dailyCosts({ source: 'bing' }, 50, ['2026-11-20'])]);
    // facebook spends in EUR while the sales are in USD: no profit is reckoned, so no verdict.
    await addVisitors(db(), { source: 'facebook' }, 200);
    await replaceCosts(db(), dailyCosts({ source: 'facebook' }, 40, days, 'EUR'));
    await addSales(db(), { source: 'newsletter' }, [noon('2026-11-15')]);
    const { facts } = await readSpendFacts(db(), now);
    expect(facts.find((row) => row.subject === 'facebook')).toMatchObject({ cost: null, chanceProfitable: null });
    expect(facts.find((row) => row.subject === 'tiktok')).toMatchObject({ cost: 49.99, chanceProfitable: 0 });
    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'spend', subject: 'bing' }], closed: [], failed: [] });
  });

  it('alerts for a campaign losing money, named by its source and campaign, and recovers once it pays', async () => {
    const spring: Traffic = { source: 'google', campaign: 'spring-auctions' };
    const brand: Traffic = { source: 'google', campaign: 'brand' };
    // spring-auctions loses (200 visitors, 40.00 USD a day, 3 sales); brand pays (200 visitors, 10.00 a day, 10 sales): google as a whole pays too.
    await addVisitors(db(), spring, 200);
    await addVisitors(db(), brand, 200);
    await replaceCosts(db(), [...dailyCosts(spring, 40), ...dailyCosts(brand, 10)]);
    await addSales(db(), spring, [noon('2026-11-10'), noon('2026-11-14'), noon('2026-11-19')]);
    await addSales(db(), brand, Array.from({ length: 10 }, (_, index) => noon(days[index]!)), 70);
    const { facts } = await readSpendFacts(db(), now);
    expect(facts.find((row) => row.subject === 'google / spring-auctions')).toMatchObject({ cost: 560, revenue: 120, visitors: 200, conversions: 3 });
    expect(facts.find((row) => row.subject === 'google / brand')).toMatchObject({ cost: 140, revenue: 700 });
    expect(facts.find((row) => row.subject === 'google')).toMatchObject({ cost: 700, revenue: 820 });

    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'spend', subject: 'google / spring-auctions' }], closed: [], failed: [] });
    const body = JSON.parse((await outbox(db()))[0]!.payload) as { text: string };
    // The example of docs/alerts.md, word for word.
    expect(body.text).toBe(
      'Alert: losing money on google / spring-auctions (auctions.example.com).\n' +
        'google / spring-auctions cost 560.00 USD in the 14 days 2026-11-08 to 2026-11-21 (UTC, today included) and brought 200 visitors and 3 conversions worth 120.00 USD: a loss of 440.00 USD. ' +
        'The chance that it earns more than it costs is 0.032%, under 5% (the verdict on /admin, which waits for firmer evidence, reads "too early: about 2,100 more visitors to know"). ' +
        'Lower its bids or pause it on the ad platform; if sales seem missing, check that its ads carry their utm tags.\n' +
        'https://auctions.example.com/admin',
    );

    await addSales(db(), spring, Array.from({ length: 11 }, (_, index) => now - (index + 1) * 10 * minute - 3 * 60 * minute));
    expect(await runRules({ db: db() }, store, now + 5 * minute)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google / spring-auctions' }], failed: [] });
    expect((await incidents(db()))[0]!.recovery).toBe('google / spring-auctions pays for itself again: 560.00 USD earned for 560.00 USD spent in the 14 days 2026-11-08 to 2026-11-21.');
  });
});
