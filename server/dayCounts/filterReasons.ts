/**
 * Why a beacon's report was not counted: each refusal or deliberate skip of POST /api/clicks,
 * /api/views and /api/leaves (server/beacons/beaconRoute.ts) is counted per UTC day, beacon and one of these reasons
 * (filteredCounter.ts), and nothing else about it is kept. The order is the order /admin and npm run
 * stats list them in: the deliberate skips first, then the refusals.
 */
export const filterReasons = ['bot', 'prefetch', 'opted-out', 'rate-limited', 'cross-site', 'malformed', 'no-view', 'repeat'] as const;
export type FilterReason = (typeof filterReasons)[number];

/** The beacons, as filtered_counts.beacon names them: page views, clicks, and the leave reports of issue 29. */
export const filteredBeacons = ['view', 'click', 'leave'] as const;
export type FilteredBeacon = (typeof filteredBeacons)[number];

/** What each reason means, for /admin, npm run stats and the docs. */
export const filterReasonDescriptions: Record<FilterReason, string> = {
  bot: 'a crawler, link checker, script or headless browser (by its user agent); answered 204',
  prefetch: 'a page or link the browser only loaded in advance; answered 204',
  'opted-out': 'the visitor sent Global Privacy Control or Do Not Track; answered 204',
  'rate-limited': 'one visitor or one address reporting too fast; answered 429',
  'cross-site': 'sent from another site’s page; answered 403',
  malformed: 'unreadable, oversized or not a valid report; answered 400',
  'no-view': 'a leave report for a page its visitor was not counted viewing that day; answered 409',
  repeat: 'a leave report past one for each view of the page its visitor had that day; answered 409',
};

export const isFilterReason = (value: unknown): value is FilterReason => (filterReasons as readonly unknown[]).includes(value);
export const isFilteredBeacon = (value: unknown): value is FilteredBeacon => (filteredBeacons as readonly unknown[]).includes(value);
