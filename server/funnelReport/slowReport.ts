/** A report was stopped because it took too long, or too many were asked for at once: not an outage. */
export class SlowReportError extends Error {
  override name = 'SlowReportError';
}

/** How long a report may take before it is stopped: far beyond what a bounded report needs. */
export const reportTimeoutMs = 20_000;

/** What a stopped report says. */
export const tookTooLong = (timeoutMs: number) => `the report took longer than ${timeoutMs / 1000} s and was stopped; try a shorter range`;
