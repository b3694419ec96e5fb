import { randomBytes } from 'node:crypto';
import BetterSqlite from 'better-sqlite3';
import pg from 'pg';
import { addDays, utcDay } from '../../server/lib/utcDay';
import { affiliatePlacements, newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';

/**
 * The volume part's rows: a year of a busy site's page views, clicks and conversions, written into a
 * database already at the current schema. Page views, the bulk, are made by the database itself from a
 * series of numbers joined to the day's visitors and to a table of pages; the day's visitors, its clicks
 * (each needs a click ID) and its conversions (each copies its click) are drawn here and inserted in batches.
 */

export interface VolumeCounts {
  views: number;
  clicks: number;
  conversions: number;
}

/** Clicks a tenth and conversions a two-hundredth of the views, as the issue's busy site. */
export const volumeCounts = (views: number): VolumeCounts => ({ views, clicks: Math.round(views / 10), conversions: Math.round(views / 200) });

/** The rows cover this many UTC days, today included. */
export const volumeDays = 365;

/** A visitor makes about this many page views a day. */
const viewsPerVisitor = 3;
/** Clicks reported by the link's ping (no JavaScript): no click ID, no source. */
const pingShare = 0.08;
/** Conversions later refunded. */
const refundShare = 0.03;

interface SourceModel {
  source: string;
  referrerHost: string | null;
  medium: string | null;
  campaign: string | null;
}

const host = (name: string): SourceModel => ({ source: name, referrerHost: name, medium: null, campaign: null });
const tagged = (source: string, referrerHost: string | null, medium: string, campaign: string | null = null): SourceModel => ({ source, referrerHost, medium, campaign });

/** Thirty sources, most visitors first: a search engine, direct visits, a newsletter, then a long tail. */
const sources: readonly SourceModel[] = [
  host('www.google.com'),
  { source: 'direct', referrerHost: null, medium: null, campaign: null },
  tagged('newsletter', null, 'email', 'weekly-auctions'),
  tagged('facebook', 'm.facebook.com', 'social', 'spring-deals'),
  host('www.bing.com'),
  host('duckduckgo.com'),
  host('www.reddit.com'),
  tagged('youtube', 'www.youtube.com', 'video', 'how-to-bid'),
  host('t.co'),
  host('search.yahoo.com'),
  tagged('pinterest', 'www.pinterest.com', 'social'),
  host('www.ecosia.org'),
  host('search.brave.com'),
  tagged('instagram', 'l.instagram.com', 'social'),
  host('forum.carauctions.example'),
  host('chatgpt.com'),
  host('www.quora.com'),
  tagged('tiktok', null, 'social', 'repo-cars'),
  host('medium.com'),
  tagged('partner-blog', 'blog.partner.example', 'referral'),
  host('www.msn.com'),
  tagged('podcast', null, 'audio', 'episode-42'),
  host('flipboard.com'),
  tagged('linkedin', 'www.linkedin.com', 'social'),
  host('news.ycombinator.com'),
  tagged('sms', null, 'sms', 'winter'),
  host('auctionwatch.example.net'),
  host('www.startpage.com'),
  tagged('coupon-site', 'deals.example.org', 'referral'),
  host('search.aol.com'),
];

/** Zipf-like: the k-th source weighs 1/k^1.1. */
const sourceWeights = sources.map((_, k) => 1 / (k + 1) ** 1.1);
const viewPageWeights: Record<string, number> = { '/': 0.72, '/about-us': 0.14, '/privacy-policy': 0.08, '/terms-conditions': 0.06 };
const clickPageWeights: Record<string, number> = { '/': 0.9, '/about-us': 0.07 };
const placementWeights = [0.3, 0.14, 0.16, 0.1, 0.18, 0.12];
const devices = ['mobile', 'desktop', 'tablet'] as const;
const deviceWeights = [0.58, 0.36, 0.06];
/** Payouts in USD millionths, and how often each is paid. */
const payouts = [47_000_000, 29_950_000, 97_000_000];
const payoutWeights = [0.6, 0.3, 0.1];

/** Draws from items in proportion to weights (Math.random: the rows need no reproducibility, only their shape). */
function drawer<T>(items: readonly T[], weights: readonly number[]): () => T {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  const cumulative = weights.map((weight) => (running += weight / total));
  return () => {
    const u = Math.random();
    const index = cumulative.findIndex((edge) => u < edge);
    return items[index === -1 ? items.length - 1 : index]!;
  };
}

const drawSource = drawer(sources, sourceWeights);
const drawDevice = drawer(devices, deviceWeights);
const drawPlacement = drawer(affiliatePlacements, affiliatePlacements.map((_, k) => placementWeights[k] ?? 0.1));
const drawClickPage = drawer(pagePaths, pagePaths.map((page) => clickPageWeights[page] ?? 0.015));
const drawPayout = drawer(payouts, payoutWeights);

/** Whole numbers split in proportion to weights, adding up to total exactly (cumulative rounding). */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  let given = 0;
  return weights.map((weight) => {
    running += weight;
    const upTo = Math.round((total * running) / sum);
    const share = upTo - given;
    given = upTo;
    return share;
  });
}

export interface VolumeDay {
  day: string;
  /** The day's first millisecond, and how many of its milliseconds the rows spread over (today: up to now). */
  start: number;
  span: number;
  views: number;
  clicks: number;
  conversions: number;
}

/**
 * volumeDays days ending today, each with its share of the rows: a year of growth (the last day weighs
 * about twice the first), a quieter weekend, and today only as much as has passed of it.
 */
export function planDays(counts: VolumeCounts, now: Date): VolumeDay[] {
  const today = utcDay(now);
  const days = Array.from({ length: volumeDays }, (_, k) => addDays(today, k - (volumeDays - 1)));
  const todayStart = Date.parse(`${today}T00:00:00Z`);
  const todaySpan = Math.max(1_000, now.getTime() - todayStart - 1_000);
  const weights = days.map((day, k) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 0.8 : 1;
    const partial = day === today ? todaySpan / 86_400_000 : 1;
    return (0.65 + (0.65 * k) / (volumeDays - 1)) * weekend * partial;
  });
  const [views, clicks, conversions] = [counts.views, counts.clicks, counts.conversions].map((total) => apportion(total, weights));
  return days.map((day, k) => ({
    day,
    start: Date.parse(`${day}T00:00:00Z`),
    span: day === today ? todaySpan : 86_400_000,
    views: views![k]!,
    clicks: clicks![k]!,
    conversions: conversions![k]!,
  }));
}

export type ColumnType = 'text' | 'bigint';

/** Where the rows go: one connection to either engine, used by one caller at a time. */
export interface BulkWriter {
  readonly engine: 'sqlite' | 'postgres';
  /** Runs a statement without parameters: every value written into one here is a checked whole number or a day. */
  run(statement: string): Promise<void>;
  /** Inserts rows (each in the order of columns) in batches. */
  insert(table: string, columns: readonly (readonly [name: string, type: ColumnType])[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /** A WITH clause that defines series(i) for from..to, both included. */
  series(from: number, to: number): string;
  close(): Promise<void>;
}

/** A whole number written into SQL: checked, so nothing but digits ever reaches a statement. */
export function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: ${value}`);
  return String(value);
}

function dayLiteral(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `'${day}'`;
}

/**
 * SQLite through better-sqlite3 directly. For the bulk load (nothing else has the file open) the journal
 * is off and nothing is synced, then WAL is turned back on; otherwise it writes as any second connection would.
 */
export function sqliteWriter(file: string, { bulk }: { bulk: boolean }): BulkWriter {
  const database = new BetterSqlite(file);
  database.pragma('busy_timeout = 10000');
  if (bulk) {
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    database.pragma('cache_size = -524288');
  }
  const statements = new Map<string, BetterSqlite.Statement>();
  return {
    engine: 'sqlite',
    run: async (statement) => void database.exec(statement),
    insert: async (table, columns, rows) => {
      const text = `insert into ${table} (${columns.map(([name]) => name).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = database.prepare(text)));
      const insertAll = database.transaction((all: readonly (readonly unknown[])[]) => {
        for (const row of all) statement.run(...row);
      });
      insertAll(rows);
    },
    series: (from, to) => `with recursive series(i) as (select ${int(from)} union all select i + 1 from series where i < ${int(to)})`,
    close: async () => {
      if (bulk) database.pragma('journal_mode = WAL');
      database.close();
    },
  };
}

/** PostgreSQL on one connection of its own; batches go in as arrays (insert ... select from unnest). */
export async function postgresWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  // The load's own commits need not wait for the disk; the server's writes keep the cluster's durable defaults.
  await client.query('set synchronous_commit = off');
  const batch = 10_000;
  return {
    engine: 'postgres',
    run: async (statement) => void (await client.query(statement)),
    insert: async (table, columns, rows) => {
      const text = `insert into ${table} (${columns.map(([name]) => name).join(', ')}) select * from unnest(${columns.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')})`;
      for (let start = 0; start < rows.length; start += batch) {
        const part = rows.slice(start, start + batch);
        await client.query(text, columns.map((_, k) => part.map((row) => row[k] ?? null)));
      }
    },
    series: (from, to) => `with series(i) as (select generate_series(${int(from)}::bigint, ${int(to)}::bigint))`,
    close: () => client.end(),
  };
}

/** Multipliers for numbering rows in a scrambled order (modulo a prime): which visitor, page, moment and landing a view is. */
const prime = 2_147_483_647;
const scramble = { visitor: 1_597_334_677, page: 805_306_457, moment: 1_220_703_125, landing: 1_664_525_713 };
/** Row i's share of n, 0..n-1, spread evenly over consecutive i. */
const bucket = (multiplier: number, n: number) => `(i * ${int(multiplier)} % ${prime}) * ${int(n)} / ${prime}`;
/** The page table has this many rows, each page as many as its share. */
const pageBuckets = 1000;

const visitorColumns = [['n', 'bigint'], ['visitor', 'text'], ['source', 'text'], ['referrer_host', 'text'], ['medium', 'text'], ['campaign', 'text'], ['device', 'text']] as const;
const clickColumns = [['at', 'bigint'], ['day', 'text'], ['placement', 'text'], ['page', 'text'], ['referrer_host', 'text'], ['device', 'text'], ['visitor', 'text'], ['via', 'text'], ['click_id', 'text'], ['source', 'text']] as const;
const conversionColumns = [
  ['txid', 'text'], ['subid', 'text'], ['click_id', 'text'], ['placement', 'text'], ['payout_micros', 'bigint'], ['currency', 'text'], ['status', 'text'],
  ['received_at', 'bigint'], ['day', 'text'], ['reversed_at', 'bigint'], ['click_day', 'text'], ['page', 'text'], ['source', 'text'], ['device', 'text'],
] as const;
const eventColumns = [['txid', 'text'], ['status', 'text'], ['outcome', 'text'], ['subid', 'text'], ['payout_micros', 'bigint'], ['currency', 'text'], ['via', 'text'], ['received_at', 'bigint']] as const;

interface Visitor {
  n: number;
  visitor: string;
  source: SourceModel;
  device: string;
}

interface Click {
  at: number;
  day: string;
  placement: AffiliatePlacement;
  page: string;
  visitor: Visitor;
  clickId: string | null;
}

/** A day's visitors: a daily hash each (22 characters of base64url, as server/beacons/visitorSalts.ts makes), a source and a device. */
function drawVisitors(count: number): Visitor[] {
  const random = randomBytes(17 * count).toString('base64url');
  return Array.from({ length: count }, (_, n) => ({ n, visitor: random.slice(n * 22, n * 22 + 22), source: drawSource(), device: drawDevice() }));
}

function drawClicks({ day, start, span, clicks }: VolumeDay, visitors: readonly Visitor[]): Click[] {
  return Array.from({ length: clicks }, () => {
    const placement = drawPlacement();
    return {
      at: start + Math.floor(Math.random() * span),
      day,
      placement,
      page: drawClickPage(),
      visitor: visitors[Math.floor(Math.random() * visitors.length)]!,
      clickId: Math.random() < pingShare ? null : newClickId(placement),
    };
  });
}

export interface VolumeWritten extends VolumeCounts {
  visitors: number;
  refunds: number;
}

/**
 * Writes the plan's rows day by day, each day in one transaction; onDay is told after each. Conversions
 * come from the day's clicks with a click ID, arrive minutes to days later (never after now), and copy
 * their click's day, placement, page, source and device, as server/conversions does.
 */
export async function writeVolume(writer: BulkWriter, plan: readonly VolumeDay[], now: Date, onDay: (done: number) => void = () => {}): Promise<VolumeWritten> {
  await writer.run('create temp table bench_visitors (n bigint primary key, visitor text not null, source text, referrer_host text, medium text, campaign text, device text not null)');
  await writer.run('create temp table bench_pages (bucket bigint primary key, page text not null)');
  const pages = apportion(pageBuckets, pagePaths.map((page) => viewPageWeights[page] ?? 0.02)).flatMap((share, k) => Array<string>(share).fill(pagePaths[k]!));
  await writer.insert('bench_pages', [['bucket', 'bigint'], ['page', 'text']], pages.map((page, k) => [k, page]));
  const written: VolumeWritten = { views: 0, clicks: 0, conversions: 0, visitors: 0, refunds: 0 };
  let firstView = 1;
  let txid = 0;
  for (const [k, day] of plan.entries()) {
    await writer.run('begin');
    const visitors = drawVisitors(Math.max(1, Math.ceil(day.views / viewsPerVisitor)));
    await writer.run('delete from bench_visitors');
    await writer.insert('bench_visitors', visitorColumns, visitors.map(({ n, visitor, source, device }) => [n, visitor, source.source, source.referrerHost, source.medium, source.campaign, device]));
    if (day.views > 0) {
      const last = firstView + day.views - 1;
      await writer.run(`${writer.series(firstView, last)}
        insert into views (at, day, page, referrer_host, source, medium, campaign, device, visitor)
        select ${int(day.start)} + ${bucket(scramble.moment, day.span)}, ${dayLiteral(day.day)}, p.page,
          case when ${bucket(scramble.landing, viewsPerVisitor)} = 0 then v.referrer_host end, v.source, v.medium, v.campaign, v.device, v.visitor
        from series
        join bench_visitors v on v.n = ${bucket(scramble.visitor, visitors.length)}
        join bench_pages p on p.bucket = ${bucket(scramble.page, pageBuckets)}`);
      firstView = last + 1;
    }
    const clicks = drawClicks(day, visitors);
    await writer.insert(
      'clicks',
      clickColumns,
      clicks.map(({ at, day: clickDay, placement, page, visitor, clickId }) => [
        at, clickDay, placement, page, visitor.source.referrerHost, visitor.device, visitor.visitor, clickId ? 'beacon' : 'ping', clickId, clickId ? visitor.source.source : null,
      ]),
    );
    const withId = clicks.filter((click) => click.clickId !== null);
    const conversions: unknown[][] = [];
    const events: unknown[][] = [];
    for (let c = 0; c < Math.min(day.conversions, withId.length); c++) {
      // A partial shuffle: each conversion names a different click.
      const pick = c + Math.floor(Math.random() * (withId.length - c));
      [withId[c], withId[pick]] = [withId[pick]!, withId[c]!];
      const click = withId[c]!;
      const receivedAt = Math.min(now.getTime() - 1_000, click.at + 300_000 + Math.floor(-Math.log(1 - Math.random()) * 86_400_000));
      const refundedAt = Math.random() < refundShare ? Math.min(now.getTime() - 1_000, receivedAt + Math.floor(Math.random() * 30 * 86_400_000)) : null;
      const payout = drawPayout();
      const id = `bench-${++txid}`;
      conversions.push([
        id, click.clickId, click.clickId, click.placement, payout, 'USD', refundedAt === null ? 'sale' : 'refund',
        receivedAt, utcDay(new Date(receivedAt)), refundedAt, click.day, click.page, click.visitor.source.source, click.visitor.device,
      ]);
      events.push([id, 'sale', 'recorded', click.clickId, payout, 'USD', 'postback', receivedAt]);
      if (refundedAt !== null) events.push([id, 'refund', 'reversed', click.clickId, payout, 'USD', 'postback', refundedAt]);
      written.refunds += refundedAt === null ? 0 : 1;
    }
    await writer.insert('conversions', conversionColumns, conversions);
    await writer.insert('conversion_events', eventColumns, events);
    await writer.run('commit');
    written.views += day.views;
    written.clicks += clicks.length;
    written.conversions += conversions.length;
    written.visitors += visitors.length;
    onDay(k + 1);
  }
  await writer.run('drop table bench_visitors');
  await writer.run('drop table bench_pages');
  return written;
}

/** One view each of `values` distinct utm_source values (prefix-1, prefix-2, …) on `day`, each from a visitor of its own, within its first `span` ms. */
export async function writeSourceFlood(writer: BulkWriter, day: string, span: number, values: number, prefix: string): Promise<void> {
  if (!/^[a-z-]+$/.test(prefix)) throw new Error(`not a plain prefix: ${prefix}`);
  const start = Date.parse(`${day}T00:00:00Z`);
  await writer.run(`${writer.series(1, values)}
    insert into views (at, day, page, referrer_host, source, medium, campaign, device, visitor)
    select ${int(start)} + i % ${int(Math.max(1, span))}, ${dayLiteral(day)}, '/', null, '${prefix}-' || i, 'cpc', null, 'mobile', '${prefix}-visitor-' || i from series`);
}
