import type { OutboxMessage } from '../delivery/outbox';
import { amountText, counted } from '../dayCounts/reportNumbers';
import type { DigestContent } from './digestContent';
import { digestHtml } from './digestHtml';
import { digestText } from './digestText';

/** The e-mail's subject: the site, the days, and the week's headline figures, so the inbox alone says how it went. */
export function digestSubject({ siteUrl, week, figures: [visitors], current: { all, currency } }: DigestContent): string {
  const headline = [`${counted(all.viewVisitors, 'visitor')}${visitors ? ` (${visitors.change})` : ''}`, counted(all.conversions, 'conversion'), amountText(all.revenue, currency)];
  return `Weekly digest for ${new URL(siteUrl).host}, ${week.current.from} to ${week.current.to}: ${headline.join(', ')}`;
}

/** The digest as the outbox takes it: by e-mail, with its HTML and text parts. */
export function digestMessage(content: DigestContent): OutboxMessage {
  const subject = digestSubject(content);
  return { event: 'digest', incidentId: null, subject, text: digestText(content), html: digestHtml(content, subject) };
}
