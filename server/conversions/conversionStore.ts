import type { Kysely, Transaction } from 'kysely';
import { utcDay } from '../clicks/utcDay';
import type { Schema } from '../db/schema';
import type { ConversionReport } from './conversionFields';

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
}

/**
 * The conversions of either engine. Idempotence rests on the unique txid, not on reading first: the
 * insert of a txid already there does nothing (INSERT ... ON CONFLICT DO NOTHING), so two copies of a
 * postback arriving at the same moment, at one instance or at two, record it once.
 */
export function createConversionStore(db: Kysely<Schema>): ConversionStore {
  return {
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

/** Inserts the conversion unless its txid is there already; true when this call inserted it. */
async function insertConversion(trx: Transaction<Schema>, report: ConversionReport, at: Date, reversed: boolean): Promise<boolean> {
  const result = await trx
    .insertInto('conversions')
    .values({
      txid: report.txid,
      subid: report.subid,
      click_id: report.clickId,
      placement: report.placement,
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
