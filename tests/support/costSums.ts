import { sql, type Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';

interface Sums {
  days: string[];
  months: string[];
}

const lines = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String).join(' ')).sort();

/**
 * The costs' sums (server/costs/costSums.ts) as held, and as the costs held say they must be: the two are
 * equal when every write kept them.
 */
export async function costSumsHeldAndDue(db: Kysely<Schema>): Promise<{ held: Sums; due: Sums }> {
  const [heldDays, heldMonths, dueDays, dueMonths] = await Promise.all([
    sql<Record<string, unknown>>`select day, currency, amount_micros from cost_days`.execute(db),
    sql<Record<string, unknown>>`select month, source, campaign, content, currency, amount_micros from cost_months`.execute(db),
    sql<Record<string, unknown>>`select day, currency, sum(amount_micros) as amount_micros from costs group by day, currency`.execute(db),
    sql<Record<string, unknown>>`select substr(day, 1, 7) as month, source, campaign, content, currency, sum(amount_micros) as amount_micros
      from costs group by substr(day, 1, 7), source, campaign, content, currency`.execute(db),
  ]);
  return { held: { days: lines(heldDays.rows), months: lines(heldMonths.rows) }, due: { days: lines(dueDays.rows), months: lines(dueMonths.rows) } };
}
