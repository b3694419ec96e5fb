import { sql, type Kysely, type Transaction } from 'kysely';
import { engineOf } from '../db/engineOf';
import { addDays, utcDay } from '../lib/utcDay';
import type { Schema } from '../db/schema';
import type { ConversionReport } from './conversionFields';
import { campaignConversions, countedConversions, variantConversions } from '../dayCounts/countedConversions';

/**
 * What a report did, which is also the postback's answer:
 * - recorded: a sale of a new txid, now counted;
 * - duplicate: a sale of a txid already recorded (networks retry), nothing added;
 * - reversed: a refund or chargeback of a counted sale, which no longer counts;
 * - already reversed: a refund or chargeback of a txid reversed before, nothing changed;
 * - unknown txid: a refund or chargeback of a txid never seen, kept as reversed, so a sale with that
 *   txid arriving later (networks do not always send in order) arrives reversed.
 */
export type ConversionOutcome = 'recorded' | 'duplicate' | 'reversed' | 'already reversed' | 'unknown txid';

/** How the report reached us. */
export type ConversionChannel = 'postback' | 'import';

export interface ConversionStore {
  /** Applies one report; when the promise resolves, its effect and its history row are committed. */
  record(report: ConversionReport, via: ConversionChannel, at?: Date): Promise<ConversionOutcome>;
  /** Folds conversions received before the retention period (and at least 180 days ago) into daily_conversions; resolves to how many. */
  foldOldConversions(retentionDays: number, now?: Date): Promise<number>;
}

/**
 * Conversions stay at least this long whatever the retention period: a refund or chargeback must find
 * its sale (card networks allow 120 days for a chargeback; ClickBank refunds within 60).
 */
export const minimumConversionDays = 180;

/** PostgreSQL's transaction-local setting under which the conversions' sums' triggers stand aside (migration 14). */
const movingConversionsSetting = 'auctions_guide.moving_conversions';

/**
 * The conversions of either engine. Idempotence rests on the unique txid, not on reading first: the
 * insert of a txid already there does nothing (INSERT ... ON CONFLICT DO NOTHING), so two copies of a
 * postback arriving at the same moment, at one instance or at two, record it once.
 */
export function createConversionStore(db: Kysely<Schema>): ConversionStore {
  return {
    foldOldConversions(retentionDays, now = new Date()) {
      const cutoff = addDays(utcDay(now), -Math.max(retentionDays, minimumConversionDays));
      return db.transaction().execute(async (trx) => {
        if (engineOf(trx) === 'postgres') {
          // The fold moves counted conversions into the daily tables, leaving the conversions' sums as they
          // are (migration 14), so the sums' triggers stand aside for this transaction. The rows are locked
          // first, as a refund locks its row before it touches a sum: a refund of one of them waits for the
          // fold, or the fold for it, and neither finds the other holding what it needs (with the triggers
          // on, the fold locked sums and then rows, and deadlocked with refunds of the rows it folded). Locked,
          // no refund can commit between the counting below and the delete, to be lost in the fold.
          await sql`select set_config(${movingConversionsSetting}, 'on', true)`.execute(trx);
          await sql`select id from conversions where day < ${cutoff} for update`.execute(trx);
        }
        const rows = await countedConversions(trx).where('day', '<', cutoff).execute();
        for (const row of rows) {
          await trx
            .insertInto('daily_conversions')
            .values({ day: row.day, placement: row.placement, source: row.source, currency: row.currency.trim(), conversions: Number(row.conversions), payout_micros: Number(row.micros) })
            .onConflict((conflict) =>
              conflict.columns(['day', 'placement', 'source', 'currency']).doUpdateSet((eb) => ({
                conversions: eb('daily_conversions.conversions', '+', eb.ref('excluded.conversions')),
                payout_micros: eb('daily_conversions.payout_micros', '+', eb.ref('excluded.payout_micros')),
              })),
            )
            .execute();
        }
        // The conversions in an experiment keep their variants in a table of their own (migration 8).
        const inExperiments = await variantConversions(trx).where('day', '<', cutoff).execute();
        for (const row of inExperiments) {
          await trx
            .insertInto('daily_variant_conversions')
            .values({ day: row.day, variants: row.variants, currency: row.currency.trim(), conversions: Number(row.conversions), payout_micros: Number(row.micros) })
            .onConflict((conflict) =>
              conflict.columns(['day', 'variants', 'currency']).doUpdateSet((eb) => ({
                conversions: eb('daily_variant_conversions.conversions', '+', eb.ref('excluded.conversions')),
                payout_micros: eb('daily_variant_conversions.payout_micros', '+', eb.ref('excluded.payout_micros')),
              })),
            )
            .execute();
        }
        // And those that carried a campaign or an ad (migration 12), for the campaigns' costs report.
        const inCampaigns = await campaignConversions(trx).where('day', '<', cutoff).execute();
        for (const row of inCampaigns) {
          await trx
            .insertInto('daily_campaign_conversions')
            .values({ day: row.day, source: row.source, campaign: row.campaign, content: row.content, currency: row.currency.trim(), conversions: Number(row.conversions), payout_micros: Number(row.micros) })
            .onConflict((conflict) =>
              conflict.columns(['day', 'source', 'campaign', 'content', 'currency']).doUpdateSet((eb) => ({
                conversions: eb('daily_campaign_conversions.conversions', '+', eb.ref('excluded.conversions')),
                payout_micros: eb('daily_campaign_conversions.payout_micros', '+', eb.ref('excluded.payout_micros')),
              })),
            )
            .execute();
        }
        await trx
          .deleteFrom('conversion_events')
          .where('txid', 'in', (eb) => eb.selectFrom('conversions').where('day', '<', cutoff).select('txid'))
          .execute();
        const deleted = await trx.deleteFrom('conversions').where('day', '<', cutoff).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      });
    },

    record(report, via, at = new Date()) {
      return db.transaction().execute(async (trx) => {
        const outcome = report.status === 'sale' ? await recordSale(trx, report, at) : await recordReversal(trx, report, at);
        await trx
          .insertInto('conversion_events')
          .values({
            txid: report.txid,
            status: report.status,
            outcome,
            subid: report.subid,
            payout_micros: report.payoutMicros,
            currency: report.currency,
            via,
            received_at: at.getTime(),
          })
          .execute();
        return outcome;
      });
    },
  };
}

/**
 * The click a click ID names, joined once, as the conversion arrives: its placement, page, source,
 * campaign, ad (content), device, variants and day are copied onto the conversion, so the conversion keeps them after the click is folded.
 */
async function clickOf(trx: Transaction<Schema>, clickId: string | null) {
  if (clickId === null) return undefined;
  return trx.selectFrom('clicks').where('click_id', '=', clickId).select(['day', 'placement', 'page', 'source', 'device', 'variants', 'campaign', 'content']).orderBy('id').limit(1).executeTakeFirst();
}

/** Inserts the conversion unless its txid is there already; true when this call inserted it. */
async function insertConversion(trx: Transaction<Schema>, report: ConversionReport, at: Date, reversed: boolean): Promise<boolean> {
  const click = await clickOf(trx, report.clickId);
  const result = await trx
    .insertInto('conversions')
    .values({
      txid: report.txid,
      subid: report.subid,
      click_id: report.clickId,
      placement: click?.placement ?? report.placement,
      click_day: click?.day ?? null,
      page: click?.page ?? null,
      source: click?.source ?? null,
      campaign: click?.campaign ?? null,
      content: click?.content ?? null,
      device: click?.device ?? null,
      variants: click?.variants ?? report.variants,
      payout_micros: report.payoutMicros,
      currency: report.currency,
      status: report.status,
      received_at: at.getTime(),
      day: utcDay(at),
      reversed_at: reversed ? at.getTime() : null,
    })
    .onConflict((conflict) => conflict.column('txid').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

async function recordSale(trx: Transaction<Schema>, report: ConversionReport, at: Date): Promise<ConversionOutcome> {
  return (await insertConversion(trx, report, at, false)) ? 'recorded' : 'duplicate';
}

/**
 * A reversal tries the insert first too: when the txid is new it is kept, reversed; otherwise (the
 * insert waited for, or found, the sale) the sale is marked reversed, once.
 */
async function recordReversal(trx: Transaction<Schema>, report: ConversionReport, at: Date): Promise<ConversionOutcome> {
  if (await insertConversion(trx, report, at, true)) return 'unknown txid';
  const updated = await trx
    .updateTable('conversions')
    .set({ status: report.status, reversed_at: at.getTime() })
    .where('txid', '=', report.txid)
    .where('reversed_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? 'reversed' : 'already reversed';
}

export interface ConversionTotals {
  /** Sales not reversed. */
  conversions: number;
  /** Of those, how many carry neither a click ID nor a placement. */
  unattributed: number;
  /** Reversed by a refund or chargeback (their history is kept). */
  reversed: number;
  /** Payouts of the sales not reversed, per currency, in millionths. */
  revenue: Array<{ currency: string; payoutMicros: number }>;
}

/** Everything recorded so far, as the import prints it and as tests check it. */
export async function readConversionTotals(db: Kysely<Schema>): Promise<ConversionTotals> {
  const counts = await db
    .selectFrom('conversions')
    .select((eb) => [
      eb.fn.count<number>('id').filterWhere('reversed_at', 'is', null).as('conversions'),
      eb.fn
        .count<number>('id')
        .filterWhere((inner) => inner.and([inner('reversed_at', 'is', null), inner('click_id', 'is', null), inner('placement', 'is', null)]))
        .as('unattributed'),
      eb.fn.count<number>('reversed_at').as('reversed'),
    ])
    .executeTakeFirstOrThrow();
  const revenue = await db
    .selectFrom('conversions')
    .where('reversed_at', 'is', null)
    .where('payout_micros', 'is not', null)
    .groupBy('currency')
    .orderBy('currency')
    .select((eb) => ['currency', eb.fn.sum<number>('payout_micros').as('payoutMicros')])
    .execute();
  return {
    conversions: Number(counts.conversions),
    unattributed: Number(counts.unattributed),
    reversed: Number(counts.reversed),
    revenue: revenue.map((row) => ({ currency: row.currency.trim(), payoutMicros: Number(row.payoutMicros) })),
  };
}
