import type express from 'express';
import type { Request } from 'express';
import { affiliatePlacements, readClickId } from '../../shared/affiliate';
import { clickEndpoint, clickBeaconLimits } from '../../shared/clickBeacon';
import { isPagePath } from '../../shared/routes';
import { isCampaignValue } from '../../shared/trafficSource';
import { beaconRoute, jsonObject, ownHost, storedReferrerHost, type BeaconGuardOptions } from '../beacons/beaconRoute';
import type { Experiment } from '../../shared/experiments/experiment';
import { storedVariants } from '../experiments/storedVariants';
import type { Click, ClickStore } from './clickStore';

export interface ClickRouteOptions extends BeaconGuardOptions {
  store: ClickStore;
  /** The experiments whose variants a click may report (shared/content/experiments.ts). */
  experiments: readonly Experiment[];
}

/**
 * Per address: a burst of 60, then one every 2 s (30 a minute). A real visitor follows a link or two,
 * so even a carrier NAT that puts a few thousand phones behind one address stays far below this (60
 * people clicking through in the same minute from one address is more than this site will see); a
 * script that rotates its user agent is held to 30 counted reports a minute instead of all of them.
 */
export const addressRateLimit = { burst: 60, refillMs: 2000 };
/** Per visitor hash: a burst of 10, then one every 6 s. */
export const visitorRateLimit = { burst: 10, refillMs: 6000 };

type Report = Pick<Click, 'placement' | 'page' | 'referrerHost' | 'via' | 'clickId' | 'source' | 'campaign' | 'content' | 'variants'>;

function isPlacement(value: unknown): value is string {
  return typeof value === 'string' && (affiliatePlacements as readonly string[]).includes(value);
}

/**
 * A click ID as stored (lower case), null when the report carries none, undefined when it carries
 * something else: a report whose ID names another placement than its own is not a valid one.
 */
function storedClickId(value: unknown, placement: string): string | null | undefined {
  if (value === undefined) return null;
  const read = typeof value === 'string' ? readClickId(value) : undefined;
  return read?.placement === placement ? read.clickId : undefined;
}

/** A beacon's JSON body (client/clickReporter.ts). */
function fromBeacon(body: string, ownHost: string, experiments: readonly Experiment[]): Report | undefined {
  const parsed = jsonObject(body);
  if (!parsed) return undefined;
  const { placement, page, referrer = '', clickId, source = '', campaign = '', content = '' } = parsed;
  if (!isPlacement(placement) || typeof page !== 'string' || !isPagePath(page)) return undefined;
  if (!isCampaignValue(source) || !isCampaignValue(campaign) || !isCampaignValue(content)) return undefined;
  const referrerHost = storedReferrerHost(referrer, ownHost);
  const storedId = storedClickId(clickId, placement);
  const variants = storedVariants(parsed.variants, experiments);
  if (referrerHost === undefined || storedId === undefined || variants === undefined) return undefined;
  return { placement, page, referrerHost, via: 'beacon', clickId: storedId, source: source || null, campaign: campaign || null, content: content || null, variants };
}

/**
 * A hyperlink-auditing ping (the link's ping attribute, sent when JavaScript is off, or when it runs
 * and sendBeacon does not): the body is "PING", the placement (and the click ID and the page's
 * variants, if any) ride in the ping URL's query and the page in the Ping-From header.
 */
function fromPing(req: Request, body: string, experiments: readonly Experiment[]): Report | undefined {
  const placement = req.query.placement;
  if (body !== 'PING' || !isPlacement(placement)) return undefined;
  const clickId = storedClickId(req.query.click, placement);
  const variants = storedVariants(req.query.variants, experiments);
  if (clickId === undefined || variants === undefined) return undefined;
  let page: string;
  try {
    page = new URL(req.get('ping-from') ?? '').pathname;
  } catch {
    return undefined;
  }
  return isPagePath(page) ? { placement, page, referrerHost: null, via: 'ping', clickId, source: null, campaign: null, content: null, variants } : undefined;
}

/**
 * POST /api/clicks: one report of a followed affiliate link, of a known placement on a known page,
 * with the click ID its sub-ID carries (which must name the same placement) and the visitor's source.
 * The answers are every beacon's (server/beacons/beaconRoute.ts).
 */
export function clickRoutes({ store, experiments, ...guards }: ClickRouteOptions): express.Router {
  return beaconRoute<Report>({
    ...guards,
    endpoint: clickEndpoint,
    maxBytes: clickBeaconLimits.maxBytes,
    subject: 'click',
    expected: 'a known placement',
    read: (req, body) => (req.is('text/ping') ? fromPing(req, body, experiments) : fromBeacon(body, ownHost(req), experiments)),
    // A replay of a click ID already recorded is answered 204 like any other: the click is counted, once.
    record: async (report, visit) => {
      await store.record({ ...report, ...visit });
    },
  });
}
