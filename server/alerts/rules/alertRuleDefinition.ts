import type { Kysely } from 'kysely';
import type { Schema } from '../../db/schema';
import type { LinkCheckLog } from '../../linkHealth/linkCheckLog';
import type { RuleVerdict } from './ruleVerdict';

/** What the rules that read the database read. */
export interface RuleSources {
  db: Kysely<Schema>;
  /** The shared link-check history, when this instance checks the link (LINK_CHECK_HOURS not off); undefined turns the link rule off. */
  linkChecks?: LinkCheckLog;
}

/**
 * An alert rule, as its file in server/alerts/rules/ describes it and allRules.ts lists it: its name (the
 * incidents' `rule`), how it is judged, and how its messages are written: title, and the rule's own words
 * for the alert and the recovery (their facts differ per rule, so each rule types its own). alertMessage.ts
 * frames them with the site, the times and where to look.
 */
export interface AlertRuleDefinition<Name extends string = string> {
  name: Name;
  /** The incident in a few words, as the alert's subject line and /admin name it: "sales gone silent on hero". */
  title(subject: string): string;
  /**
   * The verdicts at `now`, for the rules read from the database once per period across instances (the
   * alert watch runs them). Absent for a rule each instance judges itself (the database rule: databaseOutage.ts).
   */
  read?(sources: RuleSources, now: number): Promise<readonly (RuleVerdict<Name> | undefined)[]>;
  /** The alert's text (an incident's summary): what is wrong, how sure, what to check. */
  alertText(...facts: never[]): string;
  /** The recovery's text. */
  recoveryText(...facts: never[]): string;
}
