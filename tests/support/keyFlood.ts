/**
 * Every map the serving process keeps per address or per visitor (the beacons' rate limiters, the
 * wrong-secret throttle of /admin and /api/conversions) is driven in its test by a flood of distinct keys:
 * none may ever hold more than its bound.
 */
export const flood = 500_000;
/** 20,000 distinct keys a second: far more than the sweep of refilled buckets can keep up with, so the bound is what holds. */
export const msPerKey = 0.05;
