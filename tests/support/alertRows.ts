import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { utcDay } from '../../server/lib/utcDay';

/** The rows the alert rules read, laid out straight in the tables (thousands at a time, faster than the stores). */

const chunk = 500;

async function insertAll<T>(rows: T[], insert: (rows: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) await insert(rows.slice(start, start + chunk));
}

/** `count` clicks on the placement, spread evenly over [from, to). */
export async function addClicksBetween(db: Kysely<Schema>, placement: string, count: number, from: number, to: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => {
    const at = Math.floor(from + ((to - from) * index) / count);
    return { at, day: utcDay(new Date(at)), placement, page: '/', referrer_host: null, device: 'mobile', visitor: `v${index}`, via: 'beacon' };
  });
  await insertAll(rows, (values) => db.insertInto('clicks').values(values).execute());
}

/** `count` page views spread evenly over [from, to). */
export async function addViewsBetween(db: Kysely<Schema>, count: number, from: number, to: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => {
    const at = Math.floor(from + ((to - from) * index) / count);
    return { at, day: utcDay(new Date(at)), page: '/', referrer_host: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: `v${index}` };
  });
  await insertAll(rows, (values) => db.insertInto('views').values(values).execute());
}

let txids = 0;

/** Sales on the placement at each moment given; `reversed` ones were refunded an hour later. */
export async function addSales(db: Kysely<Schema>, placement: string, moments: number[], { reversed = false } = {}): Promise<void> {
  const rows = moments.map((at) => ({
    txid: `tx-${(txids += 1)}`,
    subid: placement,
    click_id: null,
    placement,
    payout_micros: 10_000_000,
    currency: 'USD',
    status: reversed ? 'refund' : 'sale',
    received_at: at,
    day: utcDay(new Date(at)),
    reversed_at: reversed ? at + 3_600_000 : null,
  }));
  await insertAll(rows, (values) => db.insertInto('conversions').values(values).execute());
}

/** `count` moments spread evenly over [from, to). */
export function momentsBetween(count: number, from: number, to: number): number[] {
  return Array.from({ length: count }, (_, index) => Math.floor(from + ((to - from) * index) / count));
}
