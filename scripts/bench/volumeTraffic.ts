import { randomBytes } from 'node:crypto';
import { affiliatePlacements, newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { pagePaths } from '../../shared/routes';
import type { VolumeDay } from './volumePlan';

/** The shape of a busy site's traffic, as the volume part draws it: sources, paid campaigns and their ads, pages, devices, placements and payouts. */

/** A visitor makes about this many page views a day. */
export const viewsPerVisitor = 3;
/** Clicks reported by the link's ping (no JavaScript): no click ID, no source. */
const pingShare = 0.08;
/** Conversions later refunded. */
export const refundShare = 0.03;

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

interface SourceModel {
  source: string;
  referrerHost: string | null;
  medium: string | null;
  campaign: string | null;
  /** A paid source's campaigns (utm_campaign), each with its ads (utm_content), drawn per visitor; undefined for the others. */
  campaigns?: readonly PaidCampaign[];
  drawCampaign?: () => PaidCampaign;
}

/** One ad (utm_content) of a paid campaign and what a visitor it brings costs, in USD millionths. */
export interface PaidAd {
  content: string;
  costPerVisitorMicros: number;
}

/** One paid campaign (utm_campaign) of a source: an ad or two, and how its visitors split between them. */
export interface PaidCampaign {
  source: string;
  campaign: string;
  ads: readonly PaidAd[];
  drawAd: () => PaidAd;
}

const host = (name: string): SourceModel => ({ source: name, referrerHost: name, medium: null, campaign: null });
const tagged = (source: string, referrerHost: string | null, medium: string, campaign: string | null = null): SourceModel => ({ source, referrerHost, medium, campaign });

/** What a paid campaign is about, and where it is shown: a campaign is a theme in a state (`search-repo-cars-tx`). */
const themes = ['repo-cars', 'seized-trucks', 'gov-auctions', 'police-auctions', 'bank-repos', 'gsa-fleet', 'salvage-suvs', 'beginners-guide'];
const states = ['tx', 'ca', 'fl', 'ny', 'pa', 'oh', 'ga', 'nc', 'mi', 'az', 'wa', 'tn', 'in', 'mo', 'co'];

/**
 * The paid sources and how many campaigns each runs: 200 in all, half of them with two ads, the other half
 * with one. Their creatives as each platform names them; a visitor's cost lies in [low, high] USD by campaign
 * (the second ad of a campaign costs 15% more), so beside the site's earnings of about 0.68 USD per visitor
 * some campaigns pay and some lose.
 */
const paidPlatforms = [
  { source: 'google', referrerHost: 'www.google.com', medium: 'cpc', prefix: 'search', campaigns: 80, ads: ['rsa-a', 'rsa-b'], low: 0.35, high: 1.1 },
  { source: 'facebook', referrerHost: 'm.facebook.com', medium: 'paid_social', prefix: 'fb', campaigns: 60, ads: ['video-15s', 'carousel'], low: 0.25, high: 0.95 },
  { source: 'tiktok', referrerHost: null, medium: 'paid_social', prefix: 'tt', campaigns: 35, ads: ['spark-ugc', 'video-9x16'], low: 0.2, high: 0.9 },
  { source: 'bing', referrerHost: 'www.bing.com', medium: 'cpc', prefix: 'ms', campaigns: 25, ads: ['rsa-a', 'rsa-b'], low: 0.3, high: 1.0 },
] as const;

/** The golden ratio's fraction: spreads campaign k's cost evenly over [low, high] without a random draw, so every run prices a campaign alike. */
const spread = (k: number) => (k * 0.618_033_988_75) % 1;

function paid({ source, referrerHost, medium, prefix, campaigns: count, ads, low, high }: (typeof paidPlatforms)[number]): SourceModel {
  const campaigns = Array.from({ length: count }, (_, k): PaidCampaign => {
    const costPerVisitor = low + (high - low) * spread(k + 1);
    const its = ads.slice(0, k % 2 === 0 ? 2 : 1).map((content, a) => ({ content, costPerVisitorMicros: Math.round(costPerVisitor * (1 + 0.15 * a) * 1e6) }));
    return { source, campaign: `${prefix}-${themes[k % themes.length]}-${states[Math.floor(k / themes.length)]}`, ads: its, drawAd: drawer(its, its.length === 2 ? [0.6, 0.4] : [1]) };
  });
  // Zipf-like within the source too: a few campaigns bring most of its visitors, the smallest a few a day.
  return { source, referrerHost, medium, campaign: null, campaigns, drawCampaign: drawer(campaigns, campaigns.map((_, k) => 1 / (k + 1) ** 0.9)) };
}
const [google, facebook, tiktok, bing] = paidPlatforms.map(paid) as [SourceModel, SourceModel, SourceModel, SourceModel];

/** Every paid campaign, 200 of them. */
export const paidCampaigns: readonly PaidCampaign[] = [google, facebook, tiktok, bing].flatMap((source) => source.campaigns ?? []);

/**
 * Thirty-two sources, most visitors first: a search engine, then the four paid sources among the first
 * eight (about 28% of the visitors), direct visits, a newsletter, then a long tail.
 */
const sources: readonly SourceModel[] = [
  host('www.google.com'),
  google,
  facebook,
  { source: 'direct', referrerHost: null, medium: null, campaign: null },
  tagged('newsletter', null, 'email', 'weekly-auctions'),
  host('www.bing.com'),
  tiktok,
  bing,
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
  /** utm_campaign and utm_content of the visit's landing: a paid campaign and its ad, or a tagged source's campaign; null when none. */
  campaign: string | null;
  content: string | null;
  /** The paid ad that brought the visitor, whose day's cost counts them. */
  ad: PaidAd | null;
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
  return Array.from({ length: count }, (_, n) => {
    const source = drawSource();
    const paidCampaign = source.drawCampaign?.() ?? null;
    const ad = paidCampaign?.drawAd() ?? null;
    return { n, visitor: random.slice(n * 22, n * 22 + 22), source, device: drawDevice(), campaign: paidCampaign?.campaign ?? source.campaign, content: ad?.content ?? null, ad };
  });
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
