import type { Kysely } from 'kysely';
import type { Schema } from '../../db/schema';
import type { CostVerdictKind } from '../../costs/costVerdict';
import { amountText, counted } from '../../dayCounts/reportNumbers';
import { reportRange, type ReportRange } from '../../dayCounts/reportRange';
import { verdictText } from '../../funnelReport/formatCosts';
import { readFunnelReport } from '../../funnelReport/funnelReport';
import type { SourceCosts } from '../../funnelReport/sourceCosts';
import { formatChance } from './chanceOfNone';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { RuleVerdict } from './ruleVerdict';

/** The window the rule judges: the 14 UTC days ending today, today included (today − 13 to today). */
export const spendWindowDays = 14;

/**
 * Under this chance that it earns more than it costs (costVerdict's chanceProfitable over the window), a
 * source or campaign that spent at least leastSpend is losing money.
 */
export const unlikelyProfit = 0.05;

/**
 * The least spend, in units of the report's main currency (50 is 50.00 USD), that the window must hold in
 * that currency before the rule says anything. Under it, the money at stake in two weeks (under 3.60 a
 * day) is about what one or two sales of a typical affiliate payout bring back: not worth an interruption,
 * and a source or campaign that small gets a wide posterior whose chance swings with every sale. The
 * spend and profit section of /admin still shows it.
 */
export const leastSpend = 50;

/** What the rule reads about one source or campaign over the window, in the report's main currency. */
export interface SpendFacts {
  /** A source's name ("google"), or a campaign's source and name ("google / spring-auctions"). */
  subject: string;
  /** The report's main currency: the one cost, revenue and profit are in. */
  currency: string;
  /** The window's first and last UTC day. */
  from: string;
  to: string;
  /** Cost in the main currency; null with none in it (no cost at all, or cost only in other currencies). */
  cost: number | null;
  revenue: number;
  /** revenue − cost; null without cost in the main currency. */
  profit: number | null;
  visitors: number;
  /** Conversions in every currency. */
  conversions: number;
  /** 0 to 1; null without cost in the main currency, or with no payout to reckon with. */
  chanceProfitable: number | null;
  /** The always-valid verdict (server/costs/costVerdict.ts), for the alert's words. */
  verdict: CostVerdictKind | null;
  visitorsToKnow: number | null;
}

/** What the window spent in the main currency: 0 for none, or a figure that is no number. */
const spentOf = (cost: number | null) => (cost !== null && Number.isFinite(cost) && cost > 0 ? cost : 0);

/**
 * A source or campaign losing money: at least leastSpend spent in the main currency over the window, and
 * a chance under 5% (unlikelyProfit) that it earns more than it costs. Fine (an open incident closes) once
 * it pays for itself over the window (profit ≥ 0), or once the window holds less than leastSpend in the
 * main currency (the spend stopped and aged out, or moved to another currency, which is never converted).
 * In between (a chance of 5% or more, but still a loss), or with no chance to reckon (no payout known), no
 * verdict: an incident open stays open, and none opens, so a campaign that hovers about 5% alerts once,
 * not at every sale.
 */
export function spendVerdict(facts: SpendFacts): RuleVerdict<'spend'> | undefined {
  const { subject, profit, chanceProfitable } = facts;
  if (!(spentOf(facts.cost) >= leastSpend)) return { rule: 'spend', subject, wrong: false, recovery: spendRule.recoveryText(facts) };
  if (profit !== null && profit >= 0) return { rule: 'spend', subject, wrong: false, recovery: spendRule.recoveryText(facts) };
  if (chanceProfitable === null || !Number.isFinite(chanceProfitable)) return undefined;
  if (chanceProfitable < unlikelyProfit) return { rule: 'spend', subject, wrong: true, summary: spendRule.alertText(facts) };
  return undefined;
}

/** A campaign's subject: its source and its name, "google / spring-auctions". */
export const campaignSubject = (source: string, campaign: string) => `${source} / ${campaign}`;

/** The window at `now`: the spendWindowDays UTC days ending on now's day, that day included. */
export const spendWindow = (now: number): ReportRange => reportRange({ days: spendWindowDays }, new Date(now));

function factsOf(subject: string, row: SourceCosts, currency: string, { from, to }: ReportRange): SpendFacts {
  const { cost, revenue, profit, visitors, conversions, chanceProfitable, verdict, visitorsToKnow } = row;
  return { subject, currency, from, to, cost, revenue, profit, visitors, conversions, chanceProfitable, verdict, visitorsToKnow };
}

/** The window read, its main currency, and each source's and campaign's facts in it. */
export interface SpendReading {
  window: ReportRange;
  currency: string;
  facts: SpendFacts[];
}

/**
 * Every source's and campaign's facts over the window at `now`, as the funnel report reads them
 * (report.costs: sources and campaigns with a cost in any currency, and the busiest without one). A
 * campaign without a name ('') is a cost of its source only, and is judged with its source.
 */
export async function readSpendFacts(db: Kysely<Schema>, now: number): Promise<SpendReading> {
  const window = spendWindow(now);
  // Only the costs matter here: no experiment, and the sources of one day rather than of every day.
  const report = await readFunnelReport(db, window, { experiments: [], daySourceDays: 1, now: new Date(now) });
  const { currency, sources, campaigns } = report.costs;
  const facts = [
    ...sources.map((row) => factsOf(row.source, row, currency, window)),
    ...campaigns.filter((row) => row.campaign !== '').map((row) => factsOf(campaignSubject(row.source, row.campaign), row, currency, window)),
  ];
  return { window, currency, facts };
}

/**
 * The verdicts at `now`. A subject whose incident is open but that the report no longer lists (its
 * window holds no cost in any currency, and too few visitors to be among the busiest) is fine: nothing
 * spent, so its incident closes rather than staying open for ever. The rule's open incidents are read
 * from the table itself (incidents.ts imports the rules, so a rule does not import it).
 */
export async function readSpendVerdicts(db: Kysely<Schema>, now: number): Promise<RuleVerdict<'spend'>[]> {
  const { window, currency, facts } = await readSpendFacts(db, now);
  const listed = new Set(facts.map((row) => row.subject));
  const open = await db.selectFrom('incidents').select('subject').where('rule', '=', spendRule.name).where('closed_at', 'is', null).execute();
  const gone = open
    .filter((row) => !listed.has(row.subject))
    .map((row): SpendFacts => ({ ...window, subject: row.subject, currency, cost: null, revenue: 0, profit: null, visitors: 0, conversions: 0, chanceProfitable: null, verdict: null, visitorsToKnow: null }));
  return [...facts, ...gone].flatMap((row) => spendVerdict(row) ?? []);
}

/** A source or campaign losing money: read from the funnel report's costs over the last 14 UTC days. */
export const spendRule = {
  name: 'spend',
  title: (subject: string) => `losing money on ${subject}`,
  read: ({ db }, now) => readSpendVerdicts(db, now),
  alertText: (facts: SpendFacts) => {
    const { subject, currency, from, to, revenue, visitors, conversions, chanceProfitable } = facts;
    const cost = spentOf(facts.cost);
    return (
      `${subject} cost ${amountText(cost, currency)} in the ${spendWindowDays} days ${from} to ${to} (UTC, today included) and brought ${counted(visitors, 'visitor')} ` +
      `and ${counted(conversions, 'conversion')} worth ${amountText(revenue, currency)}: a loss of ${amountText(cost - revenue, currency)}. ` +
      `The chance that it earns more than it costs is ${formatChance(chanceProfitable ?? 0)}, under ${unlikelyProfit * 100}% (the verdict on /admin, which waits for firmer evidence, reads "${verdictText(facts)}"). ` +
      `Lower its bids or pause it on the ad platform; if sales seem missing, check that its ads carry their utm tags.`
    );
  },
  recoveryText: (facts: SpendFacts) => {
    const { subject, currency, from, to, revenue } = facts;
    const cost = spentOf(facts.cost);
    if (cost <= 0) return `${subject} has no cost in ${currency} in the ${spendWindowDays} days ${from} to ${to} any more: nothing left to lose.`;
    if (cost < leastSpend) return `${subject} cost ${amountText(cost, currency)} in the ${spendWindowDays} days ${from} to ${to}, under the ${amountText(leastSpend, currency)} the rule watches.`;
    return `${subject} pays for itself again: ${amountText(revenue, currency)} earned for ${amountText(cost, currency)} spent in the ${spendWindowDays} days ${from} to ${to}.`;
  },
} satisfies AlertRuleDefinition<'spend'>;
