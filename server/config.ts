import { isIP } from 'node:net';
import path from 'node:path';
import { redactUrl, type DatabaseSettings } from './db/databaseSettings';
import { isHostName } from './lib/hostName';
import { isEmailAddress } from './lib/emailAddress';
import { parseHttpsOrLoopbackUrl } from './lib/httpsOrLoopbackUrl';
import { ConfigError } from './configError';
import { given, type Env } from './environment';
import { parseAlertsConfig } from './alerts/alertsConfig';
import type { AlertsConfig } from './alerts/alertTypes';
import { defaultLinkCheckHours } from './linkHealth/linkMonitor';
import { defaultClaimsCheckHours } from './claims/claimsWatch';
import { logFormats, type LogFormat } from './lib/logger';

export { ConfigError };

/** Everything the server reads from its environment, parsed and checked once at start-up. */
export interface Config {
  port: number;
  host: string;
  /** The one outward registration address every affiliate button points at. */
  affiliateUrl: string;
  /**
   * The origin of the merchant's own site, whose pages the claims in shared/content/claims.ts name as
   * their evidence; AFFILIATE_URL's origin unless set. The claims watch fetches them (server/claims/claimsWatch.ts).
   */
  merchantUrl: string;
  /** Query parameter that tells the affiliate network which placement a visitor came through; off when undefined. */
  affiliateSubIdParam: string | undefined;
  /** Public origin (no trailing slash) used for canonical, Open Graph and sitemap URLs. */
  siteUrl: string;
  /** Value for Express's "trust proxy" setting: false, or how many proxies stand in front. */
  trustProxy: boolean | number;
  /** Milliseconds to let in-flight requests finish after SIGTERM/SIGINT before exiting anyway. */
  shutdownTimeoutMs: number;
  /**
   * The statistics of the funnel (page views, clicks, conversions) and where they are kept; undefined
   * when CLICK_STATS=off (no beacon endpoint, no database). The variable keeps its first name.
   */
  statistics: StatisticsConfig | undefined;
  /** The secret that opens /admin; undefined means /admin does not exist. */
  adminToken: string | undefined;
  /** How often the server checks that AFFILIATE_URL still answers, besides at start-up and after a broken answer; 6 unless set; undefined (off) means never. */
  linkCheckHours: number | undefined;
  /** How often the claims watch reads the merchant's pages (server/claims/); 24 unless set; undefined (off) means never. */
  claimsCheckHours: number | undefined;
  /** The address the privacy policy, the terms and the about page give readers; required under an https SITE_URL. */
  contactEmail: string | undefined;
  /** The key the affiliate networks' postbacks carry; undefined means /api/conversions does not exist. */
  conversionsKey: string | undefined;
  /** Where alerts (and the weekly digest) go; undefined when neither a webhook nor e-mail is set (server/alerts/alertsConfig.ts). */
  alerts: AlertsConfig | undefined;
  /** The folder the server keeps its daily copies of the SQLite file in (server/backup/); undefined means no backups by the server. */
  backupDir: string | undefined;
  /** How log lines are written: text for people and journald (which JOURNAL_STREAM marks), json one object per line. */
  logFormat: LogFormat;
}

export interface StatisticsConfig {
  /** PostgreSQL when DATABASE_URL is set; otherwise the SQLite file CLICKS_DB (':memory:' keeps counts only while running, for tests). */
  database: DatabaseSettings;
  /** Raw view and click rows older than this are deleted (their closed days stay in daily_counts); conversions are folded past it (and past 180 days). */
  retentionDays: number;
}

/**
 * A stand-in registration address so a fresh checkout works out of the box. example.com is reserved
 * for documentation (RFC 2606), so the sample site never sends anyone to a real business by accident.
 * Operators set AFFILIATE_URL to their own link; start-up warns while this default is in use.
 */
export const SAMPLE_AFFILIATE_URL = 'https://www.example.com/register?ref=auctions-guide';

export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(env.PORT);
  const host = parseHost(env.HOST);
  const siteUrl = parseSiteUrl(env.SITE_URL, host, port);
  const affiliateUrl = parseAffiliateUrl(env.AFFILIATE_URL);
  const merchantUrl = parseMerchantUrl(env.MERCHANT_URL, affiliateUrl);
  const affiliateSubIdParam = parseSubIdParam(env.AFFILIATE_SUBID_PARAM);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const shutdownTimeoutMs = parseShutdownTimeout(env.SHUTDOWN_TIMEOUT_MS);
  // CLICK_STATS is read here only; what needs the statistics database is told whether there is one.
  const statistics = parseStatistics(env);
  return {
    port,
    host,
    affiliateUrl,
    merchantUrl,
    affiliateSubIdParam,
    siteUrl,
    trustProxy,
    shutdownTimeoutMs,
    statistics,
    adminToken: parseAdminToken(env.ADMIN_TOKEN),
    linkCheckHours: parseLinkCheckHours(env.LINK_CHECK_HOURS),
    claimsCheckHours: parseClaimsCheckHours(env.CLAIMS_CHECK_HOURS),
    contactEmail: parseContactEmail(env.CONTACT_EMAIL, siteUrl),
    conversionsKey: parseConversionsKey(env, statistics !== undefined),
    alerts: parseAlertsConfig(env, siteUrl, statistics !== undefined),
    backupDir: parseBackupDir(env.BACKUP_DIR, statistics),
    logFormat: parseLogFormat(env.LOG_FORMAT),
  };
}

function parsePort(raw: string | undefined): number {
  const value = given(raw);
  if (value === undefined) return 3000;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new ConfigError(`PORT must be a whole number from 1 to 65535, got "${raw}"`);
  }
  return Number(value);
}

function parseHost(raw: string | undefined): string {
  const value = given(raw);
  if (value === undefined) return '0.0.0.0';
  if (isIP(value) === 0 && !isHostName(value)) {
    throw new ConfigError(`HOST must be an IP address or a host name such as 127.0.0.1 or localhost, got "${raw}"`);
  }
  return value;
}

function parseUrl(name: string, value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL such as https://example.com/, got "${value}"`);
  }
}

function parseAffiliateUrl(raw: string | undefined): string {
  const value = given(raw);
  if (value === undefined) return SAMPLE_AFFILIATE_URL;
  const url = parseUrl('AFFILIATE_URL', value);
  if (url.protocol !== 'https:') {
    throw new ConfigError(`AFFILIATE_URL must use https://, got "${raw}"`);
  }
  if (url.username || url.password) {
    throw new ConfigError('AFFILIATE_URL must not contain a user name or password');
  }
  return url.href;
}

/**
 * An origin only: a claim's evidence names its page as a path on it (or as an address of its own), so a
 * path here would leave unclear whether "/terms" means the site's root or below the path. Under the same
 * rule as ALERT_WEBHOOK_URL, since what the merchant's pages say will decide what the operator is told.
 */
function parseMerchantUrl(raw: string | undefined, affiliateUrl: string): string {
  const value = given(raw);
  if (value === undefined) return new URL(affiliateUrl).origin;
  // A login has no place in it, and a message never repeats one.
  const url = parseHttpsOrLoopbackUrl('MERCHANT_URL', value, (shown) => shown.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1…@'));
  if (url.username || url.password) throw new ConfigError('MERCHANT_URL must not contain a user name or password');
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`MERCHANT_URL must be an origin only, such as https://merchant.example.com (no path or query), got "${value}"`);
  }
  return url.origin;
}

function parseSubIdParam(raw: string | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(value)) {
    throw new ConfigError(`AFFILIATE_SUBID_PARAM must be a query parameter name of letters, digits, "_", "." or "-" (at most 40), got "${raw}"`);
  }
  return value;
}

function parseSiteUrl(raw: string | undefined, host: string, port: number): string {
  const value = given(raw);
  if (value === undefined) {
    const wildcard = host === '0.0.0.0' || host === '::';
    const shownHost = wildcard ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
    return `http://${shownHost}:${port}`;
  }
  const url = parseUrl('SITE_URL', value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`SITE_URL must use http:// or https://, got "${raw}"`);
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`SITE_URL must be an origin only, such as https://auctions.example.com (no path or query), got "${value}"`);
  }
  return url.origin;
}

function parseTrustProxy(raw: string | undefined): boolean | number {
  const value = given(raw)?.toLowerCase();
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
  throw new ConfigError(`TRUST_PROXY must be false, true or the number of proxies in front (1-10), got "${raw}"`);
}

function parseShutdownTimeout(raw: string | undefined): number {
  const value = given(raw);
  if (value === undefined) return 10_000;
  if (!/^\d+$/.test(value) || Number(value) < 100 || Number(value) > 600_000) {
    throw new ConfigError(`SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000, got "${raw}"`);
  }
  return Number(value);
}

export const defaultClicksDb = 'data/clicks.sqlite';

function parseStatistics(env: Env): StatisticsConfig | undefined {
  const switchValue = given(env.CLICK_STATS)?.toLowerCase();
  if (switchValue !== undefined && switchValue !== 'on' && switchValue !== 'off') {
    throw new ConfigError(`CLICK_STATS must be on or off, got "${env.CLICK_STATS}"`);
  }
  // Checked even when off, so a typo is found before the operator turns counting back on.
  const retentionDays = parseRetentionDays(env.CLICKS_RETENTION_DAYS);
  if (switchValue === 'off') return undefined;
  const databaseUrl = parseDatabaseUrl(env.DATABASE_URL);
  const database: DatabaseSettings = databaseUrl ? { engine: 'postgres', url: databaseUrl } : { engine: 'sqlite', file: given(env.CLICKS_DB) ?? defaultClicksDb };
  return { database, retentionDays };
}

/** libpq's sslmode values, which node-postgres reads from the URL too. */
const sslModes = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/** Checked here so a typo is one clear line; every message shows the URL with its password replaced by ***. */
function parseDatabaseUrl(raw: string | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  const example = 'postgres://user:password@127.0.0.1:5432/auctions_guide';
  if (!URL.canParse(value)) throw new ConfigError(`DATABASE_URL must be a URL such as ${example}; the value given cannot be read as one`);
  const url = new URL(value);
  const shown = redactUrl(value);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must start with postgres:// (PostgreSQL is the only server engine; unset it to use the SQLite file CLICKS_DB), got "${shown}"`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`DATABASE_URL must name a host, as in ${example}, got "${shown}"`);
  const sslMode = url.searchParams.get('sslmode');
  if (sslMode !== null && !sslModes.includes(sslMode)) {
    throw new ConfigError(`DATABASE_URL's sslmode must be one of ${sslModes.join(', ')}, got "${sslMode}"`);
  }
  return value;
}

export const defaultRetentionDays = 400;

function parseRetentionDays(raw: string | undefined): number {
  const value = given(raw);
  if (value === undefined) return defaultRetentionDays;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 36_500) {
    throw new ConfigError(`CLICKS_RETENTION_DAYS must be a whole number of days from 1 to 36500, got "${raw}"`);
  }
  return Number(value);
}

/** Long enough that guessing it over the network is hopeless; `openssl rand -hex 24` gives 48 characters. */
const minimumAdminTokenLength = 16;

function parseAdminToken(raw: string | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  if (value.length < minimumAdminTokenLength || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `ADMIN_TOKEN must be at least ${minimumAdminTokenLength} printable characters without spaces (try: openssl rand -hex 24)`,
    );
  }
  return value;
}

function parseLinkCheckHours(raw: string | undefined): number | undefined {
  const value = given(raw);
  if (value === undefined) return defaultLinkCheckHours;
  if (value === 'off' || /^0+$/.test(value)) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 720) {
    throw new ConfigError(`LINK_CHECK_HOURS must be a whole number of hours from 1 to 720, or off (or 0) for no checks, got "${raw}"`);
  }
  return Number(value);
}

function parseClaimsCheckHours(raw: string | undefined): number | undefined {
  const value = given(raw);
  if (value === undefined) return defaultClaimsCheckHours;
  if (value === 'off') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 720) {
    throw new ConfigError(`CLAIMS_CHECK_HOURS must be a whole number of hours from 1 to 720, or off for no checks, got "${raw}"`);
  }
  return Number(value);
}

/**
 * The policies promise readers a way to reach the operator, so a public (https) site must have one.
 * Unset is allowed only on a local preview (http SITE_URL), where the pages say plainly that it is missing.
 */
function parseContactEmail(raw: string | undefined, siteUrl: string): string | undefined {
  const value = given(raw);
  if (value === undefined) {
    if (siteUrl.startsWith('https:')) {
      throw new ConfigError(`CONTACT_EMAIL must be set when SITE_URL is https: the privacy policy and the terms give it to readers as the way to reach you`);
    }
    return undefined;
  }
  if (!isEmailAddress(value)) {
    throw new ConfigError(`CONTACT_EMAIL must be one email address such as privacy@auctions.example.com, got "${raw}"`);
  }
  return value;
}

const minimumConversionsKeyLength = 24;

/**
 * The key is written into every network's postback URL as it is, so it may hold only characters that
 * need no escaping there (& would end it, + would arrive as a space); hex from `openssl rand -hex 24`
 * fits. It must differ from ADMIN_TOKEN, since a postback URL is seen by the networks' staff and
 * proxies, and it needs the statistics database that CLICK_STATS=off turns off. Messages never repeat it.
 */
function parseConversionsKey(env: Env, statisticsOn: boolean): string | undefined {
  const value = given(env.CONVERSIONS_KEY);
  if (value === undefined) return undefined;
  if (value.length < minimumConversionsKeyLength || !/^[A-Za-z0-9._~-]+$/.test(value)) {
    throw new ConfigError(
      `CONVERSIONS_KEY must be at least ${minimumConversionsKeyLength} characters of letters, digits, "-", ".", "_" or "~", as it goes into postback URLs unescaped (try: openssl rand -hex 24)`,
    );
  }
  if (value === given(env.ADMIN_TOKEN)) {
    throw new ConfigError('CONVERSIONS_KEY must differ from ADMIN_TOKEN: the networks see the postback URL, and it must not open /admin');
  }
  if (!statisticsOn) {
    throw new ConfigError('CONVERSIONS_KEY needs the statistics database, which CLICK_STATS=off turns off: unset one of the two');
  }
  return value;
}

/**
 * The server backs up the SQLite file only: PostgreSQL has pg_dump (docs/backups.md), and an in-memory
 * database has no file. Its own folder, never CLICKS_DB's, since the retention deletes old copies in it by name.
 */
export function parseLogFormat(raw: string | undefined): LogFormat {
  const value = given(raw)?.toLowerCase() ?? 'text';
  const format = logFormats.find((name) => name === value);
  if (!format) throw new ConfigError(`LOG_FORMAT must be text or json, got "${raw}"`);
  return format;
}

function parseBackupDir(raw: string | undefined, statistics: StatisticsConfig | undefined): string | undefined {
  const value = given(raw);
  if (value === undefined) return undefined;
  if (!statistics) throw new ConfigError('BACKUP_DIR backs up the statistics database, which CLICK_STATS=off turns off: unset one of the two');
  const { database } = statistics;
  if (database.engine === 'postgres') throw new ConfigError('BACKUP_DIR backs up the SQLite file CLICKS_DB; with DATABASE_URL set, back PostgreSQL up with pg_dump (see docs/backups.md) and unset BACKUP_DIR');
  if (database.file === ':memory:') throw new ConfigError('BACKUP_DIR has nothing to back up while CLICKS_DB is :memory:');
  if (path.resolve(value) === path.dirname(path.resolve(database.file))) {
    throw new ConfigError(`BACKUP_DIR must be a folder of its own, not the one holding CLICKS_DB (old copies in it are deleted by name), got "${raw}"`);
  }
  return value;
}
