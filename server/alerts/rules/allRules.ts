import { claimsRule } from './claimsRule';
import { databaseRule } from './databaseRule';
import { linkRule } from './linkRule';
import { salesRule } from './salesRule';
import { clicksSilenceRule, viewsSilenceRule } from './silenceRule';
import { spendRule } from './spendRule';
import { untrackedRule } from './untrackedRule';
import type { AlertRuleDefinition } from './alertRuleDefinition';

/**
 * Every alert rule, in the order the watch runs them. A new rule is a file in this folder exporting its
 * AlertRuleDefinition (name, title, read, its texts) and one line here; its name becomes an AlertRule.
 */
export const alertRules = [linkRule, salesRule, viewsSilenceRule, clicksSilenceRule, spendRule, untrackedRule, claimsRule, databaseRule] as const;

const byName: ReadonlyMap<string, AlertRuleDefinition> = new Map(alertRules.map((rule) => [rule.name, rule]));

/** The rule of an incident's name; undefined for a name no rule has (an incident recorded by a later version). */
export function alertRuleNamed(name: string): AlertRuleDefinition | undefined {
  return byName.get(name);
}
