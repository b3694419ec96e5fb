/**
 * The page-view beacon's wire format: one report per page view (the landing page and each in-place
 * navigation), sent by the client entry (client/viewReporter.ts) to server/views/viewRoute.ts.
 */
export const viewEndpoint = '/api/views';

export const viewBeaconLimits = {
  /** A page, a referrer and four campaign values of at most 100 characters each, with their names. */
  maxBytes: 1024,
};

export interface ViewBeaconBody {
  /** The page's path, one of the site's routes. */
  page: string;
  /** The referring site's host on the landing view; '' after in-place navigation, when direct, or from this site. */
  referrer: string;
  /** What brought the visitor (shared/trafficSource.ts); '' when not known. */
  source: string;
  /** utm_medium, utm_campaign and utm_content (the ad) of the landing address; '' when it had none. */
  medium: string;
  campaign: string;
  /** Absent from reports of pages served before schema 11: read as ''. */
  content?: string;
  /** The variants the page showed (shared/experiments/experiment.ts, formatShown); absent or '' outside every experiment. */
  variants?: string;
}
