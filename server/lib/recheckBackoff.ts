/**
 * How soon something failing is looked at again (issue 42: "every 15 minutes, politely, with backoff").
 * - While the other site answers and what it answers is the failure (a claim contradicted or missing on a
 *   page read whole, the affiliate link answering 404): every recheckMs, so a recovery is told within about 20 minutes.
 * - While it gives no usable answer (no answer, a 5xx, a 429 or a challenge, robots.txt unreachable, a page
 *   that changed shape): after as long as that has lasted, from recheckMs up to longestRecheckMs. Looked at
 *   0, 15, 30, 60 and 120 minutes into such an outage and every 2 hours after it, a site that is down or
 *   asking for fewer requests is asked 12 times a day rather than 96, and its recovery is told within 2 hours.
 * The fetcher's Retry-After comes on top: nothing asks a host before the time it gave (server/fetching/).
 */
export const recheckMs = 15 * 60_000;
export const longestRecheckMs = 2 * 60 * 60_000;

/** The wait before the next look at something that has given no usable answer for unansweredForMs (0 after the first such look). */
export function unansweredRecheckMs(unansweredForMs: number): number {
  return Math.min(longestRecheckMs, Math.max(recheckMs, unansweredForMs));
}
