import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createClickStore } from '../../server/clicks/clickStore';
import { loadConfig, type Config } from '../../server/config';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { weekEnding } from '../../server/digest/digestWeek';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { loadInlineStyles } from '../../server/inlineStyles';
import { silentLogger } from '../../server/lib/logger';
import { distAssetsDir, distDir } from '../../server/lib/paths';
import { memoryLinkCheckLog } from '../../server/linkHealth/linkCheckLog';
import { LinkMonitor } from '../../server/linkHealth/linkMonitor';
import { readManifest } from '../../server/manifest';
import { renderAllPages } from '../../server/pages';
import { createViewStore } from '../../server/views/viewStore';
import { clickEndpoint } from '../../shared/clickBeacon';
import { experiments as contentExperiments } from '../../shared/content/experiments';
import { isRunning, type Experiment } from '../../shared/experiments/experiment';
import { viewEndpoint } from '../../shared/viewBeacon';
import { leaveEndpoint } from '../../shared/leaveBeacon';
import { newClickId } from '../../shared/affiliate';
import { adminToken, basicAuth, openAdminApp } from '../support/adminApp';
import { createCostStore } from '../../server/costs/costStore';
import { openTestDatabase } from '../support/engines';
import { nuHtmlErrors } from '../support/nuHtmlChecker';
import { writeClaimRows } from '../support/claimRows';
import { click, conversion, view } from '../support/storeRows';
import { useTempDir } from '../support/tempDir';
import { testAffiliateUrl, testConfig } from '../support/testApp';

/**
 * Every HTML document the site produces passes the W3C Nu HTML Checker with no error: the four pages and
 * the 404, 400 and 500 pages with statistics on and off, every variant the home page has while an
 * experiment runs, /admin with figures in it, and the weekly digest e-mail. The checker runs once over a
 * folder of them all (its JVM takes seconds to start).
 */

/** The shipped experiments while one runs; a stand-in of the same shape once all have ended, so variant pages are still checked. */
const experiments: readonly Experiment[] = contentExperiments.some(isRunning)
  ? contentExperiments
  : [{ id: 'html-check', variants: [{ id: 'a' }, { id: 'b', words: { 'home.hero.primaryCtaLabel': 'Join on the Official Site' } }] }];

/** Every page renderAllPages makes for a configuration, as server/app.ts hands it the configuration. */
function renderedPages(config: Config): Map<string, string> {
  const manifest = readManifest(distDir);
  const rendered = renderAllPages(
    {
      siteUrl: config.siteUrl,
      affiliateUrl: config.affiliateUrl,
      affiliateSubIdParam: config.affiliateSubIdParam,
      clickCounting: config.statistics
        ? { endpoint: clickEndpoint, viewEndpoint, leaveEndpoint, subIdParam: config.affiliateSubIdParam, retentionDays: config.statistics.retentionDays }
        : undefined,
      contactEmail: config.contactEmail,
    },
    { manifest, styles: loadInlineStyles(manifest, distAssetsDir) },
    experiments,
  );
  const pages = new Map<string, string>();
  for (const [pagePath, entry] of rendered.pages) pages.set(pagePath === '/' ? 'home' : pagePath.slice(1), entry.identity.body.toString('utf8'));
  for (const [key, entry] of rendered.homeVariants) pages.set(`home-${key.replace(/[^a-z0-9-]+/gi, '_')}`, entry.identity.body.toString('utf8'));
  pages.set('404', rendered.notFound.identity.body.toString('utf8'));
  pages.set('400', rendered.badRequest.identity.body.toString('utf8'));
  pages.set('500', rendered.serverError.identity.body.toString('utf8'));
  return pages;
}

/** /admin over a week of views, clicks (one in an experiment's variant) and conversions, with the affiliate link's banner up. */
async function adminPage(): Promise<string> {
  const linkHealth = new LinkMonitor({
    url: testAffiliateUrl,
    intervalMs: 3_600_000,
    logger: silentLogger,
    log: memoryLinkCheckLog(),
    check: async (url) => ({ checkedAt: new Date(), url, finalUrl: url, status: 404, redirects: 0, ms: 120, verdict: 'broken' }),
  });
  await linkHealth.runCheck();
  await linkHealth.runCheck();
  const { store, app } = await openAdminApp({ linkHealth });
  try {
    const db = store.database.db;
    const views = createViewStore(db);
    const clicks = createClickStore(db);
    const conversions = createConversionStore(db);
    for (const [visitor, source] of [['a', 'newsletter'], ['b', 'www.google.com'], ['c', 'direct']] as const) {
      await views.record(view({ visitor, source, at: new Date('2026-11-19T10:00:00Z') }));
    }
    const heroClick = newClickId('hero');
    await clicks.record(click({ visitor: 'a', clickId: heroClick, source: 'newsletter', at: new Date('2026-11-19T10:01:00Z') }));
    await clicks.record(click({ visitor: 'b', placement: 'bonus', clickId: newClickId('bonus'), source: 'www.google.com', at: new Date('2026-11-20T10:01:00Z') }));
    await conversions.record(conversion({ txid: 'T1', subid: heroClick, payout: '40' }), 'postback', new Date('2026-11-20T09:00:00Z'));
    await conversions.record(conversion({ txid: 'T2', payout: '12.50', currency: 'EUR' }), 'postback', new Date('2026-11-20T09:00:00Z'));
    await createCostStore(db).replaceCosts([
      { day: '2026-11-19', source: 'newsletter', campaign: '', content: '', amountMicros: 55_000_000, currency: 'USD' },
      { day: '2026-11-19', source: 'www.google.com', campaign: 'spring', content: 'ad-1', amountMicros: 3_000_000, currency: 'EUR' },
      { day: '2026-11-19', source: 'newsletter', campaign: 'november', content: 'banner', amountMicros: 5_000_000, currency: 'USD' },
    ]);
    await writeClaimRows(db, Date.now());
    const { text } = await request(app).get('/admin?from=2026-11-18&to=2026-11-21').set('Authorization', basicAuth(adminToken)).expect(200);
    return text;
  } finally {
    await store.close();
  }
}

/** The digest e-mail's HTML part for a week with visits, a click and a sale. */
async function digestEmail(): Promise<string> {
  const store = await openTestDatabase('sqlite');
  try {
    const db = store.database.db;
    const views = createViewStore(db);
    for (const [at, visitor] of [['2026-01-13T08:00:00Z', 'a'], ['2026-01-14T08:00:00Z', 'b'], ['2026-01-07T08:00:00Z', 'c']] as const) {
      await views.record(view({ at: new Date(at), visitor }));
    }
    const clickId = newClickId('hero');
    await createClickStore(db).record(click({ at: new Date('2026-01-13T08:01:00Z'), visitor: 'a', clickId }));
    await createConversionStore(db).record(conversion({ txid: 'T1', subid: clickId, payout: '40' }), 'postback', new Date('2026-01-14T09:00:00Z'));
    await createCostStore(db).replaceCosts([
      { day: '2026-01-13', source: 'newsletter', campaign: '', content: '', amountMicros: 9_000_000, currency: 'USD' },
      { day: '2026-01-13', source: 'newsletter', campaign: 'january', content: 'banner', amountMicros: 4_000_000, currency: 'USD' },
    ]);
    await writeClaimRows(db, Date.parse('2026-01-18T12:00:00Z'));
    const message = await inProcessReportReader(db).readDigest(weekEnding('2026-01-18', '2026-W04'), { siteUrl: 'https://auctions.example.com' });
    if (!message.html) throw new Error('the digest has no HTML part');
    return message.html;
  } finally {
    await store.close();
  }
}

describe('the HTML the site produces', () => {
  const temp = useTempDir();

  it('passes the Nu HTML Checker with no errors: pages, error pages, home variants, /admin and the digest', async () => {
    const documents = new Map<string, string>();
    for (const [name, html] of renderedPages(testConfig({ AFFILIATE_SUBID_PARAM: 'subid' }))) documents.set(`statistics-on-${name}`, html);
    // Statistics off and a local preview without CONTACT_EMAIL: no pings or view reports, and the policies say no address is set.
    const off = loadConfig({ AFFILIATE_URL: testAffiliateUrl, SITE_URL: 'http://localhost:3000', CLICK_STATS: 'off' });
    for (const [name, html] of renderedPages(off)) documents.set(`statistics-off-${name}`, html);
    documents.set('admin', await adminPage());
    documents.set('digest', await digestEmail());

    expect([...documents.keys()].filter((name) => name.startsWith('statistics-on-home-')).length).toBeGreaterThanOrEqual(2);
    for (const [name, html] of documents) writeFileSync(path.join(temp.dir(), `${name}.html`), html);
    expect(await nuHtmlErrors(temp.dir())).toEqual([]);
  }, 120_000);
});
