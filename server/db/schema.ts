import type { Generated } from 'kysely';

/**
 * The tables, as both engines hold them (server/db/migrations/ makes them, one file per step). Times are milliseconds
 * since the epoch and days are UTC dates written YYYY-MM-DD, so every query reads the same on SQLite
 * and PostgreSQL.
 */
export interface Schema {
  clicks: ClicksTable;
  visitor_salts: VisitorSaltsTable;
  link_checks: LinkChecksTable;
  job_runs: JobRunsTable;
  conversions: ConversionsTable;
  conversion_events: ConversionEventsTable;
  views: ViewsTable;
  leaves: LeavesTable;
  daily_counts: DailyCountsTable;
  closed_days: ClosedDaysTable;
  monthly_counts: MonthlyCountsTable;
  closed_months: ClosedMonthsTable;
  weekly_counts: WeeklyCountsTable;
  closed_weeks: ClosedWeeksTable;
  cost_days: CostDaysTable;
  cost_months: CostMonthsTable;
  cost_weeks: CostWeeksTable;
  daily_conversions: DailyConversionsTable;
  conversion_days: ConversionDaysTable;
  conversion_source_days: ConversionSourceDaysTable;
  conversion_source_months: ConversionSourceMonthsTable;
  conversion_campaign_months: ConversionCampaignMonthsTable;
  daily_variant_conversions: DailyVariantConversionsTable;
  daily_campaign_conversions: DailyCampaignConversionsTable;
  filtered_counts: FilteredCountsTable;
  releases: ReleasesTable;
  incidents: IncidentsTable;
  outbox: OutboxTable;
  costs: CostsTable;
  fixed_costs: FixedCostsTable;
  claim_states: ClaimStatesTable;
  claim_evidence: ClaimEvidenceTable;
  claim_pages: ClaimPagesTable;
  fetch_holds: FetchHoldsTable;
  schema_migrations: SchemaMigrationsTable;
}

/** Each claim's last verdict (server/claims/claimStore.ts), since schema 19. */
export interface ClaimStatesTable {
  claim_id: string;
  verdict: string;
  /** The first check that gave this verdict, in a row. */
  since: number;
  /** The latest check. */
  checked_at: number;
  /** The latest check that gave `verified`; null when never. */
  verified_at: number | null;
  first_checked_at: number;
  /** The items' outcomes (JSON), kept for a page that answers 304. */
  items: string;
}

/** The evidence kept on each change of a claim's verdict, the last 20 per claim, since schema 19. */
export interface ClaimEvidenceTable {
  id: Generated<number>;
  claim_id: string;
  recorded_at: number;
  verdict: string;
  url: string;
  excerpt: string;
  /** sha256 of the excerpt, hex. */
  excerpt_hash: string;
  /** The page as fetched, gzip; null when none was read (an unknown verdict). */
  page_gzip: Buffer | null;
}

/** Each merchant page's validators, for the next conditional request, since schema 19. */
export interface ClaimPagesTable {
  url: string;
  etag: string | null;
  last_modified: string | null;
  fetched_at: number;
}

/** Each host's Retry-After: no request to it before until_at (server/fetching/hostHolds.ts), since schema 20. */
export interface FetchHoldsTable {
  host: string;
  until_at: number;
}

export interface ClicksTable {
  id: Generated<number>;
  at: number;
  day: string;
  placement: string;
  page: string;
  /** Where the visitor came from; null when direct, unknown or this site. */
  referrer_host: string | null;
  /** mobile, tablet or desktop. */
  device: string;
  /** The salted daily hash of IP address and user agent; neither is stored. */
  visitor: string;
  /** beacon (JavaScript) or ping (the link's ping attribute). */
  via: string;
  /** The random click ID the sub-ID carried (lower case, see shared/affiliate.ts); null for a click without one. */
  click_id: Generated<string | null>;
  /** What brought the visitor: utm_source, else the referring host, else 'direct'; null when not known (a ping). */
  source: Generated<string | null>;
  /** utm_campaign and utm_content (the ad) of the visit's landing address, since schema 11; null when it had none or not known (a ping). */
  campaign: Generated<string | null>;
  content: Generated<string | null>;
  /** The variants the page showed, `experiment:variant` joined by commas; '' outside every experiment (shared/experiments/). */
  variants: Generated<string>;
}

/** The day's random salt for visitor hashes, shared by every instance and deleted after 48 hours. */
export interface VisitorSaltsTable {
  day: string;
  salt: string;
}

/** Every check of the affiliate link, from whichever instance made it. */
export interface LinkChecksTable {
  id: Generated<number>;
  checked_at: number;
  url: string;
  final_url: string;
  status: number | null;
  redirects: number;
  ms: number;
  error: string | null;
  verdict: string;
}

/** A job's run for one period (a day, a link-check interval), claimed by exactly one instance. */
export interface JobRunsTable {
  job: string;
  period: string;
  claimed_at: number;
}

/**
 * A network's transaction, one row per txid, in its current state. Payouts are whole millionths of the
 * currency unit (12.50 USD is 12500000), so every decimal a network sends is kept exactly.
 */
export interface ConversionsTable {
  id: Generated<number>;
  /** The network's transaction ID: unique, whatever network sent it. */
  txid: string;
  /** The sub-ID as the network sent it back; null when it sent none. */
  subid: string | null;
  /** The click ID the sub-ID carries (letters and digits), for the join to clicks; null when it carries none. */
  click_id: string | null;
  /** The placement the sub-ID names (a link without JavaScript sends the bare placement); null when none. */
  placement: string | null;
  payout_micros: number | null;
  /** ISO 4217, upper case. */
  currency: string;
  /** sale, or refund / chargeback once reversed. */
  status: string;
  /** When the first report of this txid arrived, and its UTC day. */
  received_at: number;
  day: string;
  /** When a refund or chargeback reversed it; a reversed conversion counts in neither conversions nor revenue. */
  reversed_at: number | null;
  /** Copied from the click its click ID names, when it arrives; null when no click matched. */
  click_day: Generated<string | null>;
  page: Generated<string | null>;
  source: Generated<string | null>;
  device: Generated<string | null>;
  /** The click's variants, or those a sub-ID without JavaScript names; '' when neither (as clicks.variants). */
  variants: Generated<string>;
  /** The click's utm_campaign and utm_content (the ad), since schema 12; null when no click matched or its visit carried none. */
  campaign: Generated<string | null>;
  content: Generated<string | null>;
}

/** Every report accepted for a txid, duplicates included: the history behind a conversion's state. */
export interface ConversionEventsTable {
  id: Generated<number>;
  txid: string;
  /** What the report said: sale, refund or chargeback. */
  status: string;
  /** What it did: recorded, duplicate, reversed, already reversed or unknown txid (see conversionStore.ts). */
  outcome: string;
  subid: string | null;
  payout_micros: number | null;
  currency: string;
  /** postback or import. */
  via: string;
  received_at: number;
}

/** One page view: what the entry script reports on landing and after each in-place navigation. */
export interface ViewsTable {
  id: Generated<number>;
  at: number;
  day: string;
  page: string;
  /** The referring site's host on the landing view; null after in-place navigation, when direct, or from this site. */
  referrer_host: string | null;
  /** As clicks.source. */
  source: string | null;
  /** utm_medium and utm_campaign of the landing address; null when it had none. */
  medium: string | null;
  campaign: string | null;
  /** utm_content (the ad or creative) of the landing address, since schema 11; null when it had none. */
  content: Generated<string | null>;
  device: string;
  visitor: string;
  /** As clicks.variants. */
  variants: Generated<string>;
}

/**
 * One page view's leave report (issue 29, server/leaves/): sent when the visitor left or hid the page, taken
 * only for a view of that page by that visitor that day, at most one per view.
 */
export interface LeavesTable {
  id: Generated<number>;
  at: number;
  day: string;
  page: string;
  device: string;
  visitor: string;
  /** As views.variants. */
  variants: Generated<string>;
  /** The ids of the sections reached, space-separated, in page order (server/leaves/pageLayout.ts). */
  sections: string;
  /** The placements seen by the viewability rule (shared/leaveBeacon.ts), space-separated, in page order. */
  seen: string;
  /** The placements whose link the visitor followed (each also seen), space-separated, in page order; '' for none (schema 18). */
  clicked: Generated<string>;
  /** Seconds the page was visible and the visitor active, at most leaveBeaconLimits.maxEngagedSeconds. */
  engaged_seconds: number;
  /** 1 for the visitor's first leave of the page that day, 2 for the next…: unique with day, visitor and page. */
  ordinal: number;
}

/**
 * A closed UTC day's views and clicks, one row per dimension and value (see server/jobs/closeDays.ts):
 * 'all' (value ''), 'placement', 'source', 'page', 'device', 'referrer' ('' where not known) and, since
 * schema 8, 'variant' (an experiment's variant, 'hero-words:b'; rows in no experiment count under none) and, since schema 11, 'campaign' and 'ad' (source and
 * campaign, and those with content, joined by server/dayCounts/dimensions.ts; rows without one count under none). Visitors
 * are distinct viewers and clickers distinct visitors who clicked, each counted within the day and value.
 */
export interface DailyCountsTable {
  dimension: string;
  day: string;
  value: string;
  views: number;
  visitors: number;
  clicks: number;
  clickers: number;
  /** 1, or for the one row that holds a day's values past the cap (value othersValue, server/dayCounts/dimensions.ts), how many it holds. */
  distinct_values: number;
}

/** The days closed into daily_counts: always every day up to the latest one, so reports read raw rows only after it. */
export interface ClosedDaysTable {
  day: string;
  closed_at: number;
}

/** A closed month's daily_counts summed per dimension and value (month: 'YYYY-MM'); distinct_values summed too. */
export interface MonthlyCountsTable extends Omit<DailyCountsTable, 'day'> {
  month: string;
}

/** A closed week of the month's daily_counts summed, as monthly_counts a month's: `week` is its first day (server/lib/utcDay.ts). */
export interface WeeklyCountsTable extends Omit<DailyCountsTable, 'day'> {
  week: string;
}

/** The reported costs of a day summed per currency, kept by every write of costs (server/costs/costSums.ts). */
export interface CostDaysTable {
  day: string;
  currency: string;
  amount_micros: number;
}

/** The reported costs of a month (YYYY-MM) summed per source, campaign, ad and currency, kept as cost_days is. */
export interface CostMonthsTable {
  month: string;
  source: string;
  campaign: string;
  content: string;
  currency: string;
  amount_micros: number;
}

/** The reported costs of a week of the month (by its first day) summed as cost_months sums a month's. */
export interface CostWeeksTable extends Omit<CostMonthsTable, 'month'> {
  week: string;
}

/** The weeks summed into weekly_counts, as closed_months lists the months. */
export interface ClosedWeeksTable {
  week: string;
  closed_at: number;
}

/** The months summed into monthly_counts: every month up to the latest one whose days were closed then. */
export interface ClosedMonthsTable {
  month: string;
  closed_at: number;
}

/**
 * Conversions past the retention period (and at least 180 days old), folded per attributed day,
 * placement, source and currency; '' stands for an unknown placement or source.
 */
export interface DailyConversionsTable {
  day: string;
  placement: string;
  source: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/**
 * The counted conversions (not reversed, and those folded into daily_conversions) summed per attributed
 * day, placement and currency, kept by triggers (migration 14); '' for a placement not known.
 */
export interface ConversionDaysTable {
  day: string;
  placement: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** The same sums per attributed day, source ('' when not known) and currency. */
export interface ConversionSourceDaysTable {
  day: string;
  source: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** The same sums per month (YYYY-MM) of the attributed day, source and currency. */
export interface ConversionSourceMonthsTable {
  month: string;
  source: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** The counted conversions that carried a campaign or an ad, per month of the attributed day, source, campaign, content ('' when not known) and currency. */
export interface ConversionCampaignMonthsTable {
  month: string;
  source: string;
  campaign: string;
  content: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** The folded conversions that carried a campaign or an ad, per attributed day, source, campaign, content ('' when not known) and currency (beside daily_conversions, which holds them too). */
export interface DailyCampaignConversionsTable {
  day: string;
  source: string;
  campaign: string;
  content: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** The folded conversions that were in an experiment, per attributed day, variants and currency (beside daily_conversions, which holds them too). */
export interface DailyVariantConversionsTable {
  day: string;
  variants: string;
  currency: string;
  conversions: number;
  payout_micros: number;
}

/** Reports a beacon refused or skipped, per UTC day, beacon ('click', 'view') and reason (server/dayCounts/filterReasons.ts). */
export interface FilteredCountsTable {
  day: string;
  beacon: string;
  reason: string;
  count: number;
}

/** A build the site served: its stamp (dist/build-stamp), when an instance first started on it, and what changed. */
export interface ReleasesTable {
  stamp: string;
  first_served_at: number;
  /** JSON: each content and artwork file's path → a hash of its bytes, to tell the next release what changed. */
  files: string;
  /** The files that changed since the release before, in a line; 'first release recorded' for the first. */
  note: string;
}

/** Something an alert rule found wrong (server/alerts/): open while closed_at is null, at most one open per rule and subject. */
export interface IncidentsTable {
  id: Generated<number>;
  /** The rule's name: one of the names in server/alerts/rules/allRules.ts (AlertRule). */
  rule: string;
  /** What the rule found wrong, as the rule names it: a placement, an instance, a source or campaign; '' for the whole site. */
  subject: string;
  opened_at: number;
  closed_at: number | null;
  /** What the alert said. */
  summary: string;
  /** What the recovery said, once closed. */
  recovery: string | null;
}

/**
 * A message to send on one channel ('webhook', 'email'): an incident's alert ('opened') or recovery
 * ('recovered'), or the weekly 'digest'. Due while next_attempt_at is set; sent_at or given_up_at ends it.
 */
export interface OutboxTable {
  id: Generated<number>;
  incident_id: number | null;
  event: string;
  channel: string;
  /** JSON: the webhook's body, or the e-mail's subject, text and html. */
  payload: string;
  created_at: number;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  sent_at: Generated<number | null>;
  given_up_at: Generated<number | null>;
  last_error: Generated<string | null>;
}

/**
 * What one UTC day's ads of one source, campaign and ad (content) cost, in one currency: the state the
 * latest report gave, replaced by a corrected one (server/costs/costStore.ts). '' for a campaign or ad
 * stands for the whole source or campaign. Never converted between currencies.
 */
export interface CostsTable {
  day: string;
  source: string;
  campaign: string;
  content: string;
  currency: string;
  amount_micros: number;
  /** When an import or POST last set the amount. */
  updated_at: number;
}

/** An operator's fixed cost for a source without a report (npm run costs:set): exactly one of daily_micros and per_visitor_micros is set. */
export interface FixedCostsTable {
  id: Generated<number>;
  source: string;
  /** '' for the whole source. */
  campaign: string;
  /** The first and last UTC day it covers, both included. */
  from_day: string;
  to_day: string;
  daily_micros: number | null;
  /** Multiplied by the day's visitors of the source (the day counts' 'source' dimension). */
  per_visitor_micros: number | null;
  currency: string;
  created_at: number;
}

export interface SchemaMigrationsTable {
  version: number;
  applied_at: number;
}
