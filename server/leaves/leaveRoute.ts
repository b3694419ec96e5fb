import type express from 'express';
import { isPagePath } from '../../shared/routes';
import { leaveBeaconLimits, leaveEndpoint } from '../../shared/leaveBeacon';
import type { Experiment } from '../../shared/experiments/experiment';
import { beaconRoute, jsonObject, type BeaconGuardOptions, type RefusedReport } from '../beacons/beaconRoute';
import { storedVariants } from '../experiments/storedVariants';
import type { Leave, LeaveStore } from './leaveStore';
import { inPageOrder, pageLayouts } from './pageLayout';

/** The guards' limiters are the leaves' own, at the views' rates (server/app.ts): one leave report per view. */
export interface LeaveRouteOptions extends BeaconGuardOptions {
  store: LeaveStore;
  experiments: readonly Experiment[];
}

type Report = Pick<Leave, 'page' | 'variants' | 'sections' | 'seen' | 'clicked' | 'engagedSeconds'>;

/**
 * The entry script's JSON body (client/leaveReporter.ts): a known page, the variants it showed, and no more
 * sections or placements than the page holds, each once; whole engaged seconds within the cap. A clicked
 * placement counts as seen (a script that sent none, built before clicks were reported, sent an empty list).
 */
export function leaveFromBeacon(body: string, experiments: readonly Experiment[]): Report | undefined {
  const parsed = jsonObject(body);
  if (!parsed) return undefined;
  const { page, engagedSeconds } = parsed;
  if (typeof page !== 'string' || !isPagePath(page)) return undefined;
  const variants = storedVariants(parsed.variants, experiments);
  if (variants === undefined) return undefined;
  const layout = pageLayouts[page];
  const sections = inPageOrder(parsed.sections, layout.sections);
  const clicked = inPageOrder(parsed.clicked ?? [], layout.placements);
  const seen = inPageOrder(parsed.seen, layout.placements);
  if (!sections || !seen || !clicked) return undefined;
  if (!Number.isSafeInteger(engagedSeconds) || (engagedSeconds as number) < 0 || (engagedSeconds as number) > leaveBeaconLimits.maxEngagedSeconds) return undefined;
  return { page, variants, sections, seen: layout.placements.filter((name) => seen.includes(name) || clicked.includes(name)), clicked, engagedSeconds: engagedSeconds as number };
}

const refusals: Record<'no-view' | 'repeat', RefusedReport> = {
  'no-view': { reason: 'no-view', message: 'No view of this page by this visitor was counted today' },
  repeat: { reason: 'repeat', message: 'Every view of this page by this visitor today has its leave report already' },
};

/**
 * POST /api/leaves: one leave report per page view (issue 29). The answers are every beacon's
 * (server/beacons/beaconRoute.ts), and 409 for a report that names no view of its page by its visitor that
 * day, or one more than the views there were.
 */
export function leaveRoutes({ store, experiments, ...guards }: LeaveRouteOptions): express.Router {
  return beaconRoute<Report>({
    ...guards,
    endpoint: leaveEndpoint,
    maxBytes: leaveBeaconLimits.maxBytes,
    subject: 'leave',
    expected: 'a known page and no more sections or placements than it holds',
    read: (_req, body) => leaveFromBeacon(body, experiments),
    record: async (report, visit) => {
      const outcome = await store.record({ ...report, ...visit });
      return outcome === 'recorded' ? undefined : refusals[outcome];
    },
  });
}
