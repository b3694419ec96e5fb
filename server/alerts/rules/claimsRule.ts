import { claimList } from '../../../shared/content/claims';
import type { Claim } from '../../../shared/content/claimTypes';
import type { ClaimState } from '../../claims/claimStore';
import { databaseClaimStore } from '../../claims/claimStore';
import { decidingItem, withStaleness, type ItemOutcome } from '../../claims/claimVerdict';
import { formatMoment } from '../../lib/utcDay';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { RuleVerdict } from './ruleVerdict';

/** A contradicted or missing claim alerts only once two checks at least this far apart have found it so: one may be a page mid-deploy. */
export const confirmAfterMs = 60 * 60_000;
/** The subject of a claim's "can't verify" incident: its id and this. */
const unverifiableSuffix = ' (can’t verify)';

/**
 * One claim's verdicts at now, for its two incidents (subject: the claim's id, and the id with "(can't
 * verify)"): contradicted or missing since a check at least confirmAfterMs before the latest opens the first;
 * not verified (unknown, stale) for longer than maxAgeDays opens the second; verified closes both. A claim
 * contradicted on one check only, or unknown for less than its maxAgeDays, gives no verdict.
 */
export function claimVerdicts(claim: Claim, state: ClaimState | undefined, now: number): RuleVerdict<'claims'>[] {
  if (!state) return [];
  const deciding = decidingItem(state.items);
  const url = deciding?.url ?? '';
  if (state.verdict === 'verified') {
    const recovery = claimsRule.recoveryText(claim, deciding);
    return [
      { rule: 'claims', subject: claim.id, wrong: false, recovery },
      { rule: 'claims', subject: `${claim.id}${unverifiableSuffix}`, wrong: false, recovery },
    ];
  }
  if (state.verdict === 'contradicted' || state.verdict === 'missing') {
    if (state.checkedAt - state.since < confirmAfterMs) return [];
    return [{ rule: 'claims', subject: claim.id, wrong: true, summary: claimsRule.alertText('changed', claim, state, deciding, url) }];
  }
  const verdict = withStaleness(state.verdict, { lastVerifiedAt: state.verifiedAt, firstCheckedAt: state.firstCheckedAt, now, maxAgeDays: claim.maxAgeDays });
  if (verdict !== 'stale') return [];
  return [{ rule: 'claims', subject: `${claim.id}${unverifiableSuffix}`, wrong: true, summary: claimsRule.alertText('unverifiable', claim, state, deciding, url) }];
}

/** Where the site makes the claim: "/ (hero, faq), /terms (purchases-and-refunds)". */
export function claimPlaces(claim: Claim): string {
  const sections = new Map<string, string[]>();
  for (const use of claim.usedIn) sections.set(use.page, [...(sections.get(use.page) ?? []), use.section]);
  return [...sections].map(([page, ids]) => `${page} (${ids.join(', ')})`).join(', ');
}

function whatThePageSays(item: ItemOutcome | undefined): string {
  if (item?.excerpt) return `“${item.excerpt}”`;
  return `nothing on it matches the evidence${item?.reason && item.reason !== 'nothing on the page matches the evidence' ? ` (${item.reason})` : ''}`;
}

/** The claims of the registry against the merchant's pages (server/claims/): the verdicts every instance reads. */
export const claimsRule = {
  name: 'claims',
  title: (subject: string) => (subject.endsWith(unverifiableSuffix) ? `can’t verify the claim ${subject.slice(0, -unverifiableSuffix.length)}` : `the claim ${subject} no longer matches the merchant`),
  read: async ({ db }, now) => {
    const states = await databaseClaimStore(db).states();
    return claimList.flatMap((claim) => claimVerdicts(claim, states.get(claim.id), now));
  },
  /** `changed`: contradicted or missing on two checks; `unverifiable`: not verified for longer than maxAgeDays. */
  alertText: (kind: 'changed' | 'unverifiable', claim: Claim, state: ClaimState, deciding: ItemOutcome | undefined, url: string) =>
    kind === 'changed'
      ? `The site says: ${claim.says}. The merchant’s page ${url} says now: ${whatThePageSays(deciding)} (${state.verdict} on every check since ${formatMoment(state.since)}, the latest at ${formatMoment(state.checkedAt)}). The site makes this claim on ${claimPlaces(claim)}: correct the copy (shared/content/claims.ts) or the evidence.`
      : `The claim “${claim.says}” could not be verified for more than ${claim.maxAgeDays} days (${state.verifiedAt === undefined ? 'never verified' : `last verified ${formatMoment(state.verifiedAt)}`}); ${url || 'the merchant’s page'}: ${deciding?.reason ?? 'could not be read'}. The site makes this claim on ${claimPlaces(claim)}; check the page by hand, or fix what keeps the watch from reading it.`,
  recoveryText: (claim: Claim, deciding: ItemOutcome | undefined) =>
    `The merchant’s page supports the claim again: ${claim.says}${deciding?.excerpt ? ` (“${deciding.excerpt}”, ${deciding.url})` : ''}.`,
} satisfies AlertRuleDefinition<'claims'>;
