import { firstLine, messageOf } from '../lib/errorText';
import type { Logger } from '../lib/logger';
import type { LinkCheckLog } from '../linkHealth/linkCheckLog';
import type { AppDatabase } from '../db/openDatabase';
import type { DeliveryChannels } from '../delivery/deliveryChannel';
import { oneAtATime } from '../lib/oneAtATime';
import { alertChannels } from './alertsConfig';
import type { AlertsConfig } from './alertTypes';
import { DatabaseOutage, thisInstance } from './databaseOutage';
import { createIncidentStore, type IncidentStore } from './incidents';
import type { RuleSources } from './rules/alertRuleDefinition';
import { alertRules } from './rules/allRules';

/** Every instance looks this often (the database rule is each instance's own). */
export const watchTickMs = 60_000;
/** The rules that read the database run once per period of this length, across instances. */
export const watchPeriodMs = 5 * 60_000;

/** What one run of the rules changed: the incidents this caller opened and closed (another instance's changes are not here). */
export interface RulesRun {
  opened: { rule: string; subject: string }[];
  closed: { rule: string; subject: string }[];
  /** Rules that could not be read, with why; the others ran. */
  failed: { rule: string; error: string }[];
}

/**
 * Runs the rules that read the database (those of allRules.ts with a `read`), at `now`: opens an incident for each wrong verdict and closes
 * the open one of each fine verdict (only those open, so a quiet run writes nothing). Safe to run on
 * two instances at once: the incident store lets one of them alert. Never throws; a rule that fails is
 * listed and the others still run. With `only`, that rule alone runs.
 */
export async function runRules(sources: RuleSources, incidents: IncidentStore, now: number, only?: string): Promise<RulesRun> {
  const run: RulesRun = { opened: [], closed: [], failed: [] };
  let open: Set<string>;
  try {
    open = new Set((await incidents.openIncidents()).map((incident) => `${incident.rule}\u0000${incident.subject}`));
  } catch (error) {
    run.failed.push({ rule: 'all', error: firstLine(messageOf(error)) });
    return run;
  }
  for (const rule of alertRules) {
    if (!('read' in rule) || (only !== undefined && rule.name !== only)) continue;
    try {
      for (const verdict of await rule.read(sources, now)) {
        if (!verdict) continue;
        const key = `${verdict.rule}\u0000${verdict.subject}`;
        if (verdict.wrong && !open.has(key)) {
          if (await incidents.open(verdict.rule, verdict.subject, verdict.summary, now)) run.opened.push({ rule: verdict.rule, subject: verdict.subject });
        } else if (!verdict.wrong && open.has(key)) {
          if (await incidents.close(verdict.rule, verdict.subject, verdict.recovery, now)) run.closed.push({ rule: verdict.rule, subject: verdict.subject });
        }
      }
    } catch (error) {
      run.failed.push({ rule: rule.name, error: firstLine(messageOf(error)) });
    }
  }
  return run;
}

export interface AlertWatchOptions extends RuleSources {
  incidents: IncidentStore;
  /** True for the one instance that claims a job's run for a period (server/jobs/jobRuns.ts). */
  claimJobRun(job: string, period: string): Promise<boolean>;
  /** This instance's database rule. */
  outage: DatabaseOutage;
  /** Whether the database answers: while it does not, a failed rule is the outage's, already logged. */
  available: () => boolean;
  logger: Logger;
  now?: () => number;
}

/**
 * The watch on one instance, looking every watchTickMs (the schedule runs tick(), server/schedule/schedule.ts).
 * Each look runs this instance's database rule, then, once per five-minute period across instances
 * (claimed in job_runs), the rules that read the database. Never throws, never overlaps itself; all of it
 * is small queries, nothing long in this thread.
 */
export class AlertWatch {
  /** The last period this instance tried to claim, so a claim is written once per period, not once a minute. */
  private claimedPeriod: number | undefined;

  constructor(private readonly options: AlertWatchOptions) {}

  /** One look; a call while one is under way gets that one. */
  readonly tick: () => Promise<void> = oneAtATime(() => this.look());

  private async look(): Promise<void> {
    const { outage, claimJobRun, incidents, logger, available, now = Date.now } = this.options;
    try {
      const at = now();
      await outage.check(at);
      if (!available()) return;
      const period = Math.floor(at / watchPeriodMs);
      if (period === this.claimedPeriod) return;
      if (!(await claimJobRun('watch', String(period)))) {
        this.claimedPeriod = period;
        return;
      }
      this.claimedPeriod = period;
      this.report(await runRules(this.options, incidents, at));
    } catch (error) {
      // The database stopped answering mid-look: its availability logged that; the next look tries again.
      if (available()) logger.error(`the alert watch failed: ${firstLine(messageOf(error))}; it looks again in a minute`);
    }
  }

  /**
   * The link rule alone, at once, after this instance recorded a link check (server/backgroundWork.ts): a
   * second broken answer alerts within seconds, not at the next five-minute period. No claim is needed:
   * the incident store lets one instance open (or close) the incident. Never throws.
   */
  async linkChecked(): Promise<void> {
    const { incidents, now = Date.now } = this.options;
    if (!this.options.linkChecks) return;
    this.report(await runRules(this.options, incidents, now(), 'link'));
  }

  /** After this instance checked the claims: the claims rule at once, as after a link check. Never throws. */
  async claimsChecked(): Promise<void> {
    const { incidents, now = Date.now } = this.options;
    this.report(await runRules(this.options, incidents, now(), 'claims'));
  }

  private report(run: RulesRun): void {
    const { logger, available } = this.options;
    for (const { rule, subject } of run.opened) logger.warning(`alert: ${rule}${subject ? ` (${subject})` : ''} opened`);
    for (const { rule, subject } of run.closed) logger.info(`alert: ${rule}${subject ? ` (${subject})` : ''} recovered`);
    if (available()) for (const { rule, error } of run.failed) logger.error(`alert rule ${rule} could not run: ${error}`);
  }
}

export interface AlertWatchSettings {
  /** config.alerts: undefined when alerts go nowhere; incidents are still recorded for /admin. */
  alerts: AlertsConfig | undefined;
  siteUrl: string;
  /** Whether this instance checks the link (LINK_CHECK_HOURS not off): the link rule reads the checks only then. */
  checksLink: boolean;
  logger: Logger;
  /** The channels alerts go on, built once for the instance (server/backgroundWork.ts): the database alert goes straight through them. */
  channels: DeliveryChannels;
  /** Wakes the outbox's sender after an alert or recovery was enqueued. */
  enqueued: () => void;
}

/** The watch of one running instance, on its open database and stores (server/backgroundWork.ts schedules it whenever statistics are on). */
export function createAlertWatch(
  stores: { database: AppDatabase; linkChecks: LinkCheckLog; claimJobRun(job: string, period: string): Promise<boolean> },
  { alerts, siteUrl, checksLink, logger, channels, enqueued }: AlertWatchSettings,
): AlertWatch {
  const { db, availability, name } = stores.database;
  const incidents = createIncidentStore(db, { channels: alertChannels(alerts), siteUrl, enqueued });
  const outage = new DatabaseOutage({ db, availability, incidents, channels, names: { instance: thisInstance(), database: name }, siteUrl, logger });
  return new AlertWatch({
    db,
    ...(checksLink ? { linkChecks: stores.linkChecks } : {}),
    incidents,
    claimJobRun: (job, period) => stores.claimJobRun(job, period),
    outage,
    available: () => availability.available,
    logger,
  });
}
