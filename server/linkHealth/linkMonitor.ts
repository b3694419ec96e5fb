import { createHash } from 'node:crypto';
import type { Logger } from '../lib/logger';
import { firstLine, messageOf } from '../lib/errorText';
import { isDocumentationHost } from '../lib/documentationHost';
import { recheckMs, unansweredRecheckMs } from '../lib/recheckBackoff';
import { checkLink, type LinkCheckResult } from './checkLink';
import type { LinkCheckLog } from './linkCheckLog';

export interface LinkHealthState {
  last?: LinkCheckResult;
  consecutiveBroken: number;
  /** True after two or more broken (404/410) checks in a row: one alone may be a partner's passing hiccup. */
  broken: boolean;
  /** How often the link is checked when nothing else calls for a check (LINK_CHECK_HOURS); set by the monitor. */
  everyMs?: number;
}

const BROKEN_AFTER = 2;
/** More than enough history to find the start of any streak worth a banner. */
const HISTORY = 50;

/** LINK_CHECK_HOURS unset: every 6 hours (server/config.ts; why: docs/recording.md#link-health). */
export const defaultLinkCheckHours = 6;
/** How often each instance looks whether a check is due: the schedule's period for the link check. */
export const linkCheckTickMs = 60_000;
/** A start-up skips its check when the same address was checked this recently, by any instance: a restart loop checks at most once per this. */
export const startUpSkipMs = 5 * 60_000;
/** After a first broken answer, the next check comes this soon instead of a period later, so two in a row alert within minutes. */
export const recheckAfterBrokenMs = 3 * 60_000;
/**
 * While the link is broken (two 404/410 in a row), it is checked again this often whatever LINK_CHECK_HOURS
 * says, so a recovery is told within about 20 minutes, across a restart too (the history is shared); less
 * often while the partner gives no answer that says anything (whileBrokenWaitMs).
 */
export const recheckWhileBrokenMs = recheckMs;
/** A claimed check that was never recorded (its instance stopped) holds the next one back at most this long. */
const claimSlotMs = 5 * 60_000;

/**
 * The link's health from its latest checks, newest first. Only the checks of the newest check's address
 * count, so a changed AFFILIATE_URL starts a streak of its own. 'blocked' and 'error' say nothing about
 * whether the page is gone, so they neither add to nor end a streak of broken checks; 'ok' ends it.
 */
export function linkHealthState(recent: readonly LinkCheckResult[]): LinkHealthState {
  const last = recent[0];
  let consecutiveBroken = 0;
  for (const result of recent) {
    if (result.url !== last?.url) continue;
    if (result.verdict === 'ok') break;
    if (result.verdict === 'broken') consecutiveBroken += 1;
  }
  return { ...(last ? { last } : {}), consecutiveBroken, broken: consecutiveBroken >= BROKEN_AFTER };
}

/** Why a check is due now. */
export type LinkCheckReason = 'first check of this address' | 'start-up' | 're-check after a broken answer' | 're-check while broken' | 'period';

export interface LinkCheckDueInput {
  url: string;
  /** The latest checks of every instance, newest first. */
  recent: readonly LinkCheckResult[];
  now: number;
  intervalMs: number;
  /** False until this instance's start-up check is done (or found needless). */
  startedUp: boolean;
}

/**
 * Whether a check of url is due at now, and why; undefined when not. The rules, in order:
 * - this address never checked (a new or changed AFFILIATE_URL): due;
 * - this instance's start-up: due unless the same address was checked within startUpSkipMs;
 * - the latest check of the address answered broken, the first of its streak: due recheckAfterBrokenMs after it;
 * - the link is broken (two or more in a row, 'blocked' and 'error' between them not ending the streak): due
 *   recheckWhileBrokenMs after the latest check, so its recovery is found soon, or later while the latest
 *   checks got no answer that says anything (whileBrokenWaitMs);
 * - otherwise: due intervalMs after the latest check of the address.
 */
export function linkCheckDue({ url, recent, now, intervalMs, startedUp }: LinkCheckDueInput): LinkCheckReason | undefined {
  const ofUrl = recent.filter((result) => result.url === url);
  const latest = ofUrl[0];
  if (!latest) return 'first check of this address';
  const since = now - latest.checkedAt.getTime();
  if (!startedUp) return since < startUpSkipMs ? undefined : 'start-up';
  const { consecutiveBroken, broken } = linkHealthState(ofUrl);
  if (latest.verdict === 'broken' && consecutiveBroken === 1 && since >= recheckAfterBrokenMs) return 're-check after a broken answer';
  if (broken && since >= Math.min(whileBrokenWaitMs(ofUrl), intervalMs)) return 're-check while broken';
  return since >= intervalMs ? 'period' : undefined;
}

/**
 * The wait before the next check of a broken link: recheckWhileBrokenMs after a 404 or 410; after a run of
 * 'error' and 'blocked' checks (no answer, a 5xx, a refusal of robots), as long as that run has lasted, up to
 * 2 hours (server/lib/recheckBackoff.ts), so a partner that is down or refusing is not asked every 15 minutes.
 */
function whileBrokenWaitMs(ofUrl: readonly LinkCheckResult[]): number {
  const run = ofUrl.findIndex((result) => result.verdict !== 'error' && result.verdict !== 'blocked');
  const oldestOfRun = ofUrl[(run === -1 ? ofUrl.length : run) - 1];
  if (oldestOfRun === undefined) return recheckWhileBrokenMs;
  return unansweredRecheckMs(ofUrl[0]!.checkedAt.getTime() - oldestOfRun.checkedAt.getTime());
}

/** The claim of one due check across instances: per address, per latest check, per slot (so a claimer that stopped delays the next by a slot at most). */
export function linkCheckClaim(url: string, latest: LinkCheckResult | undefined, now: number): string {
  const address = createHash('sha256').update(url).digest('hex').slice(0, 12);
  return `${address}:${latest?.checkedAt.getTime() ?? 0}:${Math.floor(now / claimSlotMs)}`;
}

export interface LinkMonitorOptions {
  url: string;
  intervalMs: number;
  logger: Logger;
  log: LinkCheckLog;
  /** Default checkLink. */
  check?: (url: string) => Promise<LinkCheckResult>;
  now?: () => number;
}

/**
 * Checks the affiliate address: at this instance's start, every intervalMs after the latest check, and
 * recheckAfterBrokenMs after a first broken answer (linkCheckDue); the schedule runs tick() every
 * linkCheckTickMs (server/schedule/schedule.ts). It logs loudly once the link has looked broken twice in a
 * row. With several instances on one database, all read the same history and each due check is claimed
 * (linkCheckClaim), so only one instance makes it.
 */
export class LinkMonitor {
  private readonly options: Required<LinkMonitorOptions>;
  private inFlight: Promise<LinkCheckResult> | undefined;
  private startedUp = false;
  /** The history could not be read at the last tick: logged once, until a tick succeeds. */
  private failing = false;

  constructor(options: LinkMonitorOptions) {
    this.options = { check: (url) => checkLink(url), now: Date.now, ...options };
  }

  /** How often it checks when nothing else calls for a check. */
  get intervalMs(): number {
    return this.options.intervalMs;
  }

  /** Checks when a check is due (linkCheckDue) and this instance claims it; resolves to undefined otherwise. */
  async tick(): Promise<LinkCheckResult | undefined> {
    const { log, intervalMs, now, logger, url } = this.options;
    try {
      const at = now();
      const recent = await log.recent(HISTORY);
      const reason = linkCheckDue({ url, recent, now: at, intervalMs, startedUp: this.startedUp });
      this.failing = false;
      if (reason === undefined) {
        // Checked within startUpSkipMs by another start: that is this start's check.
        this.startedUp = true;
        return undefined;
      }
      // Lost: another instance makes this very check. A start-up keeps looking until a check of the address is recorded.
      if (!(await log.claim(linkCheckClaim(url, recent.find((result) => result.url === url), at)))) return undefined;
      this.startedUp = true;
      return await this.runCheck();
    } catch (error) {
      // The database is down: the availability log says so; this line once, then the next ticks try quietly.
      if (!this.failing) logger.warning(`link check skipped: ${firstLine(messageOf(error))}`);
      this.failing = true;
      return undefined;
    }
  }

  /** One check now, recorded. A call while one is running gets that check's result rather than hitting the partner twice. */
  runCheck(): Promise<LinkCheckResult> {
    this.inFlight ??= this.checkAndRecord().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async state(): Promise<LinkHealthState> {
    return { ...linkHealthState(await this.options.log.recent(HISTORY)), everyMs: this.options.intervalMs };
  }

  private async checkAndRecord(): Promise<LinkCheckResult> {
    const { url, check, log, logger, now } = this.options;
    // The monitor's clock dates the check, so the next due check is reckoned on one clock.
    const checkedAt = new Date(now());
    // checkLink never throws, but a substituted check might; the timer calls us with nobody to catch.
    const answer = await check(url).catch(
      (error: unknown): LinkCheckResult => ({
        checkedAt,
        url,
        finalUrl: url,
        redirects: 0,
        ms: Math.max(0, now() - checkedAt.getTime()),
        error: firstLine(messageOf(error)) || 'check failed',
        verdict: 'error',
      }),
    );
    const result = { ...answer, checkedAt };
    const previous = await this.state();
    await log.add(result);
    const current = await this.state();

    const outcome = result.status === undefined ? result.error : String(result.status);
    logger.info(`${result.checkedAt.toISOString()} link check ${result.url}: ${outcome} (${result.verdict})`);
    if (result.verdict === 'broken' && current.broken) {
      logger.warning(
        `affiliate link looks broken: ${result.url} answered ${result.status} on ${current.consecutiveBroken} checks in a row; check AFFILIATE_URL`,
      );
    } else if (result.verdict === 'broken') {
      logger.info(`affiliate link answered ${result.status}: checking again in ${recheckAfterBrokenMs / 60_000} minutes`);
    } else if (result.verdict === 'ok' && previous.broken) {
      logger.info(`affiliate link works again: ${result.url} answered ${result.status} after ${previous.consecutiveBroken} broken checks in a row`);
    }
    return result;
  }
}

/**
 * Why the server makes no link check, or undefined when it does: LINK_CHECK_HOURS off, or an address on a
 * domain reserved for documentation (RFC 2606: the sample AFFILIATE_URL and test addresses), which no partner answers.
 */
export function linkCheckOff(url: string, everyHours: number | undefined): string | undefined {
  if (everyHours === undefined) return 'LINK_CHECK_HOURS is off';
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  if (isDocumentationHost(host)) return `AFFILIATE_URL is on ${host}, a documentation address no partner answers`;
  return undefined;
}
