import type express from 'express';
import { isPagePath } from '../../shared/routes';
import { isCampaignValue } from '../../shared/trafficSource';
import { viewBeaconLimits, viewEndpoint } from '../../shared/viewBeacon';
import { beaconRoute, jsonObject, ownHost, storedReferrerHost, type BeaconGuardOptions } from '../beacons/beaconRoute';
import type { Experiment } from '../../shared/experiments/experiment';
import { storedVariants } from '../experiments/storedVariants';
import type { View, ViewStore } from './viewStore';

export interface ViewRouteOptions extends BeaconGuardOptions {
  store: ViewStore;
  /** The experiments whose variants a view may report (shared/content/experiments.ts). */
  experiments: readonly Experiment[];
}

/**
 * Views come more often than clicks: every page a visitor opens, and in-place navigation makes opening
 * one a single click, so someone skimming the four pages and going back and forth may send a dozen or
 * two in a minute. Per visitor hash: a burst of 30, then one every 2 s (30 a minute, faster than anyone
 * reads a page). Per address: a burst of 120, then one every 0.5 s (120 a minute), so a school or a
 * carrier NAT with many readers behind one address still counts them, while a script that rotates its
 * user agent is held to two a second instead of all it sends.
 */
export const viewVisitorRateLimit = { burst: 30, refillMs: 2000 };
export const viewAddressRateLimit = { burst: 120, refillMs: 500 };

type Report = Pick<View, 'page' | 'referrerHost' | 'source' | 'medium' | 'campaign' | 'content' | 'variants'>;

/**
 * The entry script's JSON body (client/main.ts): a known page, a referrer host, the landing's source and
 * utm values, and the variants the page showed.
 */
function fromBeacon(body: string, ownHost: string, experiments: readonly Experiment[]): Report | undefined {
  const parsed = jsonObject(body);
  if (!parsed) return undefined;
  const { page, referrer = '', source = '', medium = '', campaign = '', content = '' } = parsed;
  const variants = storedVariants(parsed.variants, experiments);
  if (variants === undefined) return undefined;
  if (typeof page !== 'string' || !isPagePath(page)) return undefined;
  if (!isCampaignValue(source) || !isCampaignValue(medium) || !isCampaignValue(campaign) || !isCampaignValue(content)) return undefined;
  const referrerHost = storedReferrerHost(referrer, ownHost);
  if (referrerHost === undefined) return undefined;
  // '' (none) is stored as null.
  return { page, referrerHost, source: source || null, medium: medium || null, campaign: campaign || null, content: content || null, variants };
}

/** POST /api/views: one report of a page view. The answers are every beacon's (server/beacons/beaconRoute.ts). */
export function viewRoutes({ store, experiments, ...guards }: ViewRouteOptions): express.Router {
  return beaconRoute<Report>({
    ...guards,
    endpoint: viewEndpoint,
    maxBytes: viewBeaconLimits.maxBytes,
    subject: 'view',
    expected: 'a known page',
    read: (req, body) => fromBeacon(body, ownHost(req), experiments),
    record: (report, visit) => store.record({ ...report, ...visit }),
  });
}
