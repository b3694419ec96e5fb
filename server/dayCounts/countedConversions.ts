import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/*
 * What counts of the conversions table, defined once for the reports that read it (funnelQueries.ts,
 * the experiments' report) and for the fold that keeps it past retention (server/conversions/conversionStore.ts).
 */

/**
 * Conversions not reversed, counted as the funnel reports them: under the day of their click (the day
 * received when no click matched), per placement, source ('' when not known) and currency. Callers add
 * which rows: a report's range, or the fold's old ones.
 */
export function countedConversions(db: Kysely<Schema> | Transaction<Schema>) {
  return db
    .selectFrom('conversions')
    .where('reversed_at', 'is', null)
    .groupBy((eb) => [eb.fn.coalesce('click_day', 'day'), eb.fn.coalesce('placement', sql.lit('')), eb.fn.coalesce('source', sql.lit('')), 'currency'])
    .select((eb) => [
      eb.fn.coalesce('click_day', 'day').as('day'),
      eb.fn.coalesce('placement', sql.lit('')).as('placement'),
      eb.fn.coalesce('source', sql.lit('')).as('source'),
      'currency',
      eb.fn.countAll<number>().as('conversions'),
      eb.fn.coalesce(eb.fn.sum<number>('payout_micros'), sql.lit(0)).as('micros'),
    ]);
}

/**
 * Conversions not reversed that were in an experiment, counted per day of their click (as
 * countedConversions), variants and currency: what the experiments' report reads (partial index
 * conversions_in_experiments) and the fold keeps.
 */
export function variantConversions(db: Kysely<Schema> | Transaction<Schema>) {
  return db
    .selectFrom('conversions')
    .where('reversed_at', 'is', null)
    .where('variants', '<>', '')
    .groupBy((eb) => [eb.fn.coalesce('click_day', 'day'), 'variants', 'currency'])
    .select((eb) => [
      eb.fn.coalesce('click_day', 'day').as('day'),
      'variants',
      'currency',
      eb.fn.countAll<number>().as('conversions'),
      eb.fn.coalesce(eb.fn.sum<number>('payout_micros'), sql.lit(0)).as('micros'),
    ]);
}

/**
 * Conversions not reversed that carried a campaign or an ad (content), counted per day of their click (as
 * countedConversions), source, campaign and content ('' for a part not known) and currency: what the
 * fold keeps (partial index conversions_in_campaigns); the campaigns' costs report sums the same rows over
 * its range (funnelQueries.ts, readCampaignConversionCounts).
 */
export function campaignConversions(db: Kysely<Schema> | Transaction<Schema>) {
  return db
    .selectFrom('conversions')
    .where('reversed_at', 'is', null)
    .where((eb) => eb.or([eb('campaign', 'is not', null), eb('content', 'is not', null)]))
    .groupBy((eb) => [eb.fn.coalesce('click_day', 'day'), eb.fn.coalesce('source', sql.lit('')), eb.fn.coalesce('campaign', sql.lit('')), eb.fn.coalesce('content', sql.lit('')), 'currency'])
    .select((eb) => [
      eb.fn.coalesce('click_day', 'day').as('day'),
      eb.fn.coalesce('source', sql.lit('')).as('source'),
      eb.fn.coalesce('campaign', sql.lit('')).as('campaign'),
      eb.fn.coalesce('content', sql.lit('')).as('content'),
      'currency',
      eb.fn.countAll<number>().as('conversions'),
      eb.fn.coalesce(eb.fn.sum<number>('payout_micros'), sql.lit(0)).as('micros'),
    ]);
}
