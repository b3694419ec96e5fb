import type Database from 'better-sqlite3';
import express from 'express';
import { renderToStaticMarkup } from 'react-dom/server';
import { readClickReport, reportRange, ReportRangeError, type ReportRange } from '../clicks/clickReport';
import type { LinkHealthState } from '../linkHealth';
import { requireAdminToken, setPrivateHeaders } from './adminAuth';
import { AdminPage } from './AdminPage';
import { adminCssHash } from './adminStyles';

export interface AdminRouteOptions {
  token: string;
  affiliateUrl: string;
  /** Undefined when click counting is off. */
  clickDb: Database.Database | undefined;
  linkHealth: (() => LinkHealthState) | undefined;
}

/** Its own CSP, stricter than the site's: no script at all, and only the admin stylesheet. */
const adminCsp = `default-src 'none'; style-src ${adminCssHash}; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

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
 * is never linked from the public pages, and is neither cached nor indexed.
 */
export function adminRoutes({ token, affiliateUrl, clickDb, linkHealth }: AdminRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/admin', requireAdminToken(token), (req, res) => {
    const { range, error } = rangeFromQuery(req.query);
    const report = clickDb ? readClickReport(clickDb, range) : undefined;
    const html = renderToStaticMarkup(<AdminPage report={report} rangeError={error} linkHealth={linkHealth?.()} affiliateUrl={affiliateUrl} />);
    setPrivateHeaders(res);
    res.set('Content-Security-Policy', adminCsp).type('html').send(`<!DOCTYPE html>${html}`);
  });
  return router;
}
