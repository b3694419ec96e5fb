import { amountText, counted } from '../../dayCounts/reportNumbers';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { SpendFacts, SpendJudgement } from './spendDecision';
import { leastSpend, spendWindowDays, takeSpendLook, verdictsOf, type SpendLook } from './spendRule';

/**
 * Spend not matched to any visits (issue 41): a source or campaign with at least leastSpend of cost in the
 * window and no visitor recorded (its utm tags missing, or a campaign name that differs from its tag), or
 * whose sales are all paid in another currency than the main one. It gets no chance of profit and no
 * losing-money alert: what is wrong is the tracking, and only its fix tells whether the spend pays. Read
 * from the same look as the spend rule (spendDecision.ts decides both).
 */
export const untrackedRule = {
  name: 'untracked',
  title: (subject: string) => `spend not matched to visits on ${subject}`,
  read: async ({ db }, now) => verdictsOf(db, await takeSpendLook(db, now), 'untracked', { alert: untrackedAlertText, recovery: untrackedRecoveryText }),
  alertText: (facts: SpendFacts, judgement: SpendJudgement) => untrackedAlertText(facts, judgement),
  recoveryText: (facts: SpendFacts | undefined, look: SpendLook, subject: string) => untrackedRecoveryText(facts, look, subject),
} satisfies AlertRuleDefinition<'untracked'>;

const costOf = (facts: SpendFacts) => (facts.cost !== null && Number.isFinite(facts.cost) && facts.cost > 0 ? facts.cost : 0);

function untrackedAlertText(facts: SpendFacts, judgement: SpendJudgement): string {
  const { subject, currency, from, to, visitors, conversions } = facts;
  const spent = `${subject} cost ${amountText(costOf(facts), currency)} in the ${spendWindowDays} days ${from} to ${to} (UTC)`;
  if (judgement.kind === 'untracked' && judgement.reason === 'other-currency') {
    return (
      `${spent} and brought ${counted(visitors, 'visitor')} and ${counted(conversions, 'conversion')}, none of them paid in ${currency}: ` +
      `its profit cannot be reckoned without converting currencies, which the site never does, so no losing-money verdict is given. Check the network's payout currency.`
    );
  }
  return `${spent} but no visitor is recorded for it: spend not matched to any visits. Check the campaign's utm tags (utm_source, utm_campaign) against its name in the cost report.`;
}

function untrackedRecoveryText(facts: SpendFacts | undefined, look: SpendLook, subject: string): string {
  const { window, currency } = look;
  if (facts === undefined || costOf(facts) < leastSpend) return `${subject} has less than ${amountText(leastSpend, currency)} of cost in the ${spendWindowDays} days ${window.from} to ${window.to}: nothing left unmatched that the rule watches.`;
  return `${subject}'s spend is matched to visits again: ${counted(facts.visitors, 'visitor')} in the ${spendWindowDays} days ${window.from} to ${window.to}.`;
}
