import { sql, type Kysely } from 'kysely';
import { affiliatePlacements } from '../../../shared/affiliate';
import type { Schema } from '../../db/schema';
import { readLastClosedDay } from '../../dayCounts/dayCounts';
import { addDays, dayMs, dayStart, formatMoment, utcDay } from '../../lib/utcDay';
import { countText } from '../../lib/numberFormat';
import { chanceOfNone, expectedThreshold, formatChance, noneIsUnlikely } from './chanceOfNone';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { RuleVerdict } from './ruleVerdict';

/** The conversion rate is that of the 30 UTC days that end on the day of the placement's last sale. */
export const rateWindowDays = 30;

/** What the sales rule reads about one placement. */
export interface SalesFacts {
  placement: string;
  /** The latest sale not reversed; undefined when the placement has none kept (or none ever). */
  lastSaleAt?: number;
  /** In the rateWindowDays ending on the last sale's day: its sales (not reversed) and its clicks. */
  windowSales: number;
  windowClicks: number;
  /** Clicks after the last sale, counted up to clickCap(rate) and no further. */
  clicksSince: number;
}

/**
 * The most clicks since a sale the rule ever counts: a rate so low that it needs more (under one sale in
 * about 2.2 million clicks) is no rate to watch. Real windows never come near it.
 */
export const maxClickCap = 10_000_000;

/** conversions ÷ clicks of the window, at most 1; undefined with no click or no sale (nothing to expect), or a rate too low to watch. */
export function conversionRate({ windowSales, windowClicks }: Pick<SalesFacts, 'windowSales' | 'windowClicks'>): number | undefined {
  if (!(windowClicks > 0) || !(windowSales > 0) || !Number.isFinite(windowClicks) || !Number.isFinite(windowSales)) return undefined;
  const rate = Math.min(windowSales / windowClicks, 1);
  return clickCap(rate) > maxClickCap ? undefined : rate;
}

/** The sales rule's false-alarm budget (issue 41): at most one false alert in this many days, across every placement. */
export const salesBudgetDays = 56;
/**
 * How far under that budget the line is set: the rate is itself estimated from a month of sales, and a
 * rate read too high makes a wait look long sooner; a quarter of the budget leaves room for that.
 */
export const salesBudgetShare = 0.25;

/**
 * The sales expected since the last sale past which the rule alerts. Each sale starts a new wait, and each
 * wait runs past e^(−expected) by chance alone that often, so a placement's false alerts over the budget's
 * days are about its sales in them times that chance. The line is ln 100 (a chance of none under 1%), or
 * higher for a busy placement: where that product, over every placement, stays within salesBudgetShare of
 * one alert per salesBudgetDays. At 20 sales in the 30 days (2% of 1,000 clicks) it is 6.8 sales expected,
 * at 60 (2 a day) 7.9.
 */
export function expectedToAlert(windowSales: number): number {
  const salesInBudget = Number.isFinite(windowSales) && windowSales > 0 ? (windowSales / rateWindowDays) * salesBudgetDays : 0;
  const perSale = salesBudgetShare / affiliatePlacements.length;
  return salesInBudget > 0 ? Math.max(expectedThreshold, Math.log(salesInBudget / perSale)) : expectedThreshold;
}

/**
 * How many clicks since the last sale need counting to decide: one past the number at which the sales
 * expected pass the line. Counting stops there, so a placement silent for a year costs what a day does.
 */
export function clickCap(rate: number, windowSales = 0): number {
  return Math.ceil(expectedToAlert(windowSales) / rate) + 1;
}

/**
 * Sales gone silent on a placement: the clicks since its last sale, times the rate at which its clicks
 * converted in the 30 days up to that sale, is the number of sales expected since; when it passes the line
 * (expectedToAlert: more than ln 100 ≈ 4.6, a chance of none under 1%, and more on a placement with many
 * sales, to keep the budget), it is wrong. Fine once a new sale comes (the clicks since it start again
 * from none). No rate, no verdict.
 */
export function salesVerdict(facts: SalesFacts): RuleVerdict<'sales'> | undefined {
  const { placement, lastSaleAt, windowSales, windowClicks, clicksSince } = facts;
  const rate = conversionRate(facts);
  if (lastSaleAt === undefined || rate === undefined || !Number.isFinite(clicksSince) || clicksSince < 0) return undefined;
  const expected = clicksSince * rate;
  if (!(noneIsUnlikely(expected) && expected > expectedToAlert(windowSales))) {
    return { rule: 'sales', subject: placement, wrong: false, recovery: salesRule.recoveryText(placement, lastSaleAt) };
  }
  return { rule: 'sales', subject: placement, wrong: true, summary: salesRule.alertText({ placement, lastSaleAt, windowSales, windowClicks, clicksSince }, rate, expected) };
}

const count = (row: { n: unknown } | undefined) => Number(row?.n ?? 0);

/**
 * One placement's facts, each read bounded whatever the tables' age: the last sale is the first row of
 * conversions_by_placement_time read backwards; the window's clicks are at most 30 rows of daily_counts
 * plus the raw clicks of its days not closed yet (clicks_by_placement_time); its sales one index range;
 * the clicks since are counted with a LIMIT of clickCap(rate).
 */
export async function readSalesFacts(db: Kysely<Schema>, placement: string): Promise<SalesFacts> {
  const none: SalesFacts = { placement, windowSales: 0, windowClicks: 0, clicksSince: 0 };
  const last = await db
    .selectFrom('conversions')
    .select('received_at')
    .where('placement', '=', placement)
    .where('reversed_at', 'is', null)
    .orderBy('received_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return none;
  const lastSaleAt = Number(last.received_at);
  const to = utcDay(new Date(lastSaleAt));
  const from = addDays(to, 1 - rateWindowDays);
  const windowStart = dayStart(from);
  const windowEnd = dayStart(to) + dayMs;

  const lastClosed = await readLastClosedDay(db);
  const closedTo = lastClosed < to ? lastClosed : to;
  const closedClicks =
    closedTo < from
      ? 0
      : count(
          await db
            .selectFrom('daily_counts')
            .select((eb) => eb.fn.sum<number>('clicks').as('n'))
            .where('dimension', '=', 'placement')
            .where('value', '=', placement)
            .where('day', '>=', from)
            .where('day', '<=', closedTo)
            .executeTakeFirst(),
        );
  const openFrom = lastClosed === '' || lastClosed < from ? windowStart : Math.max(windowStart, dayStart(addDays(lastClosed, 1)));
  const openClicks =
    openFrom >= windowEnd
      ? 0
      : count(
          await db
            .selectFrom('clicks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('placement', '=', placement)
            .where('at', '>=', openFrom)
            .where('at', '<', windowEnd)
            .executeTakeFirst(),
        );
  const windowSales = count(
    await db
      .selectFrom('conversions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('placement', '=', placement)
      .where('received_at', '>=', windowStart)
      .where('received_at', '<', windowEnd)
      .where('reversed_at', 'is', null)
      .executeTakeFirst(),
  );
  const windowClicks = closedClicks + openClicks;
  const rate = conversionRate({ windowSales, windowClicks });
  if (rate === undefined) return { ...none, lastSaleAt, windowSales, windowClicks };
  const since = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('clicks')
        .select(sql<number>`1`.as('one'))
        .where('placement', '=', placement)
        .where('at', '>', lastSaleAt)
        .limit(clickCap(rate, windowSales))
        .as('since'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return { placement, lastSaleAt, windowSales, windowClicks, clicksSince: count(since) };
}

/** Every placement's verdict (there are six), in order. */
export async function readSalesVerdicts(db: Kysely<Schema>): Promise<RuleVerdict<'sales'>[]> {
  const verdicts: RuleVerdict<'sales'>[] = [];
  for (const placement of affiliatePlacements) {
    const verdict = salesVerdict(await readSalesFacts(db, placement));
    if (verdict) verdicts.push(verdict);
  }
  return verdicts;
}

/** Sales gone silent on a placement: read per placement, from the database. */
export const salesRule = {
  name: 'sales',
  title: (placement: string) => `sales gone silent on ${placement}`,
  read: ({ db }) => readSalesVerdicts(db),
  alertText: ({ placement, lastSaleAt, windowSales, windowClicks, clicksSince }: SalesFacts & { lastSaleAt: number }, rate: number, expected: number) => {
    const clicks = clicksSince >= clickCap(rate, windowSales) ? `more than ${countText(clicksSince - 1)}` : countText(clicksSince);
    return (
      `No sale on ${placement} since ${formatMoment(lastSaleAt)}, though ${clicks} clicks came since. In the ${rateWindowDays} days up to that sale, ` +
      `${countText(windowSales)} of ${countText(windowClicks)} clicks converted (${formatChance(rate)}), so ${expected.toFixed(1)} sales were expected and the chance of none is ${formatChance(chanceOfNone(expected))}. ` +
      `The network may have stopped sending postbacks, or the link lost its sub-ID.`
    );
  },
  recoveryText: (placement: string, lastSaleAt: number) => `Sales on ${placement} again: the latest at ${formatMoment(lastSaleAt)}.`,
} satisfies AlertRuleDefinition<'sales'>;
