/**
 * Every map the serving process keeps per address or per visitor (the beacons' rate limiters, the
 * wrong-secret throttle of /admin and /api/conversions) is driven in its test by a flood of distinct keys:
 * none may ever hold more than its bound.
 */
export const flood = 500_000;
/**
 * 200,000 distinct keys a second: more than forgetting refilled buckets keeps up with (a key stays up to two
 * refills, 1 to 12 s, so 200,000 to 2.4 million of them), so the bound is what holds.
 */
export const msPerKey = 0.005;
