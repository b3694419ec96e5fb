import { createClickStore, type ClickStore } from './clicks/clickStore';
import { createConversionStore, type ConversionStore } from './conversions/conversionStore';
import { createCostStore, type CostStore } from './costs/costStore';
import { createViewStore, type ViewStore } from './views/viewStore';
import { createLeaveStore, type LeaveStore } from './leaves/leaveStore';
import { databaseLinkCheckLog, type LinkCheckLog } from './linkHealth/linkCheckLog';
import { databaseClaimStore, type ClaimStore } from './claims/claimStore';
import { inProcessReportReader, type ReportReader } from './reports/reportReader';
import { claimJobRun } from './jobs/jobRuns';
import type { AppDatabase } from './db/openDatabase';
import { createVisitorHasher, type VisitorHasher } from './beacons/visitorSalts';
import { createFilteredCounter, type FilteredCounter } from './beacons/filteredCounter';

/** Everything the running site keeps in its database, built on one open database and handed to createApp. */
export interface StatsStores {
  database: AppDatabase;
  clicks: ClickStore;
  /** The networks' reports of sales, refunds and chargebacks (used when CONVERSIONS_KEY is set, and by the import). */
  conversions: ConversionStore;
  /** Page views, reported by the entry script. */
  views: ViewStore;
  /** Each page view's leave report: how far down the visitor got, what they saw, how long they read (issue 29). */
  leaves: LeaveStore;
  /** What each source costs: reported per day (POST /api/costs, the imports) and the fixed-cost rules (npm run costs:set). */
  costs: CostStore;
  hashVisitor: VisitorHasher;
  /** The beacons' reports not counted, per day and reason: held in memory, written on the schedule (server/schedule/schedule.ts) and at shutdown (server/backgroundWork.ts). */
  filtered: FilteredCounter;
  linkChecks: LinkCheckLog;
  /** The claims watch's verdicts and kept evidence (server/claims/). */
  claims: ClaimStore;
  /** Where reports and the closing of days read (see reportReader.ts): apart from the stores that record. */
  reports: ReportReader;
  /** True for the one instance that claims a job's run for a period (see jobRuns.ts). */
  claimJobRun(job: string, period: string): Promise<boolean>;
}

/** Wires the stores on one open database; `reports` defaults to reading in this process (tests, scripts). */
export function createStatsStores(database: AppDatabase, reports: ReportReader = inProcessReportReader(database.db)): StatsStores {
  const claim = (job: string, period: string) => claimJobRun(database.db, job, period);
  return {
    database,
    clicks: createClickStore(database.db),
    conversions: createConversionStore(database.db),
    views: createViewStore(database.db),
    leaves: createLeaveStore(database.db),
    costs: createCostStore(database.db),
    hashVisitor: createVisitorHasher(database.db),
    filtered: createFilteredCounter(database.db),
    linkChecks: databaseLinkCheckLog(database.db, claim),
    claims: databaseClaimStore(database.db),
    reports,
    claimJobRun: claim,
  };
}
