import type { CostVerdictKind } from '../../costs/costVerdict';
import { lossTest } from '../../costs/lossTest';
import type { SaleHistory } from '../../costs/saleHistory';

/**
 * The losing-money and untracked-spend alerts' decision (issue 41), pure so that the watch and the seeded
 * simulation (tests/unit/spendRule.simulation.test.ts) run the same code: judgeSpend looks at one source
 * or campaign, decideSpend at all of them together, once per look.
 *
 * A subject is called losing only when three things hold at once: /admin's verdict for the same days says
 * "losing money" (so an alert never contradicts the page it sends the operator to); the loss test on its
 * revenue (lossTest.ts: late sales, refunds and the payouts' spread accounted for) calls a loss; and that
 * call survives the Benjamini-Hochberg procedure at `falseDiscoveryRate` over every subject judged at the
 * look, so that 200 campaigns do not get 200 chances to be unlucky.
 */

/** The least spend in the main currency's units (50 is 50.00 USD) that the window must hold before either alert speaks. */
export const leastSpend = 50;

/** The false-discovery rate the losing-money calls are held to across the subjects of one look. */
export const falseDiscoveryRate = 0.2;

/** What the rules read about one source or campaign over the window, in the report's main currency. */
export interface SpendFacts {
  /** A source's name ("google"), or a campaign's source and name ("google / spring-auctions"). */
  subject: string;
  /** The report's main currency: the one cost, revenue and profit are in. */
  currency: string;
  /** The window's first and last UTC day. */
  from: string;
  to: string;
  /** Cost in the main currency, in its units; null with none in it. */
  cost: number | null;
  revenue: number;
  /** revenue − cost; null without cost in the main currency. */
  profit: number | null;
  visitors: number;
  /** Conversions in every currency. */
  conversions: number;
  /** /admin's chance of profit and verdict for the same days (server/costs/costVerdict.ts). */
  chanceProfitable: number | null;
  verdict: CostVerdictKind | null;
  visitorsToKnow: number | null;
  /** The share of the window's eventual sales that has arrived, by its visitors' days and the site's delays. */
  arrived: number;
}

/** What judgeSpend found about one subject. */
export type SpendJudgement =
  /** Under the least spend in the main currency (or none): nothing at stake; either alert closes. */
  | { subject: string; kind: 'small' }
  /** Spend with no visitor, or whose sales are all in another currency: the untracked alert, never a loss. */
  | { subject: string; kind: 'untracked'; reason: 'no-visitors' | 'other-currency' }
  /** Spend and visitors, but no payout or no cost to reckon with: no verdict either way. */
  | { subject: string; kind: 'unjudged' }
  /**
   * Judged: pValue the loss test's (1 unless /admin's verdict is "losing money", so that such a subject is
   * never called); clear when it is clearly no longer losing (its completed return at least break-even and
   * /admin no longer saying "losing money"), which closes an open alert.
   */
  | { subject: string; kind: 'judged'; pValue: number; completedReturn: number; clear: boolean };

const spentOf = (cost: number | null) => (cost !== null && Number.isFinite(cost) && cost > 0 ? cost : 0);
const micros = (units: number) => Math.round(units * 1_000_000);

/** One subject's judgement from its facts and the site's sale history. Never throws. */
export function judgeSpend(facts: SpendFacts, history: SaleHistory): SpendJudgement {
  const { subject, visitors, conversions, revenue } = facts;
  const cost = spentOf(facts.cost);
  if (!(cost >= leastSpend)) return { subject, kind: 'small' };
  if (!(visitors > 0)) return { subject, kind: 'untracked', reason: 'no-visitors' };
  if (conversions > 0 && !(revenue > 0)) return { subject, kind: 'untracked', reason: 'other-currency' };
  const test =
    history.payoutMicros === undefined
      ? undefined
      : lossTest({
          costMicros: micros(cost),
          revenueMicros: micros(Number.isFinite(revenue) ? revenue : 0),
          arrived: facts.arrived,
          refundShare: history.refundShare,
          payoutMicros: history.payoutMicros,
          payoutSpread: history.payoutSpread,
        });
  if (!test) return { subject, kind: 'unjudged' };
  const pageSaysLosing = facts.verdict === 'losing';
  return { subject, kind: 'judged', pValue: pageSaysLosing ? test.pValue : 1, completedReturn: test.completedReturn, clear: !pageSaysLosing && test.completedReturn >= 0 };
}

/** One alert's decision about one subject: wrong opens (or keeps) an incident, fine closes one that is open. */
export interface SpendDecision {
  rule: 'spend' | 'untracked';
  subject: string;
  wrong: boolean;
}

/**
 * The Benjamini-Hochberg cut: the largest p-value called, or −1 with none. With m p-values sorted, the
 * largest k with p₍ₖ₎ ≤ q·k/m; every p-value up to p₍ₖ₎ is called.
 */
export function discoveryCut(pValues: readonly number[], rate = falseDiscoveryRate): number {
  const sorted = pValues.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const m = sorted.length;
  for (let k = m; k >= 1; k -= 1) if (sorted[k - 1]! <= (rate * k) / m) return sorted[k - 1]!;
  return -1;
}

/**
 * Every decision of a look from its judgements. Losing money: wrong when called under the cut; fine when
 * small (nothing at stake) or clear; otherwise nothing, so an open alert stays open until the campaign is
 * clearly no longer losing, and none opens. Untracked: wrong for an untracked subject, fine for one with
 * visitors (and sales in the main currency) again or too small to matter.
 */
export function decideSpend(judgements: readonly SpendJudgement[]): SpendDecision[] {
  const cut = discoveryCut(judgements.flatMap((judgement) => (judgement.kind === 'judged' ? [judgement.pValue] : [])));
  const decisions: SpendDecision[] = [];
  for (const judgement of judgements) {
    const { subject } = judgement;
    decisions.push({ rule: 'untracked', subject, wrong: judgement.kind === 'untracked' });
    if (judgement.kind === 'small') decisions.push({ rule: 'spend', subject, wrong: false });
    else if (judgement.kind === 'judged') {
      if (judgement.pValue < 1 && judgement.pValue <= cut) decisions.push({ rule: 'spend', subject, wrong: true });
      else if (judgement.clear) decisions.push({ rule: 'spend', subject, wrong: false });
    }
  }
  return decisions;
}
