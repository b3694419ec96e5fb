import express from 'express';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { reportRange, ReportRangeError, type ReportRange } from '../funnelReport/reportRange';
import type { LinkHealthState } from '../linkHealth/linkMonitor';
import type { Logger } from '../logger';
import { requireAdminToken, setPrivateHeaders } from './adminAuth';
import { SlowReportError } from '../funnelReport/reportReader';
import { AdminPage, AdminSlowReportPage, AdminUnavailablePage } from './AdminPage';
import { adminCssHash } from './adminStyles';

export interface AdminRouteOptions {
  token: string;
  affiliateUrl: string;
  /** Reads the statistics of a range; undefined when click counting is off. */
  readStats: ((range: ReportRange) => Promise<FunnelReport>) | undefined;
  /** How the 503 page names the database, e.g. "DATABASE_URL postgres://user:***@db/site". */
  databaseName?: string;
  linkHealth: (() => Promise<LinkHealthState>) | undefined;
  logger: Logger;
}

/** Its own CSP, stricter than the site's: no script at all, and only the admin stylesheet. */
const adminCsp = `default-src 'none'; style-src ${adminCssHash}; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** How long the 503 page asks a client to wait before trying again. */
const retryAfterSeconds = 30;

const single = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The range the query asks for (?days=N or ?from=&to=), or the last 30 days with the reason when it cannot be read. */
function rangeFromQuery(query: Record<string, unknown>): { range: ReportRange; error?: string } {
  const days = single(query.days);
  try {
    if (days !== undefined && !/^\d+$/.test(days)) throw new ReportRangeError(`days must be a whole number, got "${days}"`);
    return { range: reportRange({ days: days === undefined ? undefined : Number(days), from: single(query.from) || undefined, to: single(query.to) || undefined }) };
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
export function adminRoutes({ token, affiliateUrl, readStats, databaseName = 'the database', linkHealth, logger }: AdminRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/admin', requireAdminToken(token), async (req, res) => {
    setPrivateHeaders(res);
    res.set('Content-Security-Policy', adminCsp).type('html');
    const { range, error } = rangeFromQuery(req.query);
    let page;
    try {
      const [report, health] = await Promise.all([readStats?.(range), linkHealth?.()]);
      page = <AdminPage report={report} rangeError={error} linkHealth={health} affiliateUrl={affiliateUrl} />;
    } catch (failure) {
      // With click counting off there is no database to blame: that is a fault of ours, not an outage.
      if (!readStats) throw failure;
      res.status(503).set('Retry-After', String(retryAfterSeconds));
      // A report stopped for taking too long is not the database failing: say which it was.
      if (failure instanceof SlowReportError) {
        logger.info(`/admin: ${failure.message}`);
        page = <AdminSlowReportPage reason={failure.message} />;
      } else {
        page = <AdminUnavailablePage databaseName={databaseName} />;
      }
    }
    res.send(`<!DOCTYPE html>${renderToStaticMarkup(page)}`);
  });
  return router;
}
