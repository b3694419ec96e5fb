import type { Generated } from 'kysely';

/**
 * The tables, as both engines hold them (server/db/migrations.ts makes them). Times are milliseconds
 * since the epoch and days are UTC dates written YYYY-MM-DD, so every query reads the same on SQLite
 * and PostgreSQL.
 */
export interface Schema {
  clicks: ClicksTable;
  daily_totals: DailyTotalsTable;
  visitor_salts: VisitorSaltsTable;
  link_checks: LinkChecksTable;
  job_runs: JobRunsTable;
  schema_migrations: SchemaMigrationsTable;
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
}

/** Raw clicks past the retention period, folded per day; placement '*' holds all placements together. */
export interface DailyTotalsTable {
  day: string;
  placement: string;
  clicks: number;
  visitors: number;
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

export interface SchemaMigrationsTable {
  version: number;
  applied_at: number;
}
