import { formatMoment } from '../lib/utcDay';
import { countText } from '../lib/numberFormat';
import type { ReactNode } from 'react';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { counted, share } from '../dayCounts/reportNumbers';
import { describeLinkCheck } from '../linkHealth/checkLink';
import { defaultLinkCheckHours, recheckAfterBrokenMs, startUpSkipMs, type LinkHealthState } from '../linkHealth/linkMonitor';
import { adminCss } from './adminStyles';
import type { AlertsOverview } from '../alerts/alertsOverview';
import { AlertsPanel } from './AlertsPanel';
import { ClickChart } from './ClickChart';
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
import { SourceTable } from './SourceTable';
import { adminCampaigns, SpendTable } from './SpendTable';
import { ColumnHeads } from './ColumnHeads';

export interface AdminPageProps {
  /** Undefined when click counting is off. */
  report: FunnelReport | undefined;
  /** A range the operator asked for that could not be read; the report then shows the default range. */
  rangeError?: string;
  /** Undefined when the server does not check the link (LINK_CHECK_HOURS=off, or a documentation AFFILIATE_URL). */
  linkHealth: LinkHealthState | undefined;
  /** The open incidents and the last 30 days' alerts (server/alerts/); undefined when click counting is off. */
  alerts?: AlertsOverview;
  affiliateUrl: string;
}

const quickRanges = [7, 30, 90, 365];

function hours(everyMs: number | undefined): string {
  const count = (everyMs ?? defaultLinkCheckHours * 3_600_000) / 3_600_000;
  return count === 1 ? 'hour' : `${count} hours`;
}

function LinkHealthPanel({ linkHealth, affiliateUrl }: Pick<AdminPageProps, 'linkHealth' | 'affiliateUrl'>) {
  if (!linkHealth) {
    return (
      <p className="health">
        The server does not check the affiliate link: <code>LINK_CHECK_HOURS</code> is <code>off</code>, or <code>AFFILIATE_URL</code> is on a
        documentation domain (such as example.com) that no partner answers. Run <code>npm run check-link</code> to check it by hand.
      </p>
    );
  }
  const { last, broken, consecutiveBroken } = linkHealth;
  return (
    <>
      {broken && (
        <div className="banner" role="alert">
          <strong>The affiliate link looks broken.</strong> {consecutiveBroken} checks in a row found the page gone (404 or 410). Visitors who
          click may be landing on an error page: check <code>AFFILIATE_URL</code> ({affiliateUrl}) with your affiliate network.
        </div>
      )}
      <p className="health">
        {last ? (
          <>
            Link check of {last.url} at {formatMoment(last.checkedAt.getTime())}: {describeLinkCheck(last)}.
          </>
        ) : (
          'The first link check has not finished yet.'
        )}{' '}
        Checked at each start (unless checked in the last {startUpSkipMs / 60_000} minutes), every {hours(linkHealth.everyMs)}, and again{' '}
        {recheckAfterBrokenMs / 60_000} minutes after a broken answer (404 or 410): two in a row raise the link alert.
      </p>
    </>
  );
}

function RangeForm({ from, to }: Pick<FunnelReport, 'from' | 'to'>) {
  return (
    <form method="get" action="/admin">
      <label>
        From
        <input type="date" name="from" defaultValue={from} required />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={to} required />
      </label>
      <button type="submit">Show</button>
      <nav aria-label="Quick ranges">
        {quickRanges.map((days) => (
          <a key={days} href={`/admin?days=${days}`}>
            Last {days} days
          </a>
        ))}
      </nav>
    </form>
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

/** The operator's private page: link health, then the funnel (views, clicks, conversions) per placement, source and day. Rendered per request, never cached. */
export function AdminPage({ report, rangeError, linkHealth, affiliateUrl, alerts }: AdminPageProps) {
  return (
    <AdminDocument title="Admin: affiliate funnel">
          <h1>Affiliate funnel</h1>
          <p className="muted">Private to the operator of this site. Days are UTC.</p>
          <LinkHealthPanel linkHealth={linkHealth} affiliateUrl={affiliateUrl} />
          {alerts && <AlertsPanel alerts={alerts} />}
          {!report ? (
            <p>
              Click counting is off (<code>CLICK_STATS=off</code>): nothing is recorded.
            </p>
          ) : (
            <>
              {rangeError && (
                <p className="banner" role="alert">
                  That range could not be shown: {rangeError}. Showing the last 30 days instead.
                </p>
              )}
              <RangeForm from={report.from} to={report.to} />
              <FunnelSummary all={report.all} from={report.from} to={report.to} />
              <p>
                <strong>
                  {counted(report.all.clicks, 'click')} by {counted(report.all.visitors, 'visitor')}
                </strong>{' '}
                from {report.from} to {report.to}. A visitor is counted once a day, so one who returns on another day counts again.
                Conversions count under the day of the click that led to them (the day they arrived when no click matched), so a
                range’s conversions are what its clicks earned; refunds and chargebacks are taken out.
              </p>
              <h2>Spend and profit</h2>
              <SpendTable costs={report.costs} from={report.from} to={report.to} campaignsShown={adminCampaigns} />
              <h2>Not counted, and why</h2>
              <FilteredTable filtered={report.filtered} from={report.from} to={report.to} />
              <h2>By placement</h2>
              <PlacementTable totals={report.totals} all={report.all} from={report.from} to={report.to} seen={{ currency: report.currency }} />
              <h2>By source</h2>
              <SourceTable sources={report.sources} otherSources={report.otherSources} from={report.from} to={report.to} />
              <h2>Experiments</h2>
              <ExperimentTables experiments={report.experiments} currency={report.currency} to={report.to} />
              <h2>Releases</h2>
              <ReleaseTable releases={report.releases} currency={report.currency} from={report.from} to={report.to} />
              <h2>Day by day</h2>
              <div className="charts">
                {report.totals.map(({ placement }) => (
                  <figure key={placement}>
                    <figcaption>{placement}</figcaption>
                    <ClickChart placement={placement} days={report.days} releases={report.releases.compared} />
                  </figure>
                ))}
              </div>
              <DailyTable days={report.days} totals={report.totals} releases={report.releases} />
              <DailySourceTable days={report.days} />
              <h2>By page</h2>
              <PageTable pages={report.pages} from={report.from} to={report.to} />
              <h2>Reach by page</h2>
              <ReachPages pages={report.pages} all={report.all} />
              <h2>Where clicks come from</h2>
              <Breakdown
                caption="Clicks by device class"
                heading="Device"
                rows={report.devices.map((row) => ({ name: row.device, clicks: row.clicks }))}
              />
              <Breakdown
                caption="Clicks by referring site (top 10)"
                heading="Came from"
                rows={report.referrers.map((row) => ({ name: row.host || '(direct, unknown or this site)', clicks: row.clicks }))}
              />
            </>
          )}
    </AdminDocument>
  );
}
