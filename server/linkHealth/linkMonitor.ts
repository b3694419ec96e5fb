import type { Logger } from '../lib/logger';
import { firstLine, messageOf } from '../lib/errorText';
import { checkLink, type LinkCheckResult } from './checkLink';
import type { LinkCheckLog } from './linkCheckLog';

export interface LinkHealthState {
  last?: LinkCheckResult;
  consecutiveBroken: number;
  /** True after two or more broken (404/410) checks in a row: one alone may be a partner's passing hiccup. */
  broken: boolean;
}

const BROKEN_AFTER = 2;
/** More than enough history to find the start of any streak worth a banner. */
const HISTORY = 50;

/**
 * The link's health from its latest checks, newest first. 'blocked' and 'error' say nothing about
 * whether the page is gone, so they neither add to nor end a streak of broken checks; 'ok' ends it.
 */
export function linkHealthState(recent: readonly LinkCheckResult[]): LinkHealthState {
  let consecutiveBroken = 0;
  for (const result of recent) {
    if (result.verdict === 'ok') break;
    if (result.verdict === 'broken') consecutiveBroken += 1;
  }
  return { ...(recent[0] ? { last: recent[0] } : {}), consecutiveBroken, broken: consecutiveBroken >= BROKEN_AFTER };
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
 * Checks the affiliate address every intervalMs (the schedule runs tick(), server/schedule/schedule.ts)
 * and logs loudly once it has looked broken twice in a row. With several instances on one database, each
 * tick claims its period first, so only one instance checks per period, and all read the same history.
 */
export class LinkMonitor {
  private readonly options: Required<LinkMonitorOptions>;
  private inFlight: Promise<LinkCheckResult> | undefined;

  constructor(options: LinkMonitorOptions) {
    this.options = { check: (url) => checkLink(url), now: Date.now, ...options };
  }

  /** How often it checks: the length of the period one instance claims. */
  get intervalMs(): number {
    return this.options.intervalMs;
  }

  /** Checks when this instance is the first to claim the current period; resolves to undefined when another was. */
  async tick(): Promise<LinkCheckResult | undefined> {
    const { log, intervalMs, now, logger } = this.options;
    try {
      if (!(await log.claim(Math.floor(now() / intervalMs)))) return undefined;
      return await this.runCheck();
    } catch (error) {
      // The database is down: the availability log says so once; this check waits for the next period.
      logger.error(`link check skipped: ${firstLine(messageOf(error))}`);
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
    return linkHealthState(await this.options.log.recent(HISTORY));
  }

  private async checkAndRecord(): Promise<LinkCheckResult> {
    const { url, check, log, logger } = this.options;
    const checkedAt = new Date();
    // checkLink never throws, but a substituted check might; the timer calls us with nobody to catch.
    const result = await check(url).catch(
      (error: unknown): LinkCheckResult => ({
        checkedAt,
        url,
        finalUrl: url,
        redirects: 0,
        ms: Date.now() - checkedAt.getTime(),
        error: firstLine(messageOf(error)) || 'check failed',
        verdict: 'error',
      }),
    );
    const previous = await this.state();
    await log.add(result);
    const current = await this.state();

    const outcome = result.status === undefined ? result.error : String(result.status);
    logger.info(`${result.checkedAt.toISOString()} link check ${result.url}: ${outcome} (${result.verdict})`);
    if (result.verdict === 'broken' && current.broken) {
      logger.error(
        `affiliate link looks broken: ${result.url} answered ${result.status} on ${current.consecutiveBroken} checks in a row; check AFFILIATE_URL`,
      );
    } else if (result.verdict === 'ok' && previous.broken) {
      logger.info(`affiliate link works again: ${result.url} answered ${result.status} after ${previous.consecutiveBroken} broken checks in a row`);
    }
    return result;
  }
}
