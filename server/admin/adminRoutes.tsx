import express from 'express';
import { reportRange, ReportRangeError, type ReportRange } from '../dayCounts/reportRange';
import { SlowReportError } from '../funnelReport/slowReport';
import type { LinkHealthState } from '../linkHealth/linkMonitor';
import type { AlertsOverview } from '../alerts/alertsOverview';
import type { ClaimsOverview } from '../claims/claimsOverview';
import type { Logger } from '../lib/logger';
import { adminHtml, adminReportHtml, type AdminPageContext } from './adminHtml';
import { requireAdminToken, setPrivateHeaders } from './adminAuth';
import { AdminSlowReportPage, AdminUnavailablePage } from './AdminPage';
import { adminCssHash } from './adminStyles';

export interface AdminRouteOptions {
  token: string;
  affiliateUrl: string;
  /**
   * Reads a range's report and renders the page around it, as HTML, where reports are read (off the
   * serving thread, see server/reports/); undefined when click counting is off.
   */
  readReportPage: ((range: ReportRange, context: AdminPageContext) => Promise<string>) | undefined;
  /** How the 503 page names the database, e.g. "DATABASE_URL postgres://user:***@db/site". */
  databaseName?: string;
  linkHealth: (() => Promise<LinkHealthState>) | undefined;
  /** The Alerts section's incidents: a few bounded reads, made here like linkHealth; undefined when click counting is off. */
  readAlerts?: (range: ReportRange) => Promise<AlertsOverview>;
  /** The Claims card: each claim's last verdict, one row per claim; undefined when click counting is off. */
  readClaims?: () => Promise<ClaimsOverview>;
  logger: Logger;
}

/** Its own CSP, stricter than the site's: no script at all, and only the admin stylesheet. */
const adminCsp = `default-src 'none'; style-src ${adminCssHash}; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** How long the 503 page asks a client to wait before trying again. */
const retryAfterSeconds = 30;

const single = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The range the query asks for (?days=N or ?from=&to=), or the last 30 days with the reason when it cannot
 * be read; `query` is the range as asked, for the page's links to keep.
 */
function rangeFromQuery(query: Record<string, unknown>): { range: ReportRange; error?: string; query?: string } {
  const days = single(query.days);
  try {
    if (days !== undefined && !/^\d+$/.test(days)) throw new ReportRangeError(`days must be a whole number, got "${days}"`);
    const [from, to] = [single(query.from) || undefined, single(query.to) || undefined];
    const range = reportRange({ days: days === undefined ? undefined : Number(days), from, to });
    const asked = from || to ? `from=${range.from}&to=${range.to}` : days === undefined ? '' : `days=${Number(days)}`;
    return { range, query: asked };
  } catch (error) {
    if (!(error instanceof ReportRangeError)) throw error;
    return { range: reportRange({}), error: error.message };
  }
}

/**
 * GET /admin: the operator's view of clicks and link health. It exists only when ADMIN_TOKEN is set,
 * is never linked from the public pages, and is neither cached nor indexed. While the database does
 * not answer it is a 503 page saying so.
 */
export function adminRoutes({ token, affiliateUrl, readReportPage, databaseName = 'the database', linkHealth, readAlerts, readClaims, logger }: AdminRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/admin', requireAdminToken(token), async (req, res) => {
    setPrivateHeaders(res);
    res.set('Content-Security-Policy', adminCsp).type('html');
    const { range, error, query: rangeQuery } = rangeFromQuery(req.query);
    // The chart's figure as asked; the page checks it against what it can draw (chartMetrics.ts).
    const metric = req.query.metric === undefined ? undefined : Array.isArray(req.query.metric) ? req.query.metric.join(',') : String(req.query.metric);
    try {
      const [health, alerts, claims] = await Promise.all([linkHealth?.(), readAlerts?.(range), readClaims?.()]);
      const context = { rangeError: error, linkHealth: health, affiliateUrl, metric, rangeQuery, ...(alerts ? { alerts } : {}), ...(claims ? { claims } : {}) };
      res.send(readReportPage ? await readReportPage(range, context) : adminReportHtml({ ...context, report: undefined }));
    } catch (failure) {
      // With click counting off there is no database to blame: that is a fault of ours, not an outage.
      if (!readReportPage) throw failure;
      res.status(503).set('Retry-After', String(retryAfterSeconds));
      // A report stopped for taking too long is not the database failing: say which it was.
      if (failure instanceof SlowReportError) {
        logger.warning(`/admin: ${failure.message}`);
        res.send(adminHtml(<AdminSlowReportPage reason={failure.message} />));
      } else {
        res.send(adminHtml(<AdminUnavailablePage databaseName={databaseName} />));
      }
    }
  });
  return router;
}
