import clicks from './001-clicks';
import sharedState from './002-sharedState';
import conversions from './003-conversions';
import funnel from './004-funnel';
import closedDays from './005-closedDays';
import uniqueClickIds from './006-uniqueClickIds';
import countedConversionsIndex from './007-countedConversionsIndex';
import experiments from './008-experiments';
import watching from './009-watching';
import costs from './010-costs';
import campaigns from './011-campaigns';
import campaignConversions from './012-campaignConversions';
import closedMonths from './013-closedMonths';
import conversionSums from './014-conversionSums';
import coveringCounts from './015-coveringCounts';
import closedWeeks from './016-closedWeeks';
import leaves from './017-leaves';
import leaveClicks from './018-leaveClicks';
import claims from './019-claims';
import fetchHolds from './020-fetchHolds';
import type { Migration } from './migration';

/** Every step in order, under its file's name: one list, read twice below. */
const steps = { clicks, sharedState, conversions, funnel, closedDays, uniqueClickIds, countedConversionsIndex, experiments, watching, costs, campaigns, campaignConversions, closedMonths, conversionSums, coveringCounts, closedWeeks, leaves, leaveClicks, claims, fetchHolds };

/**
 * The schema's history, one file per step and version, for both engines (as GoatCounter keeps its
 * db/migrate/). A released step is never edited: a change is a new file, added at the end of `steps`. The
 * steps applied are listed in schema_migrations (see ../migrate.ts); CHANGELOG.md names each release's.
 */
export const migrations: readonly Migration[] = Object.values(steps);

/** Step N's name (`migrationNames[N - 1]`), as its file names it after the number: what npm run db:status and migrate print. */
export const migrationNames: readonly string[] = Object.keys(steps);
