import { createHash } from 'node:crypto';
import type { Claim } from '../../shared/content/claimTypes';
import { isDocumentationHost } from '../lib/documentationHost';
import { firstLine, messageOf } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import { recheckMs, unansweredRecheckMs } from '../lib/recheckBackoff';
import { checkClaims, type ClaimCheckResult, type ClaimsCheckInput } from './checkClaims';
import type { ClaimState, ClaimStore } from './claimStore';

/** CLAIMS_CHECK_HOURS unset: once a day (server/config.ts). */
export const defaultClaimsCheckHours = 24;
/** How often each instance looks whether a check is due: the schedule's period for the claims check. */
export const claimsCheckTickMs = 60_000;
/** A claimed check that was never recorded (its instance stopped) holds the next one back at most this long. */
const claimSlotMs = 5 * 60_000;

export type ClaimsCheckReason = 'first check' | 'a claim never checked' | 're-check of a claim not verified' | 'period';

/**
 * Whether a check is due at now, and why; undefined when not. Every claim is checked together, so the
 * latest check is the newest of the claims' latest. The rules, in order: never checked; a claim of the
 * registry never checked (a new one); a claim not verified, looked at again after recheckWaitMs; the period.
 * A start-up is no reason of its own: a check is made at start-up when one of these says it is due.
 */
export function claimsCheckDue({ claims, states, now, intervalMs }: { claims: readonly Claim[]; states: ReadonlyMap<string, ClaimState>; now: number; intervalMs: number }): ClaimsCheckReason | undefined {
  if (states.size === 0) return 'first check';
  if (claims.some((claim) => !states.has(claim.id))) return 'a claim never checked';
  const since = now - latestCheck(states);
  const waits = claims.map((claim) => states.get(claim.id)!).filter((state) => state.verdict !== 'verified').map(recheckWaitMs);
  if (waits.length > 0 && since >= Math.min(...waits)) return 're-check of a claim not verified';
  return since >= intervalMs ? 'period' : undefined;
}

/**
 * How soon a claim not verified is looked at again (server/lib/recheckBackoff.ts): contradicted or missing
 * on a page read whole, every 15 minutes, so its return is told within about 20; unknown (no usable answer),
 * after as long as it has been unknown, 15 minutes to 2 hours.
 */
function recheckWaitMs(state: ClaimState): number {
  return state.verdict === 'unknown' || state.verdict === 'stale' ? unansweredRecheckMs(state.checkedAt - state.since) : recheckMs;
}

function latestCheck(states: ReadonlyMap<string, ClaimState>): number {
  return Math.max(...[...states.values()].map((state) => state.checkedAt));
}

/**
 * The claim of one due check across instances: per merchant and 5-minute slot. Not per latest check, as the
 * link check's is: a check saves its claims one by one, and an instance reading them halfway would see
 * another latest check and claim a second check of its own. No check is due twice within a slot (the
 * shortest wait is recheckMs), and a claimer that stopped delays the next by a slot at most.
 */
export function claimsCheckClaim(merchantUrl: string, now: number): string {
  const merchant = createHash('sha256').update(merchantUrl).digest('hex').slice(0, 12);
  return `${merchant}:${Math.floor(now / claimSlotMs)}`;
}

/** Why the server does not check the claims, or undefined when it does: CLAIMS_CHECK_HOURS off, no database, or a documentation address. */
export function claimsCheckOff(merchantUrl: string, everyHours: number | undefined, hasDatabase: boolean): string | undefined {
  if (everyHours === undefined) return 'CLAIMS_CHECK_HOURS is off';
  if (!hasDatabase) return 'the claims watch keeps its verdicts in the statistics database, and CLICK_STATS is off';
  const host = URL.canParse(merchantUrl) ? new URL(merchantUrl).hostname : '';
  if (isDocumentationHost(host)) return `MERCHANT_URL is on ${host}, a documentation address no merchant answers`;
  return undefined;
}

export interface ClaimsWatchOptions extends Omit<ClaimsCheckInput, 'store'> {
  store: ClaimStore;
  intervalMs: number;
  logger: Logger;
  /** True for the one instance that claims the due check (server/jobs/jobRuns.ts). */
  claimRun(job: string, period: string): Promise<boolean>;
}

/**
 * Checks the claims when due (claimsCheckDue); the schedule runs tick() every claimsCheckTickMs
 * (server/schedule/schedule.ts). With several instances on one database, all read the same verdicts and
 * each due check is claimed (claimsCheckClaim), so each page is fetched once per period.
 */
export class ClaimsWatch {
  private inFlight: Promise<ClaimCheckResult[]> | undefined;
  private failing = false;

  constructor(private readonly options: ClaimsWatchOptions) {}

  get intervalMs(): number {
    return this.options.intervalMs;
  }

  /** Checks when due and this instance claims it; resolves to undefined otherwise. Never throws. */
  async tick(): Promise<ClaimCheckResult[] | undefined> {
    const { store, claims, now, intervalMs, merchantUrl, claimRun, logger } = this.options;
    try {
      const at = now();
      const states = await store.states();
      this.failing = false;
      if (claimsCheckDue({ claims, states, now: at, intervalMs }) === undefined) return undefined;
      if (!(await claimRun('claims-check', claimsCheckClaim(merchantUrl, at)))) return undefined;
      return await this.check();
    } catch (error) {
      if (!this.failing) logger.error(`claims check skipped: ${firstLine(messageOf(error))}`);
      this.failing = true;
      return undefined;
    }
  }

  /** One check now, recorded. A call while one runs gets that check's results rather than asking the merchant twice. */
  check(): Promise<ClaimCheckResult[]> {
    this.inFlight ??= this.checkAndLog().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async checkAndLog(): Promise<ClaimCheckResult[]> {
    const { logger } = this.options;
    const results = await checkClaims(this.options);
    const counts = new Map<string, number>();
    for (const result of results) counts.set(result.state.verdict, (counts.get(result.state.verdict) ?? 0) + 1);
    logger.info(`claims check: ${[...counts].map(([verdict, count]) => `${count} ${verdict}`).join(', ')}`);
    for (const { claim, state, reading, changed } of results) {
      if (!changed || state.verdict === 'verified') continue;
      const what = reading.deciding.excerpt ?? reading.deciding.reason ?? 'nothing matched';
      logger.info(`claim ${claim.id} is ${state.verdict} at ${reading.deciding.url}: ${what}`);
    }
    return results;
  }
}
