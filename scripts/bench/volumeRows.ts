import { utcDay } from '../../server/lib/utcDay';
import { affiliatePlacements } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import { pageLayouts } from '../../server/leaves/pageLayout';
import { dayLiteral, int, type BulkWriter } from './bulkWriter';
import { apportion, type VolumeCounts, type VolumeDay } from './volumePlan';
import { drawClicks, drawPayout, drawVisitors, paidCampaigns, refundShare, viewPageWeights, viewsPerVisitor, type PaidAd, type Visitor } from './volumeTraffic';

/**
 * The volume part's rows: a year of a busy site's page views, clicks, conversions and ad costs, written
 * into a database already at the current schema. Page views, the bulk, are made by the database itself
 * from a series of numbers joined to the day's visitors and to a table of pages; the day's visitors, its
 * clicks (each needs a click ID), its conversions (each copies its click) and each paid ad's cost of the
 * day are drawn here and inserted in batches. Four views in five have their leave report (issue 29), made the
 * same way from the same numbers: the home page's visitors get down to a depth drawn evenly over its seven
 * sections and see the placements down to it; the text pages' reports reach nothing of theirs. The days are not closed here: the built server closes them
 * at start-up with its own job, so daily_counts is what a real installation's would be.
 */

/** Multipliers for numbering rows in a scrambled order (modulo a prime): which visitor, page, moment and landing a view is. */
const prime = 2_147_483_647;
const scramble = { visitor: 1_597_334_677, page: 805_306_457, moment: 1_220_703_125, landing: 1_664_525_713, depth: 1_103_515_245, engaged: 1_812_433_253 };
/** Row i's share of n, 0..n-1, spread evenly over consecutive i. */
const bucket = (multiplier: number, n: number) => `(i * ${int(multiplier)} % ${prime}) * ${int(n)} / ${prime}`;
/** The page table has this many rows, each page as many as its share. */
const pageBuckets = 1000;

const visitorColumns = [['n', 'bigint'], ['visitor', 'text'], ['source', 'text'], ['referrer_host', 'text'], ['medium', 'text'], ['campaign', 'text'], ['content', 'text'], ['device', 'text']] as const;
const clickColumns = [
  ['at', 'bigint'], ['day', 'text'], ['placement', 'text'], ['page', 'text'], ['referrer_host', 'text'], ['device', 'text'], ['visitor', 'text'], ['via', 'text'], ['click_id', 'text'], ['source', 'text'],
  ['campaign', 'text'], ['content', 'text'],
] as const;
const conversionColumns = [
  ['txid', 'text'], ['subid', 'text'], ['click_id', 'text'], ['placement', 'text'], ['payout_micros', 'bigint'], ['currency', 'text'], ['status', 'text'],
  ['received_at', 'bigint'], ['day', 'text'], ['reversed_at', 'bigint'], ['click_day', 'text'], ['page', 'text'], ['source', 'text'], ['device', 'text'],
  ['campaign', 'text'], ['content', 'text'],
] as const;
const costColumns = [['day', 'text'], ['source', 'text'], ['campaign', 'text'], ['content', 'text'], ['currency', 'text'], ['amount_micros', 'bigint'], ['updated_at', 'bigint']] as const;
const eventColumns = [['txid', 'text'], ['status', 'text'], ['outcome', 'text'], ['subid', 'text'], ['payout_micros', 'bigint'], ['currency', 'text'], ['via', 'text'], ['received_at', 'bigint']] as const;

export interface VolumeWritten extends VolumeCounts {
  visitors: number;
  /** Leave reports: four views in five. */
  leaves: number;
  refunds: number;
  /** Visitor-days brought by the paid campaigns, and the costs rows written for them. */
  paidVisitors: number;
  costs: number;
}

/** The section of the home page each placement stands in, so a visitor who got down to a section saw the placements above. */
const placementSection: Record<(typeof affiliatePlacements)[number], string> = {
  hero: 'hero',
  explainer: 'what-is',
  'start-learning': 'how-it-works',
  'check-auctions-image': 'check-auctions',
  'check-auctions-button': 'check-auctions',
  bonus: 'bonus',
};

/** Per depth (the index of the last home section reached), the sections reached and the placements seen, as the leaves table holds them. */
function depthRows(): unknown[][] {
  const sections = pageLayouts['/'].sections;
  return sections.map((_, depth) => {
    const reached = sections.slice(0, depth + 1);
    return [depth, reached.join(' '), affiliatePlacements.filter((placement) => reached.includes(placementSection[placement])).join(' ')];
  });
}

/** Leave reports are sent for views whose number is not a multiple of this: four in five. */
const viewsPerMissingLeave = 5;

/**
 * A day's costs of the paid campaigns, in USD: one row per ad, or per campaign (content '') when it has one
 * ad, as Google Ads reports a campaign's cost; every campaign every day, whatever it brought. An ad's cost is
 * its visitors that day times its cost per visitor, give or take 10%, plus what its impressions cost
 * without a visit (a twentieth of a visitor's), so a day that brought nobody still costs something.
 */
export function costRows(day: string, visitors: readonly Visitor[], updatedAt: number): unknown[][] {
  const perAd = new Map<PaidAd, number>();
  for (const { ad } of visitors) if (ad) perAd.set(ad, (perAd.get(ad) ?? 0) + 1);
  return paidCampaigns.flatMap(({ source, campaign, ads }) =>
    ads.map((ad) => {
      const amount = ((perAd.get(ad) ?? 0) + 0.05) * ad.costPerVisitorMicros * (0.9 + 0.2 * Math.random());
      return [day, source, campaign, ads.length === 1 ? '' : ad.content, 'USD', Math.round(amount), updatedAt];
    }),
  );
}

/**
 * Writes the plan's rows day by day, each day in one transaction; onDay is told after each. Conversions
 * come from the day's clicks with a click ID, arrive minutes to days later (never after now), and copy
 * their click's day, placement, page, source, device, campaign and ad, as server/conversions does. Each
 * paid ad's cost of the day goes in with the day (costRows).
 */
export async function writeVolume(writer: BulkWriter, plan: readonly VolumeDay[], now: Date, onDay: (done: number) => void = () => {}): Promise<VolumeWritten> {
  await writer.run('create temp table bench_visitors (n bigint primary key, visitor text not null, source text, referrer_host text, medium text, campaign text, content text, device text not null)');
  await writer.run('create temp table bench_pages (bucket bigint primary key, page text not null)');
  const pages = apportion(pageBuckets, pagePaths.map((page) => viewPageWeights[page] ?? 0.02)).flatMap((share, k) => Array<string>(share).fill(pagePaths[k]!));
  await writer.insert('bench_pages', [['bucket', 'bigint'], ['page', 'text']], pages.map((page, k) => [k, page]));
  await writer.run('create temp table bench_depths (depth bigint primary key, sections text not null, seen text not null)');
  const depths = depthRows();
  await writer.insert('bench_depths', [['depth', 'bigint'], ['sections', 'text'], ['seen', 'text']], depths);
  const written: VolumeWritten = { views: 0, clicks: 0, conversions: 0, visitors: 0, leaves: 0, refunds: 0, paidVisitors: 0, costs: 0 };
  let firstView = 1;
  let txid = 0;
  for (const [k, day] of plan.entries()) {
    await writer.run('begin');
    const visitors = drawVisitors(Math.max(1, Math.ceil(day.views / viewsPerVisitor)));
    await writer.run('delete from bench_visitors');
    await writer.insert('bench_visitors', visitorColumns, visitors.map(({ n, visitor, source, campaign, content, device }) => [n, visitor, source.source, source.referrerHost, source.medium, campaign, content, device]));
    if (day.views > 0) {
      const last = firstView + day.views - 1;
      await writer.run(`${writer.series(firstView, last)}
        insert into views (at, day, page, referrer_host, source, medium, campaign, content, device, visitor)
        select ${int(day.start)} + ${bucket(scramble.moment, day.span)}, ${dayLiteral(day.day)}, p.page,
          case when ${bucket(scramble.landing, viewsPerVisitor)} = 0 then v.referrer_host end, v.source, v.medium, v.campaign, v.content, v.device, v.visitor
        from series
        join bench_visitors v on v.n = ${bucket(scramble.visitor, visitors.length)}
        join bench_pages p on p.bucket = ${bucket(scramble.page, pageBuckets)}`);
      // Each view's leave report, from the same numbers: its visitor, page and moment. The ordinal is the
      // view's number, unique as the index asks; nothing reads it but the check on arrival.
      await writer.run(`${writer.series(firstView, last)}
        insert into leaves (at, day, page, device, visitor, variants, sections, seen, clicked, engaged_seconds, ordinal)
        select ${int(day.start)} + ${bucket(scramble.moment, day.span)}, ${dayLiteral(day.day)}, p.page, v.device, v.visitor, '',
          case when p.page = '/' then d.sections else '' end, case when p.page = '/' then d.seen else '' end, '', ${bucket(scramble.engaged, 240)}, i
        from series
        join bench_visitors v on v.n = ${bucket(scramble.visitor, visitors.length)}
        join bench_pages p on p.bucket = ${bucket(scramble.page, pageBuckets)}
        join bench_depths d on d.depth = ${bucket(scramble.depth, depths.length)}
        where i % ${int(viewsPerMissingLeave)} <> 0`);
      written.leaves += day.views - (Math.floor(last / viewsPerMissingLeave) - Math.floor((firstView - 1) / viewsPerMissingLeave));
      firstView = last + 1;
    }
    const clicks = drawClicks(day, visitors);
    await writer.insert(
      'clicks',
      clickColumns,
      clicks.map(({ at, day: clickDay, placement, page, visitor, clickId }) => [
        at, clickDay, placement, page, visitor.source.referrerHost, visitor.device, visitor.visitor, clickId ? 'beacon' : 'ping', clickId, clickId ? visitor.source.source : null,
        // A ping knows no visit: no source, campaign or ad (as server/clicks records it).
        clickId ? visitor.campaign : null, clickId ? visitor.content : null,
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
        click.visitor.campaign, click.visitor.content,
      ]);
      events.push([id, 'sale', 'recorded', click.clickId, payout, 'USD', 'postback', receivedAt]);
      if (refundedAt !== null) events.push([id, 'refund', 'reversed', click.clickId, payout, 'USD', 'postback', refundedAt]);
      written.refunds += refundedAt === null ? 0 : 1;
    }
    await writer.insert('conversions', conversionColumns, conversions);
    await writer.insert('conversion_events', eventColumns, events);
    const costs = costRows(day.day, visitors, now.getTime());
    await writer.insert('costs', costColumns, costs);
    await writer.run('commit');
    written.paidVisitors += visitors.filter((visitor) => visitor.ad !== null).length;
    written.costs += costs.length;
    written.views += day.views;
    written.clicks += clicks.length;
    written.conversions += conversions.length;
    written.visitors += visitors.length;
    onDay(k + 1);
  }
  await writer.run('drop table bench_visitors');
  await writer.run('drop table bench_pages');
  await writer.run('drop table bench_depths');
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
