import { campaignSpendLines, experimentLines, funnelLines, placementLines, sourceLines, spendLines } from '../funnelReport/formatReport';
import { table } from '../lib/textTable';
import { placementReachLines } from '../funnelReport/formatReach';
import { digestCampaigns } from './digestContent';
import { adminRangeUrl, incidentHeading, incidentSpan, runningExperiments, type DigestContent } from './digestContent';

/**
 * The digest's plain-text part: the same figures as its HTML, laid out as npm run stats lays them out
 * (its own functions write the funnel, placements, sources and experiments), for mail readers that show
 * text only and for the eye that wants the numbers at once.
 */
export function digestText(content: DigestContent): string {
  const { current: report, week, siteUrl, figures, incidents } = content;
  const experiments = runningExperiments(report);
  const lines = [
    `Weekly digest: ${siteUrl}, ${week.current.from} to ${week.current.to} (UTC)`,
    '',
    ...funnelLines(report),
    '',
    `Against the 7 days before (${week.previous.from} to ${week.previous.to})`,
    table([['', 'This week', 'Week before', 'Change'], ...figures.map((figure) => [figure.label, figure.current, figure.previous, figure.change])], 1),
    '',
    'By placement',
    ...placementLines(report),
    '',
    'Who saw each placement',
    ...placementReachLines(report),
    '',
    'Top sources',
    ...sourceLines(report, '`npm run stats -- --all-sources` lists every one.'),
    '',
    ...(report.costs.recorded ? ['Spend and profit', ...spendLines(report), '', 'Spend and profit per campaign and ad', ...campaignSpendLines(report, digestCampaigns), ''] : []),
    ...(experiments.length === 0 ? [] : ['Experiments', ...experimentLines({ experiments, currency: report.currency }), '']),
    'Incidents',
    ...(incidents.length === 0
      ? ['No incidents: no alert was raised this week.']
      : incidents.map((incident) => `- ${incidentHeading(incident)}, ${incidentSpan(incident)}: ${incident.summary}${incident.recovery ? ` ${incident.recovery}` : ''}`)),
    '',
    ...(content.claimsLine ? ['Claims', content.claimsLine, ''] : []),
    `These 7 days on /admin: ${adminRangeUrl(siteUrl, week.current)}`,
    `The 7 before: ${adminRangeUrl(siteUrl, week.previous)}`,
  ];
  return `${lines.join('\n')}\n`;
}
