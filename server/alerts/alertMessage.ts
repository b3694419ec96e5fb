import type { OutboxMessage } from '../delivery/outbox';
import type { AlertRule } from './alertTypes';
import { alertRuleNamed } from './rules/allRules';
import { formatMoment } from '../lib/utcDay';

/** A rule's incident in a few words, as its rule writes it: "sales gone silent on hero". */
export function incidentTitle(rule: AlertRule, subject: string): string {
  return alertRuleNamed(rule)?.title(subject) ?? `${rule}${subject ? ` (${subject})` : ''}`;
}

export interface IncidentFacts {
  id: number;
  rule: AlertRule;
  subject: string;
  openedAt: number;
  summary: string;
}

/**
 * An incident's alert ('opened', at openedAt) or recovery ('recovered', at the moment given, with its
 * text) as the outbox takes it: the subject line names the site, the text is the rule's own words and
 * where to look, and `alert` carries the same facts for programs.
 */
export function alertMessage(incident: IncidentFacts, siteUrl: string, recovered?: { at: number; recovery: string }): OutboxMessage {
  const host = new URL(siteUrl).host;
  const title = incidentTitle(incident.rule, incident.subject);
  const at = recovered ? recovered.at : incident.openedAt;
  const lines = recovered
    ? [`Recovered: ${title} (${host}).`, recovered.recovery, `It began at ${formatMoment(incident.openedAt)} and ended at ${formatMoment(at)}.`]
    : [`Alert: ${title} (${host}).`, incident.summary];
  lines.push(`${siteUrl}/admin`);
  return {
    event: recovered ? 'recovered' : 'opened',
    incidentId: incident.id,
    subject: `[${host}] ${recovered ? 'Recovered' : 'Alert'}: ${title}`,
    text: lines.join('\n'),
    alert: { rule: incident.rule, subject: incident.subject, state: recovered ? 'recovered' : 'opened', at: new Date(at).toISOString(), site: siteUrl, incident: incident.id },
  };
}
