import { sql, type Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { weekOf } from '../../server/lib/utcDay';

interface Sums {
  days: string[];
  months: string[];
  weeks: string[];
}

const lines = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String).join(' ')).sort();

/** The costs summed per week of the month, source, campaign, ad and currency, in JavaScript: the weeks as utcDay.ts's weekOf names them. */
async function weekSumsDue(db: Kysely<Schema>): Promise<string[]> {
  const sums = new Map<string, bigint>();
  for (const row of await db.selectFrom('costs').select(['day', 'source', 'campaign', 'content', 'currency', 'amount_micros']).execute()) {
    const key = [weekOf(row.day), row.source, row.campaign, row.content, row.currency].join(' ');
    sums.set(key, (sums.get(key) ?? 0n) + BigInt(row.amount_micros));
  }
  return [...sums].map(([key, micros]) => `${key} ${micros}`).sort();
}

/**
 * The costs' sums (server/costs/costSums.ts) as held, and as the costs held say they must be: the two are
 * equal when every write kept them.
 */
export async function costSumsHeldAndDue(db: Kysely<Schema>): Promise<{ held: Sums; due: Sums }> {
  const [heldDays, heldMonths, heldWeeks, dueDays, dueMonths, dueWeeks] = await Promise.all([
    sql<Record<string, unknown>>`select day, currency, amount_micros from cost_days`.execute(db),
    sql<Record<string, unknown>>`select month, source, campaign, content, currency, amount_micros from cost_months`.execute(db),
    sql<Record<string, unknown>>`select week, source, campaign, content, currency, amount_micros from cost_weeks`.execute(db),
    sql<Record<string, unknown>>`select day, currency, sum(amount_micros) as amount_micros from costs group by day, currency`.execute(db),
    sql<Record<string, unknown>>`select substr(day, 1, 7) as month, source, campaign, content, currency, sum(amount_micros) as amount_micros
      from costs group by substr(day, 1, 7), source, campaign, content, currency`.execute(db),
    weekSumsDue(db),
  ]);
  return {
    held: { days: lines(heldDays.rows), months: lines(heldMonths.rows), weeks: lines(heldWeeks.rows) },
    due: { days: lines(dueDays.rows), months: lines(dueMonths.rows), weeks: dueWeeks },
  };
}
