import { formatMoment } from '../lib/utcDay';
import { countText } from '../lib/numberFormat';
import type { ReactNode } from 'react';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { counted, share } from '../dayCounts/reportNumbers';
import { describeLinkCheck } from '../linkHealth/checkLink';
import { defaultLinkCheckHours, recheckAfterBrokenMs, recheckWhileBrokenMs, startUpSkipMs, type LinkHealthState } from '../linkHealth/linkMonitor';
import { adminCss } from './adminStyles';
import type { AlertsOverview } from '../alerts/alertsOverview';
import { AlertsPanel } from './AlertsPanel';
import { DailySourceTable } from './DailySourceTable';
import { DailyTable } from './DailyTable';
import { ExperimentTables } from './ExperimentTables';
import { FunnelSummary } from './FunnelSummary';
import { FilteredTable } from './FilteredTable';
import { PageTable } from './PageTable';
import { PlacementTable } from './PlacementTable';
import { ReachPages } from './ReachPages';
import { ReleaseTable } from './ReleaseTable';
import { Caption, ScrollBox } from './ScrollBox';
import { ClaimsCard } from './ClaimsCard';
import type { ClaimsOverview } from '../claims/claimsOverview';
import { SourceTable } from './SourceTable';
import { adminCampaigns, SpendTable } from './SpendTable';
import { ColumnHeads } from './ColumnHeads';
import { MainChart } from './MainChart';
import { chartMetricFor, chartMetricsOf } from './chartMetrics';
import { TopRows } from './TopRows';
import { adminSections } from './adminSections';
import { sourceName } from '../dayCounts/reportNumbers';

export interface AdminPageProps {
  /** Undefined when click counting is off. */
  report: FunnelReport | undefined;
  /** A range the operator asked for that could not be read; the report then shows the default range. */
  rangeError?: string;
  /** Undefined when the server does not check the link (LINK_CHECK_HOURS=off, or a documentation AFFILIATE_URL). */
  linkHealth: LinkHealthState | undefined;
  /** The Claims card: each claim's verdict against the merchant's pages; undefined when click counting is off. */
  claims?: ClaimsOverview;
  /** The open incidents and the last 30 days' alerts (server/alerts/); undefined when click counting is off. */
  alerts?: AlertsOverview;
  affiliateUrl: string;
  /** The main chart's figure as the query asked for it (?metric=); the page falls back to visitors, saying so, when it is not one it can draw. */
  metric?: string;
  /** The range as the query gave it ("days=30", "from=…&to=…"; '' for the default), kept by the chart's links. */
  rangeQuery?: string;
}

const quickRanges = [7, 30, 90, 365];

function hours(everyMs: number | undefined): string {
  const count = (everyMs ?? defaultLinkCheckHours * 3_600_000) / 3_600_000;
  return count === 1 ? 'hour' : `${count} hours`;
}

/** A broken affiliate link leads the page: visitors who click may be landing on an error page. */
function LinkBrokenBanner({ linkHealth, affiliateUrl }: Pick<AdminPageProps, 'linkHealth' | 'affiliateUrl'>) {
  if (!linkHealth?.broken) return null;
  return (
    <div className="banner" role="alert">
      <strong>The affiliate link looks broken.</strong> {linkHealth.consecutiveBroken} checks in a row found the page gone (404 or 410). Visitors who
      click may be landing on an error page: check <code>AFFILIATE_URL</code> ({affiliateUrl}) with your affiliate network.
    </div>
  );
}

function LinkHealthLine({ linkHealth }: Pick<AdminPageProps, 'linkHealth'>) {
  if (!linkHealth) {
    return (
      <p className="health">
        The server does not check the affiliate link: <code>LINK_CHECK_HOURS</code> is <code>off</code>, or <code>AFFILIATE_URL</code> is on a
        documentation domain (such as example.com) that no partner answers. Run <code>npm run check-link</code> to check it by hand.
      </p>
    );
  }
  const { last } = linkHealth;
  return (
    <p className="health">
      {last ? (
        <>
          Link check of {last.url} at {formatMoment(last.checkedAt.getTime())}: {describeLinkCheck(last)}.
        </>
      ) : (
        'The first link check has not finished yet.'
      )}{' '}
      Checked at each start (unless checked in the last {startUpSkipMs / 60_000} minutes), every {hours(linkHealth.everyMs)}, and again{' '}
      {recheckAfterBrokenMs / 60_000} minutes after a broken answer (404 or 410): two in a row raise the link alert, and the link is then checked every{' '}
      {recheckWhileBrokenMs / 60_000} minutes until it works (less often while it gives no clear answer).
    </p>
  );
}

/** An href to /admin with the range and the chart's figure: every choice on the page is a plain link (its CSP allows no script). */
export function adminHref(rangeQuery: string, metric: string | undefined): string {
  const parts = [rangeQuery, metric ? `metric=${encodeURIComponent(metric)}` : ''].filter(Boolean);
  return parts.length === 0 ? '/admin' : `/admin?${parts.join('&')}`;
}

/** The quick ranges as links keeping the chart's figure, and any other range by its dates behind a fold. */
function RangeChoice({ from, to, metric }: Pick<FunnelReport, 'from' | 'to'> & { metric: string }) {
  return (
    <div className="ranges">
      <nav aria-label="Quick ranges">
        Last:{' '}
        {quickRanges.map((days) => (
          <a key={days} href={adminHref(`days=${days}`, metric)}>
            {days} days
          </a>
        ))}
      </nav>
      <details>
        <summary>Other dates</summary>
        <form method="get" action="/admin">
          <label>
            From
            <input type="date" name="from" defaultValue={from} required />
          </label>
          <label>
            To
            <input type="date" name="to" defaultValue={to} required />
          </label>
          <input type="hidden" name="metric" value={metric} />
          <button type="submit">Show</button>
        </form>
      </details>
    </div>
  );
}

function Breakdown({ caption, heading, rows }: { caption: string; heading: string; rows: { name: string; clicks: number }[] }) {
  const total = rows.reduce((sum, row) => sum + row.clicks, 0);
  return (
    <ScrollBox label={caption}>
      <table>
        <Caption>{caption}</Caption>
        <ColumnHeads columns={[heading, 'Clicks', 'Share']} />
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3}>No clicks in this range.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.name}>
                <th scope="row">{row.name}</th>
                <td>{countText(row.clicks)}</td>
                <td>{share(row.clicks, total)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollBox>
  );
}

/** A breakdown card: its heading (the section index links to its id), then what it holds. */
function Card({ id, title, wide = false, children }: { id: keyof typeof adminSections; title?: string; wide?: boolean; children: ReactNode }) {
  return (
    <section id={id} className={wide ? 'card wide' : 'card'} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title ?? adminSections[id]}</h2>
      {children}
    </section>
  );
}

/**
 * The short index of the page's sections, right under the headline and the chart: above them it pushed
 * the chart out of a phone's first screen.
 */
function SectionIndex({ shown }: { shown: readonly (keyof typeof adminSections)[] }) {
  return (
    <nav className="sections" aria-label="Sections of this page">
      {shown.map((id) => (
        <a key={id} href={`#${id}`}>
          {adminSections[id]}
        </a>
      ))}
    </nav>
  );
}

/** The admin pages' document: private, never indexed, styled by the one stylesheet its CSP allows. */
export function AdminDocument({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} | Auctions Guide`}</title>
        <style dangerouslySetInnerHTML={{ __html: adminCss }} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** Shown with a 503 while the statistics database does not answer; the public pages keep serving meanwhile. */
export function AdminUnavailablePage({ databaseName }: { databaseName: string }) {
  return (
    <AdminDocument title="Admin: statistics unavailable">
      <h1>Statistics are unavailable</h1>
      <p className="banner" role="alert">
        The statistics database ({databaseName}) is not answering, so there is nothing to show right now. The public pages are unaffected;
        click reports are refused with 503 until it is back, and counting resumes by itself, with no restart.
      </p>
      <p>The server log has one line for when it stopped answering, and will have one for when it answers again. Reload this page to try again.</p>
    </AdminDocument>
  );
}

/** Shown with a 503 when a report was stopped for taking too long: the database answers, so this is no outage. */
export function AdminSlowReportPage({ reason }: { reason: string }) {
  return (
    <AdminDocument title="Admin: report stopped">
      <h1>The report was stopped</h1>
      <p className="banner" role="alert">
        {reason[0]!.toUpperCase() + reason.slice(1)}. The statistics database is answering and counting goes on; only this report was given up.
      </p>
      <p>
        <a href="/admin?days=30">Show the last 30 days</a>, or reload this page to try again.
      </p>
    </AdminDocument>
  );
}

/**
 * The operator's private page (issue 30): first what answers "how are we doing" (the headline figures with
 * their change against the previous period, and one chart of the chosen figure over the range), then the
 * breakdowns as cards side by side, the long per-day tables folded, alerts and link health last (a broken
 * link or an open alert still leads the page as a banner). Rendered per request, never cached.
 */
export function AdminPage({ report, rangeError, linkHealth, affiliateUrl, alerts, claims, metric: askedMetric, rangeQuery = '' }: AdminPageProps) {
  const openAlerts = alerts?.open.length ?? 0;
  return (
    <AdminDocument title="Admin: affiliate funnel">
      <h1>Affiliate funnel</h1>
      <p className="muted intro">Private to the operator of this site. Days are UTC.</p>
      <LinkBrokenBanner linkHealth={linkHealth} affiliateUrl={affiliateUrl} />
      {openAlerts > 0 && (
        <p className="banner" role="alert">
          <strong>{openAlerts === 1 ? 'An alert is open' : `${openAlerts} alerts are open`}</strong>: see <a href="#alerts">Alerts</a>.
        </p>
      )}
      {!report ? (
        <>
          <p>
            Click counting is off (<code>CLICK_STATS=off</code>): nothing is recorded.
          </p>
          <LinkHealthLine linkHealth={linkHealth} />
        </>
      ) : (
        <ReportSections report={report} rangeError={rangeError} linkHealth={linkHealth} alerts={alerts} claims={claims} askedMetric={askedMetric} rangeQuery={rangeError ? '' : rangeQuery} />
      )}
    </AdminDocument>
  );
}

function ReportSections({
  report,
  rangeError,
  linkHealth,
  alerts,
  claims,
  askedMetric,
  rangeQuery,
}: Pick<AdminPageProps, 'rangeError' | 'linkHealth' | 'alerts' | 'claims'> & { report: FunnelReport; askedMetric: string | undefined; rangeQuery: string }) {
  const { metric, note } = chartMetricFor(askedMetric, report);
  const placementMetrics = chartMetricsOf(report).filter((candidate) => candidate.key.startsWith('clicks-') || candidate.key === 'clicks');
  const sections = (Object.keys(adminSections) as (keyof typeof adminSections)[]).filter((id) => (id !== 'alerts' || alerts) && (id !== 'claims' || claims));
  const incidents = alerts?.inRange ?? [];
  return (
    <>
      {rangeError && (
        <p className="banner" role="alert">
          That range could not be shown: {rangeError}. Showing the last 30 days instead.
        </p>
      )}
      <RangeChoice from={report.from} to={report.to} metric={metric.key} />
      <FunnelSummary
        all={report.all}
        from={report.from}
        to={report.to}
        previous={report.previous}
        costs={report.costs}
        chartHref={(figure) => adminHref(rangeQuery, figure)}
        chosen={metric.key}
      />
      <section id="chart" className="card chart-card" aria-labelledby="chart-heading">
        <h2 id="chart-heading">
          {metric.label}, {report.from} to {report.to}
        </h2>
        {note && (
          <p className="note" role="status">
            {note}
          </p>
        )}
        <MainChart report={report} metric={metric} releases={report.releases.compared} incidents={incidents} />
        <nav className="metrics" aria-label="Chart clicks">
          {placementMetrics.map((candidate) => (
            <a key={candidate.key} href={adminHref(rangeQuery, candidate.key)} className={candidate.key === metric.key ? 'chosen' : undefined} aria-current={candidate.key === metric.key ? 'true' : undefined}>
              {candidate.label}
            </a>
          ))}
        </nav>
      </section>
      <SectionIndex shown={sections} />
      <p>
        <strong>
          {counted(report.all.clicks, 'click')} by {counted(report.all.visitors, 'visitor')}
        </strong>{' '}
        from {report.from} to {report.to}, each figure above compared with the same number of days before ({report.previous.from} to{' '}
        {report.previous.to}; no change is shown where those had nothing). A visitor is counted once a day, so one who returns on another day
        counts again. Conversions count under the day of the click that led to them (the day they arrived when no click matched), so a range’s
        conversions are what its clicks earned; refunds and chargebacks are taken out.
      </p>
      <div className="cards">
        <Card id="placements" wide>
          <PlacementTable totals={report.totals} all={report.all} from={report.from} to={report.to} seen={{ currency: report.currency }} />
        </Card>
        <Card id="sources">
          <TopRows
            rows={report.sources.map((row) => ({ name: sourceName(row.source), count: row.visitors }))}
            unit="visitors"
            total={report.all.viewVisitors}
            summary="Every source, with clicks and conversions"
            all={<SourceTable sources={report.sources} otherSources={report.otherSources} from={report.from} to={report.to} />}
          />
        </Card>
        <Card id="pages">
          <TopRows
            rows={report.pages.map((row) => ({ name: row.page, count: row.views }))}
            unit="views"
            total={report.all.views}
            summary="Every page, with visitors and clicks"
            all={<PageTable pages={report.pages} from={report.from} to={report.to} />}
          />
        </Card>
        <Card id="spend" wide>
          <SpendTable costs={report.costs} from={report.from} to={report.to} campaignsShown={adminCampaigns} />
        </Card>
        <Card id="devices">
          <Breakdown caption="Clicks by device class" heading="Device" rows={report.devices.map((row) => ({ name: row.device, clicks: row.clicks }))} />
          <Breakdown
            caption="Clicks by referring site (top 10)"
            heading="Came from"
            rows={report.referrers.map((row) => ({ name: row.host || '(direct, unknown or this site)', clicks: row.clicks }))}
          />
        </Card>
        <Card id="experiments">
          {/* Each experiment's verdict in a line: its top row, the variants' figures behind the fold. */}
          {report.experiments.length > 0 && (
            <ul className="verdicts">
              {report.experiments.map((experiment) => (
                <li key={experiment.id}>
                  <strong>{experiment.id}</strong>: {experiment.verdict}.
                </li>
              ))}
            </ul>
          )}
          <details>
            <summary>
              {report.experiments.length === 1 ? 'The experiment' : `The ${report.experiments.length} experiments`}, by variant
            </summary>
            <ExperimentTables experiments={report.experiments} currency={report.currency} to={report.to} />
          </details>
        </Card>
        <Card id="releases">
          <p>
            {report.releases.inRange === 0
              ? 'No release was first served in this range.'
              : `${counted(report.releases.inRange, 'release')} first served in this range, marked ◆ on the chart.`}
          </p>
          <details>
            <summary>Each release against the week before it</summary>
            <ReleaseTable releases={report.releases} currency={report.currency} from={report.from} to={report.to} />
          </details>
        </Card>
        <Card id="not-counted">
          <details>
            <summary>Reports not counted, by reason</summary>
            <FilteredTable filtered={report.filtered} from={report.from} to={report.to} />
          </details>
        </Card>
      </div>
      <section id="reach" aria-labelledby="reach-heading">
        <h2 id="reach-heading">{adminSections.reach}</h2>
        <ReachPages pages={report.pages} all={report.all} />
      </section>
      <section id="every-day" aria-labelledby="every-day-heading">
        <h2 id="every-day-heading">{adminSections['every-day']}</h2>
        <details>
          <summary>Every day</summary>
          <DailyTable days={report.days} totals={report.totals} releases={report.releases} />
          <DailySourceTable days={report.days} />
        </details>
      </section>
      {claims && <ClaimsCard claims={claims} />}
      {alerts && (
        <div id="alerts">
          <AlertsPanel alerts={alerts} />
        </div>
      )}
      <section id="link-health" aria-labelledby="link-health-heading">
        <h2 id="link-health-heading">{adminSections['link-health']}</h2>
        <LinkHealthLine linkHealth={linkHealth} />
      </section>
    </>
  );
}
