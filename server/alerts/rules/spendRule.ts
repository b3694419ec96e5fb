import type { Kysely } from 'kysely';
import type { Schema } from '../../db/schema';
import { arrivedShare, type SaleHistory } from '../../costs/saleHistory';
import { amountText, counted } from '../../dayCounts/reportNumbers';
import { readDayCounts } from '../../dayCounts/dayCounts';
import { campaignParts } from '../../dayCounts/dimensions';
import { readPerDayOf } from '../../dayCounts/funnelQueries';
import { reportRange, type ReportRange } from '../../dayCounts/reportRange';
import { verdictText } from '../../funnelReport/formatCosts';
import { readFunnelReport } from '../../funnelReport/funnelReport';
import type { SourceCosts } from '../../funnelReport/sourceCosts';
import { addDays, dayMs, dayStart } from '../../lib/utcDay';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import { decideSpend, judgeSpend, leastSpend, type SpendDecision, type SpendFacts, type SpendJudgement } from './spendDecision';
import { saleHistoryOf } from './spendHistory';
import type { RuleVerdict } from './ruleVerdict';

export { leastSpend, type SpendFacts } from './spendDecision';

/**
 * The window the rule judges: the 56 closed UTC days ending yesterday. Closed days only, so that a look
 * every 5 minutes reads the same days all day (only late sales move them, and only towards profit), and a
 * fixed daily cost counts whole days that are over. 56 days (eight of each weekday) because a loss of 30%
 * at a 2% conversion rate with payouts that vary takes about 10,000 visitors to tell from bad luck even
 * for one campaign looked at once: with 28 days, 1 to 5 in 25 such campaigns at 200 visitors a day were
 * alerted within 12 weeks among 200, with 56, 23 in 25 (docs/costs-verdict.md).
 */
export const spendWindowDays = 56;

/** The window at `now`: the spendWindowDays UTC days ending on the day before now's. */
export const spendWindow = (now: number): ReportRange => reportRange({ days: spendWindowDays }, new Date(now - dayMs));

/** A campaign's subject: its source and its name, "google / spring-auctions". */
export const campaignSubject = (source: string, campaign: string) => `${source} / ${campaign}`;

/** What one look of the two rules read and decided. */
export interface SpendLook {
  window: ReportRange;
  currency: string;
  history: SaleHistory;
  facts: SpendFacts[];
  judgements: SpendJudgement[];
  decisions: SpendDecision[];
}

function factsOf(subject: string, row: SourceCosts, currency: string, { from, to }: ReportRange, arrived: number): SpendFacts {
  const { cost, revenue, profit, visitors, conversions, chanceProfitable, verdict, visitorsToKnow } = row;
  return { subject, currency, from, to, cost, revenue, profit, visitors, conversions, chanceProfitable, verdict, visitorsToKnow, arrived };
}

/**
 * The share of a subject's sales that has arrived: each day's share by its age at the start of `today`
 * (from the middle of the day, its visitors' moment as near as a day tells) and the site's delays, weighted
 * by the day's visitors, so a campaign launched two days ago is judged on young days, not on the window's
 * average. Aged at the start of today, not at the look, so that only new sales change a judgement within a
 * day; the hours since midnight are sales the figure leaves uncounted, on the side of silence.
 */
export function arrivedOf(days: readonly { day: string; visitors: number }[], history: Pick<SaleHistory, 'delaysDays'>, today: string): number {
  const now = dayStart(today);
  let visitors = 0;
  let arrived = 0;
  for (const { day, visitors: count } of days) {
    if (!(count > 0)) continue;
    visitors += count;
    arrived += count * arrivedShare(history, (now - dayStart(day) - dayMs / 2) / dayMs);
  }
  return visitors > 0 ? arrived / visitors : 0;
}

/**
 * Every source's and campaign's facts over the window at `now`, as the funnel report reads them for /admin
 * over the same days (sources and campaigns with a cost in any currency, and the busiest without one), with
 * the share of their sales arrived. A campaign without a name ('') is a cost of its source only.
 */
export async function readSpendFacts(db: Kysely<Schema>, now: number): Promise<{ window: ReportRange; currency: string; history: SaleHistory; facts: SpendFacts[] }> {
  const window = spendWindow(now);
  // Only the costs matter here: no experiment, and the sources of one day rather than of every day.
  const [report, dayCounts] = await Promise.all([readFunnelReport(db, window, { experiments: [], daySourceDays: 1, now: new Date(now) }), readDayCounts(db, window.from, window.to)]);
  const { currency, sources, campaigns } = report.costs;
  const today = addDays(window.to, 1);
  const [history, [sourceDays = [], campaignDays = []]] = await Promise.all([saleHistoryOf(db, currency, now), readPerDayOf(db, ['source', 'campaign'], window, dayCounts)]);
  const daysOf = (rows: readonly { value: string; day: string; visitors: number }[], key: (value: string) => string) => {
    const byKey = new Map<string, { day: string; visitors: number }[]>();
    for (const row of rows) byKey.set(key(row.value), [...(byKey.get(key(row.value)) ?? []), { day: row.day, visitors: Number(row.visitors) }]);
    return byKey;
  };
  const sourceVisits = daysOf(sourceDays, (value) => value);
  const campaignVisits = daysOf(campaignDays, (value) => {
    const [source = '', campaign = ''] = campaignParts(value);
    return campaignSubject(source, campaign);
  });
  const facts = [
    ...sources.map((row) => factsOf(row.source, row, currency, window, arrivedOf(sourceVisits.get(row.source) ?? [], history, today))),
    ...campaigns
      .filter((row) => row.campaign !== '')
      .map((row) => {
        const subject = campaignSubject(row.source, row.campaign);
        return factsOf(subject, row, currency, window, arrivedOf(campaignVisits.get(subject) ?? [], history, today));
      }),
  ];
  return { window, currency, history, facts };
}

/** One look's reading and decisions, read afresh by the spend rule and decided for both it and the untracked rule. */
export async function readSpendLook(db: Kysely<Schema>, now: number): Promise<SpendLook> {
  const { window, currency, history, facts } = await readSpendFacts(db, now);
  const judgements = facts.map((row) => judgeSpend(row, history));
  return { window, currency, history, facts, judgements, decisions: decideSpend(judgements) };
}

/**
 * The spend rule's look, handed to the untracked rule that runs right after it in the same run of the
 * watch (allRules.ts lists them in that order), so the report is read once per look. Taken once: any other
 * caller, or a second run at the same moment, reads afresh.
 */
const handedOver = new WeakMap<Kysely<Schema>, { now: number; look: SpendLook }>();

async function spendLookFor(db: Kysely<Schema>, now: number): Promise<SpendLook> {
  const look = await readSpendLook(db, now);
  handedOver.set(db, { now, look });
  return look;
}

export async function takeSpendLook(db: Kysely<Schema>, now: number): Promise<SpendLook> {
  const handed = handedOver.get(db);
  handedOver.delete(db);
  return handed?.now === now ? handed.look : readSpendLook(db, now);
}

/**
 * A rule's verdicts from a look: its decisions with their words, and a fine verdict for each subject whose
 * incident is open but that the report no longer lists (nothing spent in the window any more), so it closes
 * rather than staying open for ever. Open incidents are read from the table itself (incidents.ts imports
 * the rules, so a rule does not import it).
 */
export async function verdictsOf<Rule extends 'spend' | 'untracked'>(
  db: Kysely<Schema>,
  look: SpendLook,
  rule: Rule,
  words: { alert(facts: SpendFacts, judgement: SpendJudgement): string; recovery(facts: SpendFacts | undefined, look: SpendLook, subject: string): string },
): Promise<RuleVerdict<Rule>[]> {
  const facts = new Map(look.facts.map((row) => [row.subject, row]));
  const judgements = new Map(look.judgements.map((row) => [row.subject, row]));
  const verdicts = look.decisions
    .filter((decision) => decision.rule === rule)
    .map((decision): RuleVerdict<Rule> => {
      const row = facts.get(decision.subject)!;
      return decision.wrong
        ? { rule, subject: decision.subject, wrong: true, summary: words.alert(row, judgements.get(decision.subject)!) }
        : { rule, subject: decision.subject, wrong: false, recovery: words.recovery(row, look, decision.subject) };
    });
  const open = await db.selectFrom('incidents').select('subject').where('rule', '=', rule).where('closed_at', 'is', null).execute();
  const gone = open.filter((row) => !facts.has(row.subject)).map((row): RuleVerdict<Rule> => ({ rule, subject: row.subject, wrong: false, recovery: words.recovery(undefined, look, row.subject) }));
  return [...verdicts, ...gone];
}

/** How the alert words its false-alarm budget (the figures measured are in docs/costs-verdict.md). */
const spendFalseAlarmsText = 'a false-discovery rate of 20%';

const spentOf = (cost: number | null) => (cost !== null && Number.isFinite(cost) && cost > 0 ? cost : 0);
const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A source or campaign losing money: decided by spendDecision.ts on the funnel report's costs over the 56 closed days ending yesterday. */
export const spendRule = {
  name: 'spend',
  title: (subject: string) => `losing money on ${subject}`,
  read: async ({ db }, now) => verdictsOf(db, await spendLookFor(db, now), 'spend', { alert: spendAlertText, recovery: spendRecoveryText }),
  alertText: (facts: SpendFacts, judgement: SpendJudgement) => spendAlertText(facts, judgement),
  recoveryText: (facts: SpendFacts | undefined, look: SpendLook, subject: string) => spendRecoveryText(facts, look, subject),
} satisfies AlertRuleDefinition<'spend'>;

function spendAlertText(facts: SpendFacts, judgement: SpendJudgement): string {
    const { subject, currency, from, to, revenue, visitors, conversions, arrived } = facts;
    const cost = spentOf(facts.cost);
    const completed = judgement.kind === 'judged' ? ` (${percent(arrived)} of its sales are in by the site's delays; completed, a return of ${percent(judgement.completedReturn)})` : '';
    return (
      `${subject} cost ${amountText(cost, currency)} in the ${spendWindowDays} days ${from} to ${to} (UTC) and brought ${counted(visitors, 'visitor')} ` +
      `and ${counted(conversions, 'conversion')} worth ${amountText(revenue, currency)}${completed}. /admin's verdict for these days (/admin?from=${from}&to=${to}) reads "${verdictText(facts)}", ` +
      `and it stands among every source and campaign watched (held to ${spendFalseAlarmsText}). ` +
      `Lower its bids or pause it on the ad platform.`
    );
}

function spendRecoveryText(facts: SpendFacts | undefined, look: SpendLook, subject: string): string {
    const { window, currency } = look;
    const cost = spentOf(facts?.cost ?? null);
    if (facts === undefined || cost <= 0) return `${subject} has no cost in ${currency} in the ${spendWindowDays} days ${window.from} to ${window.to} any more: nothing left to lose.`;
    if (cost < leastSpend) return `${subject} cost ${amountText(cost, currency)} in the ${spendWindowDays} days ${window.from} to ${window.to}, under the ${amountText(leastSpend, currency)} the rule watches.`;
    return `${subject} no longer loses money: ${amountText(facts.revenue, currency)} earned for ${amountText(cost, currency)} spent in the ${spendWindowDays} days ${window.from} to ${window.to}, at least break-even once the sales still to come are counted, and /admin no longer reads "losing money".`;
}
