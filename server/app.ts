import compression from 'compression';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { clickEndpoint } from '../shared/clickBeacon';
import { viewEndpoint } from '../shared/viewBeacon';
import { leaveEndpoint } from '../shared/leaveBeacon';
import { canonicalPagePath } from '../shared/routes';
import { adminRoutes } from './admin/adminRoutes';
import { addressRateLimit, clickRoutes, visitorRateLimit } from './clicks/clickRoute';
import { createRateLimiter, type RateLimiter } from './limits/rateLimiter';
import type { Config } from './config';
import { conversionRoutes } from './conversions/conversionRoute';
import { costRoutes } from './costs/costRoute';
import type { StatsStores } from './statsStores';
import { consoleLogger, type Logger } from './lib/logger';
import { readManifest, type AssetManifest } from './manifest';
import { renderAllPages } from './pages';
import { distAssetsDir, distDir, publicDir } from './lib/paths';
import { loadInlineStyles } from './inlineStyles';
import { securityHeaders } from './security';
import { seoFiles } from './seoFiles';
import { sendStaticEntry } from './staticEntry';
import { loadStaticFiles } from './staticFiles';
import { viewAddressRateLimit, viewRoutes, viewVisitorRateLimit } from './views/viewRoute';
import { leaveRoutes } from './leaves/leaveRoute';
import type { LinkHealthState } from './linkHealth/linkMonitor';
import { experiments as contentExperiments } from '../shared/content/experiments';
import { experimentProblems } from '../shared/experiments/checkExperiments';
import type { Experiment } from '../shared/experiments/experiment';
import { paths } from '../shared/routes';
import { homeVariantKey } from './experiments/variantAssignment';
import { readAlertsOverview } from './alerts/alertsOverview';
import { readClaimsOverview } from './claims/claimsOverview';
import { claimsCheckOff } from './claims/claimsWatch';
import { claimList } from '../shared/content/claims';
import { alertChannels } from './alerts/alertsConfig';

export interface AppOptions {
  /** The client build's manifest; read from dist/ when not given. */
  manifest?: AssetManifest;
  logger?: Logger;
  assetsDir?: string;
  publicDir?: string;
  /** The opened statistics stores (server/main.ts opens them); required when click counting is on. */
  stores?: StatsStores;
  /** Limits click reports per visitor; by default a burst of 10, then one every 6 seconds. */
  clickRateLimiter?: RateLimiter;
  /** Limits click reports per client address; by default a burst of 60, then one every 2 seconds. */
  addressRateLimiter?: RateLimiter;
  /** Limits page-view reports per visitor; by default a burst of 30, then one every 2 seconds. */
  viewRateLimiter?: RateLimiter;
  /** Limits page-view reports per client address; by default a burst of 120, then one every 0.5 seconds. */
  viewAddressRateLimiter?: RateLimiter;
  /** Limit leave reports per visitor and per client address; by default at the views' rates (one leave per view). */
  leaveRateLimiter?: RateLimiter;
  leaveAddressRateLimiter?: RateLimiter;
  /** The affiliate link's health, shown on /admin when the server checks it (LINK_CHECK_HOURS). */
  linkHealth?: () => Promise<LinkHealthState>;
  /** The split tests of the home page's words; shared/content/experiments.ts's unless given (tests give their own). */
  experiments?: readonly Experiment[];
  /**
   * Renders and compresses every page once, at creation: renderAllPages (server/pages.tsx) unless given.
   * Tests give one that keeps what an app of the same settings rendered before (it costs up to a second).
   */
  renderPages?: typeof renderAllPages;
}

/** The methods every resource here answers. */
const allowedMethods = 'GET, HEAD';

/** One line per finished request. No IP, user agent or query string: see the privacy policy. */
function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = JSON.stringify(req.originalUrl.split('?')[0]).slice(1, -1);
      const bytes = res.getHeader('Content-Length') ?? '-';
      const took = ms.toFixed(1);
      logger.info(`${new Date().toISOString()} ${req.method} ${path} ${res.statusCode} ${bytes} ${took}ms`, {
        method: req.method,
        path,
        status: res.statusCode,
        bytes: typeof bytes === 'number' ? bytes : Number(bytes) || null,
        ms: Number(took),
      });
    });
    next();
  };
}

/** The decoded request path, or undefined when it is not valid percent-encoding or holds a NUL. */
function decodePath(rawPath: string): string | undefined {
  try {
    const decoded = decodeURIComponent(rawPath);
    return decoded.includes('\0') ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * Builds the Express app. It never listens: server/main.ts does, and tests drive it through supertest.
 * Pages are rendered and the build's files (manifest, CSS, assets) and public/ read here, once, so a bad
 * build fails at start-up, not per request; no request ever reads a file. It opens no database
 * connection: stores come opened, in options.stores.
 */
export function createApp(config: Config, options: AppOptions = {}): express.Express {
  const logger = options.logger ?? consoleLogger;
  const manifest = options.manifest ?? readManifest(distDir);
  const assetsDir = options.assetsDir ?? distAssetsDir;
  const styles = loadInlineStyles(manifest, assetsDir);
  const stores = config.statistics ? options.stores : undefined;
  if (config.statistics && !stores) throw new Error('createApp: click counting is on, so options.stores must hold the opened stores');
  const experiments = options.experiments ?? contentExperiments;
  // The build refuses these already (build.ts); experiments handed in by a caller are held to the same rules.
  const [problem] = experimentProblems(experiments);
  if (problem) throw new Error(problem);
  const rendered = (options.renderPages ?? renderAllPages)(
    {
      siteUrl: config.siteUrl,
      affiliateUrl: config.affiliateUrl,
      affiliateSubIdParam: config.affiliateSubIdParam,
      clickCounting: config.statistics
        ? { endpoint: clickEndpoint, viewEndpoint, leaveEndpoint, subIdParam: config.affiliateSubIdParam, retentionDays: config.statistics.retentionDays }
        : undefined,
      contactEmail: config.contactEmail,
    },
    { manifest, styles },
    experiments,
  );
  const files = new Map([...loadStaticFiles(assetsDir, options.publicDir ?? publicDir), ...seoFiles(config.siteUrl)]);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  app.use(accessLog(logger));
  app.use(securityHeaders(config, styles.map((style) => style.cspHash), (path) => path.startsWith('/assets/') && files.has(path)));

  if (stores) {
    // Clicks, views and leaves each have limits of their own: one visitor sends many more views than clicks.
    const guards = (rateLimiter: RateLimiter, addressRateLimiter: RateLimiter) => ({ hashVisitor: stores.hashVisitor, rateLimiter, addressRateLimiter, siteUrl: config.siteUrl, filtered: stores.filtered });
    const clickGuards = guards(options.clickRateLimiter ?? createRateLimiter(visitorRateLimit), options.addressRateLimiter ?? createRateLimiter(addressRateLimit));
    const viewGuards = guards(options.viewRateLimiter ?? createRateLimiter(viewVisitorRateLimit), options.viewAddressRateLimiter ?? createRateLimiter(viewAddressRateLimit));
    app.use(clickRoutes({ store: stores.clicks, experiments, ...clickGuards }));
    app.use(viewRoutes({ store: stores.views, experiments, ...viewGuards }));
    // One leave report per view: limits of their own at the views' rates, so leaving never costs a view.
    const leaveGuards = guards(options.leaveRateLimiter ?? createRateLimiter(viewVisitorRateLimit), options.leaveAddressRateLimiter ?? createRateLimiter(viewAddressRateLimit));
    app.use(leaveRoutes({ store: stores.leaves, experiments, ...leaveGuards }));
    // Only with CONVERSIONS_KEY set; without it /api/conversions does not exist: 404 to every method.
    if (config.conversionsKey) app.use(conversionRoutes({ key: config.conversionsKey, store: stores.conversions, experiments }));
    // The same key lets scripts set what ads cost; without it /api/costs does not exist either.
    if (config.conversionsKey) app.use(costRoutes({ key: config.conversionsKey, store: stores.costs }));
  }

  // An API path that is not served (counting off, no CONVERSIONS_KEY) does not exist, whatever the method.
  app.use('/api', (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not Found\n');
  });

  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', allowedMethods).status(405).type('text/plain').send('Method Not Allowed\n');
      return;
    }
    const decoded = decodePath(req.path);
    if (decoded === undefined) {
      sendStaticEntry(req, res, rendered.badRequest, 400);
      return;
    }
    res.locals.decodedPath = decoded;
    next();
  });

  app.use(compression());

  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain').send('ok\n');
  });

  if (config.adminToken) {
    app.use(
      adminRoutes({
        token: config.adminToken,
        affiliateUrl: config.affiliateUrl,
        readReportPage: stores && ((range, context) => stores.reports.readAdminPage(range, context)),
        databaseName: stores?.database.name,
        linkHealth: options.linkHealth,
        readAlerts: stores && ((range) => readAlertsOverview(stores.database.db, alertChannels(config.alerts), Date.now(), range)),
        readClaims: stores && (() => readClaimsOverview(stores.claims, claimList, Date.now(), claimsCheckOff(config.merchantUrl, config.claimsCheckHours, true))),
        logger,
      }),
    );
  }

  // The home page while experiments run: the visitor's own variant of it (server/experiments/).
  if (stores && rendered.homeVariants.size > 0) {
    app.get(paths.home, async (req, res, next) => {
      const key = await homeVariantKey(req, experiments, stores.hashVisitor);
      const page = rendered.homeVariants.get(key);
      if (page) sendStaticEntry(req, res, page);
      else next();
    });
  }

  app.use((req, res, next) => {
    const path = res.locals.decodedPath as string;
    const page = rendered.pages.get(path) ?? files.get(path);
    if (page) {
      sendStaticEntry(req, res, page);
      return;
    }
    const canonical = canonicalPagePath(path);
    if (canonical) {
      const query = req.originalUrl.indexOf('?');
      res.redirect(301, canonical + (query === -1 ? '' : req.originalUrl.slice(query)));
      return;
    }
    next();
  });

  app.use((req, res) => sendStaticEntry(req, res, rendered.notFound, 404));

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    // Errors carrying a 4xx status (a client's fault, such as a body parser's) keep it; all else is ours.
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) logger.error(`${req.method} ${req.originalUrl.split('?')[0]} failed`, error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (status === 500) sendStaticEntry(req, res, rendered.serverError, 500);
    else if (status === 400) sendStaticEntry(req, res, rendered.badRequest, 400);
    else res.status(status).type('text/plain').send(`${status}\n`);
  };
  app.use(onError);

  return app;
}
