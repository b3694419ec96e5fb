import { formatMoment } from '../../lib/utcDay';
import type { LinkCheckResult } from '../../linkHealth/checkLink';
import type { LinkCheckLog } from '../../linkHealth/linkCheckLog';
import { linkHealthState } from '../../linkHealth/linkMonitor';
import type { AlertRuleDefinition } from './alertRuleDefinition';
import type { RuleVerdict } from './ruleVerdict';

/** As many checks as the link monitor reads: more than enough to find the start of a broken streak. */
export const linkHistory = 50;

/**
 * The link monitor's own rule (linkHealthState: two 404/410 answers in a row of the newest check's address,
 * 'blocked' and 'error' neither adding to nor ending a streak): broken opens 'link'; the next 'ok' closes it.
 * A single broken check, or checks that say nothing, give no verdict. The monitor re-checks 3 minutes after
 * a first broken answer and the instance that recorded a check runs this rule at once (AlertWatch.linkChecked),
 * so two in a row alert within minutes.
 */
export function linkVerdict(recent: readonly LinkCheckResult[]): RuleVerdict<'link'> | undefined {
  const state = linkHealthState(recent);
  const last = state.last;
  if (!last) return undefined;
  if (state.broken) {
    return {
      rule: 'link',
      subject: '',
      wrong: true,
      summary: linkRule.alertText(last, state.consecutiveBroken),
    };
  }
  if (last.verdict === 'ok') {
    return { rule: 'link', subject: '', wrong: false, recovery: linkRule.recoveryText(last) };
  }
  return undefined;
}

/** Reads the shared history of checks (the link monitor writes it, whichever instance checked). */
export async function readLinkVerdict(log: LinkCheckLog): Promise<RuleVerdict<'link'> | undefined> {
  return linkVerdict(await log.recent(linkHistory));
}

/** The affiliate link broken: read from the checks' shared history, unless LINK_CHECK_HOURS is off. */
export const linkRule = {
  name: 'link',
  title: () => 'affiliate link broken',
  read: async ({ linkChecks }) => (linkChecks ? [await readLinkVerdict(linkChecks)] : []),
  alertText: (last: LinkCheckResult, consecutiveBroken: number) =>
    `The affiliate link looks broken: ${last.url} answered ${last.status ?? 'nothing'} on ${consecutiveBroken} checks in a row (the latest at ${formatMoment(last.checkedAt.getTime())}). Visitors who click may land on an error page: check AFFILIATE_URL with the affiliate network.`,
  recoveryText: (last: LinkCheckResult) => `The affiliate link works again: ${last.url} answered ${last.status ?? 'ok'} at ${formatMoment(last.checkedAt.getTime())}.`,
} satisfies AlertRuleDefinition<'link'>;
