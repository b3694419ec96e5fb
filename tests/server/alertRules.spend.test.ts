import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { createIncidentStore, type IncidentStore } from '../../server/alerts/incidents';
import { runRules } from '../../server/alerts/watch';
import { readSpendFacts } from '../../server/alerts/rules/spendRule';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { replaceCosts } from '../../server/costs/costStore';
import type { CostRow } from '../../server/costs/costRow';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { addDays, dayMs, utcDay } from '../../server/lib/utcDay';
import { engines, useTestDatabase } from '../support/engines';

/**
 * The spend and untracked rules read from rows laid out in the tables, with time as an input: views of a
 * source (and a campaign) over the 56 closed days up to yesterday, its costs through the cost store, and
 * its sales, credited to the source and campaign of their click as migration 12 keeps them.
 */

const minute = 60_000;
const siteUrl = 'https://auctions.example.com';
/** The window at now: the closed days 2026-09-26 to 2026-11-20. */
const now = Date.parse('2026-11-21T20:00:00Z');
const firstDay = '2026-09-26';
const days = Array.from({ length: 56 }, (_, index) => addDays(firstDay, index));

interface Traffic {
  source: string;
  campaign?: string;
}

/** `count` visitors of the source (and campaign), spread evenly over the 56 days up to the end of yesterday. */
async function addVisitors(db: Kysely<Schema>, { source, campaign }: Traffic, count: number, from = Date.parse(`${firstDay}T00:00:00Z`), to = Date.parse('2026-11-21T00:00:00Z')): Promise<void> {
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
/** Three sales, two of them on clicks old enough for the site's sale history (30 days and more). */
const threeSales = [noon('2026-10-01'), noon('2026-10-15'), noon('2026-11-10')];
/**
 * The site's other sales, 50 of 40.00 USD from a newsletter that costs nothing: with them /admin knows the
 * site pays a fixed 40.00 (50 paid sales and more, no spread: server/costs/payoutSpread.ts). Without them a
 * site of three sales has its payouts' spread and mean taken cautiously, and google's loss is too early to call.
 */
const addSiteSales = (db: Kysely<Schema>) => addSales(db, { source: 'newsletter' }, days.slice(0, 50).map(noon));

describe.each(engines)('the spend rule on %s', (engine) => {
  const { db } = useTestDatabase(engine);
  let store: IncidentStore;
  beforeEach(() => {
    store = createIncidentStore(db(), { channels: ['webhook', 'email'], siteUrl });
  });

  /** google: 2,000 visitors, 30.00 USD a day (1,680.00 in all), 3 sales of 40.00: 0.15% against a break-even of 2.1%; and the site's other sales. */
  async function layOutLosingSource() {
    await addVisitors(db(), google, 2000);
    await replaceCosts(db(), dailyCosts(google, 30));
    await addSales(db(), google, threeSales);
    await addSiteSales(db());
  }

  it("calls a loss too early on a site of three sales, whose payouts' mean and spread are not known yet, and alerts nothing", async () => {
    await addVisitors(db(), google, 2000);
    await replaceCosts(db(), dailyCosts(google, 30));
    await addSales(db(), google, threeSales);
    const { facts } = await readSpendFacts(db(), now);
    expect(facts.find((row) => row.subject === 'google')).toMatchObject({ cost: 1680, revenue: 120, conversions: 3, verdict: 'too-early' });
    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [], closed: [], failed: [] });
  });

  it('alerts once for a source losing money over the 56 closed days, as /admin reads it, and closes once it clearly no longer loses', async () => {
    await layOutLosingSource();
    const { window, currency, facts } = await readSpendFacts(db(), now);
    expect(window).toEqual({ from: '2026-09-26', to: '2026-11-20' });
    expect(currency).toBe('USD');
    const googleFacts = facts.find((row) => row.subject === 'google');
    expect(googleFacts).toMatchObject({ cost: 1680, revenue: 120, profit: -1560, visitors: 2000, conversions: 3, verdict: 'losing' });
    expect(googleFacts!.arrived).toBeGreaterThan(0.5);
    expect(googleFacts!.arrived).toBeLessThan(1);

    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'spend', subject: 'google' }], closed: [], failed: [] });
    const [incident] = await incidents(db());
    expect(incident).toMatchObject({ rule: 'spend', subject: 'google', opened_at: now, closed_at: null });
    expect(incident!.summary).toMatch(/^google cost 1,680\.00 USD in the 56 days 2026-09-26 to 2026-11-20 \(UTC\) and brought 2,000 visitors and 3 conversions worth 120\.00 USD \([0-9]+% of its sales are in/);
    expect(incident!.summary).toContain('/admin\'s verdict for these days (/admin?from=2026-09-26&to=2026-11-20) reads "losing money"');
    // What /admin?from=2026-09-26&to=2026-11-20 shows for google: the same report, the same verdict.
    const page = await readFunnelReport(db(), { from: '2026-09-26', to: '2026-11-20' }, { now: new Date(now) });
    expect(page.costs.sources.find((row) => row.source === 'google')).toMatchObject({ verdict: 'losing', cost: 1680, revenue: 120 });
    const opened = await outbox(db());
    expect(opened.map((row) => [row.event, row.channel])).toEqual([
      ['opened', 'webhook'],
      ['opened', 'email'],
    ]);
    const body = JSON.parse(opened[0]!.payload) as { text: string; alert: Record<string, unknown> };
    expect(body.text).toMatch(/^Alert: losing money on google \(auctions\.example\.com\)\.\ngoogle cost 1,680\.00 USD/);
    expect(body.alert).toMatchObject({ rule: 'spend', subject: 'google', state: 'opened' });

    // Still losing five minutes later: nothing more is sent.
    expect(await runRules({ db: db() }, store, now + 5 * minute)).toEqual({ opened: [], closed: [], failed: [] });
    expect(await outbox(db())).toHaveLength(2);

    // One more sale is not enough to close it: still at a loss, /admin still reads losing money.
    await addSales(db(), google, [noon('2026-11-19')]);
    expect(await runRules({ db: db() }, store, now + 10 * minute)).toEqual({ opened: [], closed: [], failed: [] });

    // 45 more sales over the window: 49 of 40.00 USD is 1,960.00, past what it cost and what break-even would have brought by now.
    await addSales(db(), google, Array.from({ length: 45 }, (_, index) => noon(days[index]!)));
    expect(await runRules({ db: db() }, store, now + 15 * minute)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google' }], failed: [] });
    expect((await incidents(db()))[0]!.recovery).toBe(
      'google no longer loses money: 1,960.00 USD earned for 1,680.00 USD spent in the 56 days 2026-09-26 to 2026-11-20, at least break-even once the sales still to come are counted, and /admin no longer reads "losing money".',
    );
    expect((await outbox(db())).map((row) => row.event)).toEqual(['opened', 'opened', 'recovered', 'recovered']);
  });

  it('reads the same figures once the window’s days are closed into daily totals', async () => {
    await layOutLosingSource();
    const before = (await readSpendFacts(db(), now)).facts.find((row) => row.subject === 'google');
    await closeFinishedDays(db(), (closing) => readRawDayCounts(db(), closing), new Date(now));
    expect(await db().selectFrom('closed_days').select('day').orderBy('day', 'desc').limit(1).executeTakeFirst()).toEqual({ day: '2026-11-20' });
    expect((await readSpendFacts(db(), now)).facts.find((row) => row.subject === 'google')).toEqual(before);
  });

  it('closes once the window holds no cost at all', async () => {
    await layOutLosingSource();
    expect(await runRules({ db: db() }, store, now)).toMatchObject({ opened: [{ rule: 'spend', subject: 'google' }] });
    const gone = now + 60 * dayMs;
    expect((await readSpendFacts(db(), gone)).facts.map((row) => row.subject)).not.toContain('google');
    expect(await runRules({ db: db() }, store, gone)).toEqual({ opened: [], closed: [{ rule: 'spend', subject: 'google' }], failed: [] });
    expect((await incidents(db()))[0]!.recovery).toMatch(/^google has no cost in USD in the 56 days .* any more: nothing left to lose\.$/);
  });

  it('gives spend without visitors the untracked alert, never losing money; stays quiet under the least spend and on a cost in another currency', async () => {
    // Neither brought a visitor: tiktok spent 49.99 USD, bing 60.00.
    await replaceCosts(db(), [...dailyCosts({ source: 'tiktok' }, 49.99, ['2026-11-20']), ...dailyCosts({ source: 'bing' }, 60, ['2026-11-20'])]);
    // facebook spends in EUR while the sales are in USD: no profit is reckoned, so no verdict.
    await addVisitors(db(), { source: 'facebook' }, 200);
    await replaceCosts(db(), dailyCosts({ source: 'facebook' }, 40, days, 'EUR'));
    await addSales(db(), { source: 'newsletter' }, threeSales);
    const { facts } = await readSpendFacts(db(), now);
    expect(facts.find((row) => row.subject === 'facebook')).toMatchObject({ cost: null, chanceProfitable: null });
    expect(facts.find((row) => row.subject === 'bing')).toMatchObject({ cost: 60, visitors: 0 });
    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'untracked', subject: 'bing' }], closed: [], failed: [] });
    expect((await incidents(db()))[0]!.summary).toBe(
      "bing cost 60.00 USD in the 56 days 2026-09-26 to 2026-11-20 (UTC) but no visitor is recorded for it: spend not matched to any visits. Check the campaign's utm tags (utm_source, utm_campaign) against its name in the cost report.",
    );
  });

  it('alerts for a campaign losing money, named by its source and campaign, and not for the campaign beside it that pays', async () => {
    const spring: Traffic = { source: 'google', campaign: 'spring-auctions' };
    const brand: Traffic = { source: 'google', campaign: 'brand' };
    // spring-auctions loses (2,000 visitors, 30.00 USD a day, 3 sales); brand pays (2,000 visitors, 5.00 a day, 30 sales of 70): google as a whole pays too.
    await addVisitors(db(), spring, 2000);
    await addVisitors(db(), brand, 2000);
    await replaceCosts(db(), [...dailyCosts(spring, 30), ...dailyCosts(brand, 5)]);
    await addSales(db(), spring, threeSales);
    await addSales(db(), brand, Array.from({ length: 30 }, (_, index) => noon(days[index]!)), 70);
    await addSiteSales(db());
    const { facts } = await readSpendFacts(db(), now);
    expect(facts.find((row) => row.subject === 'google / spring-auctions')).toMatchObject({ cost: 1680, revenue: 120, visitors: 2000, conversions: 3, verdict: 'losing' });
    expect(facts.find((row) => row.subject === 'google / brand')).toMatchObject({ cost: 280, revenue: 2100 });
    expect(facts.find((row) => row.subject === 'google')).toMatchObject({ cost: 1960, revenue: 2220 });

    expect(await runRules({ db: db() }, store, now)).toEqual({ opened: [{ rule: 'spend', subject: 'google / spring-auctions' }], closed: [], failed: [] });
    const body = JSON.parse((await outbox(db()))[0]!.payload) as { text: string };
    expect(body.text).toMatch(/^Alert: losing money on google \/ spring-auctions \(auctions\.example\.com\)\.\ngoogle \/ spring-auctions cost 1,680\.00 USD in the 56 days 2026-09-26 to 2026-11-20 \(UTC\)/);
    expect(body.text).toContain('Lower its bids or pause it on the ad platform.\nhttps://auctions.example.com/admin');
  });
});
