import { ExperimentTables } from '../admin/ExperimentTables';
import { FunnelSummary } from '../admin/FunnelSummary';
import { PlacementTable } from '../admin/PlacementTable';
import { Caption } from '../admin/ScrollBox';
import { SourceTable } from '../admin/SourceTable';
import { SpendTable } from '../admin/SpendTable';
import { digestCampaigns } from './digestContent';
import { ColumnHeads } from '../admin/ColumnHeads';
import type { ComparedFigure } from './comparedFigures';
import type { Incident } from '../alerts/incidents';
import { adminRangeUrl, incidentHeading, incidentSpan, runningExperiments, type DigestContent } from './digestContent';

function ComparisonTable({ figures, content }: { figures: ComparedFigure[]; content: DigestContent }) {
  const { current, previous } = content.week;
  return (
    <table className="compare">
      <Caption>
        {current.from} to {current.to} against {previous.from} to {previous.to}
      </Caption>
      <ColumnHeads columns={['Figure', 'This week', 'Week before', 'Change']} />
      <tbody>
        {figures.map((figure) => (
          <tr key={figure.label}>
            <th scope="row">{figure.label}</th>
            <td>{figure.current}</td>
            <td>{figure.previous}</td>
            <td>{figure.change}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function IncidentList({ incidents }: { incidents: Incident[] }) {
  if (incidents.length === 0) return <p>No incidents: no alert was raised this week.</p>;
  return (
    <ul className="incidents">
      {incidents.map((incident) => (
        <li key={incident.id}>
          <strong>{incidentHeading(incident)}</strong> <span className="muted">{incidentSpan(incident)}</span> {incident.summary}
          {incident.recovery && <span className="muted"> {incident.recovery}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The weekly digest's HTML: /admin's own components over the week's report, in /admin's cards (one
 * under another: e-mail clients lay out no grid), between a comparison with the week before and the
 * week's incidents. Class names only: digestHtml.tsx writes the styles into the
 * elements, as e-mail needs. No images, no script, nothing loaded from elsewhere; the links go to /admin.
 */
export function DigestEmail({ content, title }: { content: DigestContent; title: string }) {
  const { current: report, week, siteUrl } = content;
  const experiments = runningExperiments(report);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body>
        <div className="digest">
          <h1>Weekly digest</h1>
          <p className="muted">
            {siteUrl}, {week.current.from} to {week.current.to}. Days are UTC.
          </p>
          <FunnelSummary all={report.all} from={report.from} to={report.to} />
          <div className="card">
            <h2>Against the 7 days before</h2>
            <div className="scroll">
              <ComparisonTable figures={content.figures} content={content} />
            </div>
          </div>
          <div className="card">
            <h2>By placement</h2>
            <PlacementTable totals={report.totals} all={report.all} from={report.from} to={report.to} seen={{ currency: report.currency }} />
          </div>
          <div className="card">
            <h2>Top sources</h2>
            <SourceTable sources={report.sources} otherSources={report.otherSources} from={report.from} to={report.to} />
          </div>
          {report.costs.recorded && (
            <div className="card">
              <h2>Spend and profit</h2>
              <SpendTable costs={report.costs} from={report.from} to={report.to} campaignsShown={digestCampaigns} />
            </div>
          )}
          {experiments.length > 0 && (
            <div className="card">
              <h2>Experiments</h2>
              <ExperimentTables experiments={experiments} currency={report.currency} to={report.to} />
            </div>
          )}
          <div className="card">
            <h2>Incidents</h2>
            <IncidentList incidents={content.incidents} />
          </div>
          {content.claimsLine && (
            <div className="card">
              <h2>Claims</h2>
              <p>{content.claimsLine}</p>
            </div>
          )}
          <p className="links">
            <a href={adminRangeUrl(siteUrl, week.current)}>These 7 days on /admin</a> ·{' '}
            <a href={adminRangeUrl(siteUrl, week.previous)}>the 7 before</a>
          </p>
        </div>
      </body>
    </html>
  );
}
