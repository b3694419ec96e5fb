import { randomBytes } from 'node:crypto';
import { affiliatePlacements, newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import type { VolumeDay } from './volumePlan';

/** The shape of a busy site's traffic, as the volume part draws it: sources, pages, devices, placements and payouts. */

/** A visitor makes about this many page views a day. */
export const viewsPerVisitor = 3;
/** Clicks reported by the link's ping (no JavaScript): no click ID, no source. */
const pingShare = 0.08;
/** Conversions later refunded. */
export const refundShare = 0.03;

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
export const viewPageWeights: Record<string, number> = { '/': 0.72, '/about-us': 0.14, '/privacy-policy': 0.08, '/terms-conditions': 0.06 };
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
export const drawPayout = drawer(payouts, payoutWeights);

export interface Visitor {
  n: number;
  visitor: string;
  source: SourceModel;
  device: string;
}

export interface Click {
  at: number;
  day: string;
  placement: AffiliatePlacement;
  page: string;
  visitor: Visitor;
  clickId: string | null;
}

/** A day's visitors: a daily hash each (22 characters of base64url, as server/beacons/visitorSalts.ts makes), a source and a device. */
export function drawVisitors(count: number): Visitor[] {
  const random = randomBytes(17 * count).toString('base64url');
  return Array.from({ length: count }, (_, n) => ({ n, visitor: random.slice(n * 22, n * 22 + 22), source: drawSource(), device: drawDevice() }));
}

export function drawClicks({ day, start, span, clicks }: VolumeDay, visitors: readonly Visitor[]): Click[] {
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
