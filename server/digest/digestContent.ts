import { formatMoment } from '../lib/utcDay';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { FunnelReport, FunnelReportOptions } from '../funnelReport/funnelReport';
import type { ReportRange } from '../dayCounts/reportRange';
import { comparedFigures, type ComparedFigure } from './comparedFigures';
import type { DigestWeek } from './digestWeek';
import type { Incident } from '../alerts/incidents';
import { incidentTitle } from '../alerts/alertMessage';
import { readWeekIncidents } from './weekIncidents';
import { databaseClaimStore } from '../claims/claimStore';
import { readClaimsOverview } from '../claims/claimsOverview';
import { claimList } from '../../shared/content/claims';

/** What the digest is written with besides the database: the public origin its links start with. */
export interface DigestContext {
  siteUrl: string;
  /** The moment claims' staleness is reckoned at; now unless given. */
  now?: number;
}

/** Everything the digest says, read once; its HTML and its text are both written from this. */
export interface DigestContent {
  week: DigestWeek;
  siteUrl: string;
  current: FunnelReport;
  previous: FunnelReport;
  figures: ComparedFigure[];
  incidents: Incident[];
  /** One line when the claims watch has checked and some claim is not verified (issue 42); undefined otherwise. */
  claimsLine?: string;
}

/** How many sources the digest lists; the rest are added up, as on /admin. */
export const digestSources = 5;

/** The campaigns with a cost the digest lists, losing money first: an e-mail stays short (mail clients clip long ones); /admin has every one. */
export const digestCampaigns = 10;

/**
 * The week's report reads what a 7-day /admin reads, but lists 5 sources and no day's sources (each
 * day's are /admin's day table, which a digest has none of; one day is the least the option takes).
 * The week before is only compared, so it skips the experiments, which cover their whole life anyway.
 */
const currentOptions: FunnelReportOptions = { sources: digestSources, daySources: 1, daySourceDays: 1 };
const previousOptions: FunnelReportOptions = { ...currentOptions, experiments: [] };

/** Reads the digest's two weeks through the report reader's own readFunnel, and the week's incidents. */
export async function readDigestContent(
  db: Kysely<Schema>,
  readFunnel: (range: ReportRange, options?: FunnelReportOptions) => Promise<FunnelReport>,
  week: DigestWeek,
  { siteUrl, now = Date.now() }: DigestContext,
): Promise<DigestContent> {
  const [current, previous, incidents, claimsLine] = await Promise.all([
    readFunnel(week.current, currentOptions),
    readFunnel(week.previous, previousOptions),
    readWeekIncidents(db, week.current),
    readClaimsLine(db, now),
  ]);
  return { week, siteUrl, current, previous, figures: comparedFigures(current, previous), incidents, ...(claimsLine ? { claimsLine } : {}) };
}

/** "2 of 8 claims about the offer are not verified: refundWindow (contradicted), …", once the watch has checked. */
async function readClaimsLine(db: Kysely<Schema>, now: number): Promise<string | undefined> {
  const store = databaseClaimStore(db);
  if ((await store.states()).size === 0) return undefined;
  const { claims } = await readClaimsOverview(store, claimList, now);
  const notVerified = claims.filter((claim) => claim.verdict !== 'verified');
  if (notVerified.length === 0) return undefined;
  return `${notVerified.length} of ${claims.length} claims about the offer are not verified: ${notVerified.map((claim) => `${claim.id} (${claim.verdict})`).join(', ')}. See Claims on /admin.`;
}

/** /admin showing a range: where the digest's links go. */
export const adminRangeUrl = (siteUrl: string, { from, to }: ReportRange) => `${siteUrl}/admin?from=${from}&to=${to}`;

/** The experiments still running: the digest gives their verdict; an ended one is on /admin. */
export const runningExperiments = (report: FunnelReport) => report.experiments.filter((experiment) => experiment.winner === null);

/** An incident's moment as the digest writes it: "2026-01-13 09:00 UTC". */

/** When an incident ran: "2026-01-13 09:00 UTC to 2026-01-13 15:20 UTC", or "since … (still open)". */
export const incidentSpan = ({ openedAt, closedAt }: Incident) =>
  closedAt === null ? `since ${formatMoment(openedAt)} (still open)` : `${formatMoment(openedAt)} to ${formatMoment(closedAt)}`;

/** An incident's heading, in the alerts' own words: "Sales gone silent on hero". */
export const incidentHeading = ({ rule, subject }: Incident) => {
  const title = incidentTitle(rule, subject);
  return title[0]!.toUpperCase() + title.slice(1);
};
