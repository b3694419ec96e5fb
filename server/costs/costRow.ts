/**
 * What the site knows of money spent on its visitors (issue 27): one row is the state of one UTC day's
 * spend on one source, campaign and ad. A new report of the same day, source, campaign and ad replaces it;
 * it never adds to it, so importing a corrected report, or the same file twice, counts each day once.
 * Amounts are integer micros of their currency (12.50 USD is 12500000), as conversions' payouts are, and
 * two currencies are never added or converted.
 */
export interface CostRow {
  /** The UTC day the spend belongs to, YYYY-MM-DD. */
  day: string;
  /** The utm_source the ads carry (facebook, google, bing, tiktok, …): the same value views record. */
  source: string;
  /** The utm_campaign the ads carry; '' for a cost of the whole source. */
  campaign: string;
  /** The utm_content (the ad or creative); '' for a cost of the whole campaign. */
  content: string;
  /** The spend in micros of `currency`, at least 0. */
  amountMicros: number;
  /** ISO 4217, upper case (USD, EUR, …). */
  currency: string;
}
