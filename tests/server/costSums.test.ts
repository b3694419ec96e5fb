import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { readCosts, readCostTotals, readDailyCostTotals, replaceCosts } from '../../server/costs/costStore';
import type { CostRow } from '../../server/costs/costRow';
import { resetCostSums } from '../../server/costs/costSums';
import { addDays } from '../../server/lib/utcDay';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import type { Schema } from '../../server/db/schema';
import { costSumsHeldAndDue } from '../support/costSums';
import { databaseAtSchema } from '../support/databaseAtSchema';
import { engines, openTestDatabase } from '../support/engines';

/**
 * Migrations 13 and 16: the costs summed per day, per month and per week of the month ahead of the reports, kept by every write of
 * costs. Whatever was written, corrected and written again, in whatever pieces, the sums held are the
 * sums of the costs held, and the report's two reads of a range say what summing the range's costs says.
 */

const firstDay = '2026-01-25';
const span = 75; // to 2026-04-09: part of January, February and March whole, part of April

const costRow = fc.record({
  day: fc.integer({ min: 0, max: span - 1 }).map((n) => addDays(firstDay, n)),
  source: fc.constantFrom('google', 'facebook'),
  campaign: fc.constantFrom('', 'spring', 'repo-tx'),
  content: fc.constantFrom('', 'ad-a', 'ad-b'),
  currency: fc.constantFrom('USD', 'USD', 'EUR'),
  amountMicros: fc.integer({ min: 0, max: 90_000_000 }),
});

const range = fc
  .tuple(fc.integer({ min: -3, max: span + 3 }), fc.integer({ min: 0, max: span + 5 }))
  .map(([start, length]) => ({ from: addDays(firstDay, start), to: addDays(firstDay, start + length) }));

function sumBy<Row>(rows: readonly Row[], key: (row: Row) => string, amount: (row: Row) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + amount(row));
  return sums;
}

describe.each(engines)('the costs summed ahead on %s', (engine) => {
  it('are the sums of the costs held after any writes, and the range reads sum the range’s costs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(costRow, { minLength: 1, maxLength: 120 }), { minLength: 1, maxLength: 4 }), fc.array(range, { minLength: 2, maxLength: 5 }), async (writes, ranges) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          // Each write a report: later ones correct some days, others add new ones.
          for (const rows of writes) await replaceCosts(db, rows as CostRow[]);
          const { held, due } = await costSumsHeldAndDue(db);
          expect(held).toEqual(due);
          for (const each of ranges) {
            const costs = await readCosts(db, each);
            const totals = await readCostTotals(db, each);
            const daily = await readDailyCostTotals(db, each);
            const key = (row: CostRow | { source: string; campaign: string; content: string; currency: string }) => [row.source, row.campaign, row.content, row.currency].join('|');
            expect(new Map(totals.map((row) => [key(row), row.amountMicros]))).toEqual(sumBy(costs, key, (row) => row.amountMicros));
            expect(new Map(daily.map((row) => [`${row.day}|${row.currency}`, row.amountMicros]))).toEqual(sumBy(costs, (row) => `${row.day}|${row.currency}`, (row) => row.amountMicros));
          }
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 25 : 8 },
    );
  });

  it('are set anew from every cost by resetCostSums, whatever they held', async () => {
    const opened = await openTestDatabase(engine);
    try {
      const db = opened.database.db;
      await replaceCosts(db, [
        { day: '2026-02-03', source: 'google', campaign: 'spring', content: '', currency: 'USD', amountMicros: 5_000_000 },
        { day: '2026-03-04', source: 'google', campaign: 'spring', content: '', currency: 'USD', amountMicros: 7_000_000 },
      ]);
      // Rows written beside replaceCosts, as db:copy writes them, and a sum gone wrong.
      await db.insertInto('costs').values({ day: '2026-02-05', source: 'bing', campaign: '', content: '', currency: 'USD', amount_micros: 1_000_000, updated_at: 0 }).execute();
      await db.updateTable('cost_days').set({ amount_micros: 1 }).execute();
      await db.updateTable('cost_weeks').set({ amount_micros: 2 }).execute();
      const before = await costSumsHeldAndDue(db);
      expect(before.held).not.toEqual(before.due);
      await resetCostSums(db);
      const after = await costSumsHeldAndDue(db);
      expect(after.held).toEqual(after.due);
      expect(after.held.days).toHaveLength(3);
      expect(after.held.weeks).toEqual(['2026-02-01 bing   USD 1000000', '2026-02-01 google spring  USD 5000000', '2026-03-01 google spring  USD 7000000']);
    } finally {
      await opened.close();
    }
  });

  it('are summed per week by migration 16 from the costs held before it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(costRow, { minLength: 1, maxLength: 80 }), async (rows) => {
        const legacy = await databaseAtSchema(engine, 15);
        try {
          const db = legacy.db as Kysely<Schema>;
          await replaceCostsAtSchema15(db, rows as CostRow[]);
          expect(await migrate(db, engine)).toBe(migrations.length);
          const { held, due } = await costSumsHeldAndDue(db);
          expect(held).toEqual(due);
        } finally {
          await legacy.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 15 : 4 },
    );
  });
});

/** Costs as schema 15 held them: the rows, their days' and months' sums, and no weeks yet. */
async function replaceCostsAtSchema15(db: Kysely<Schema>, rows: readonly CostRow[]): Promise<void> {
  const byKey = new Map(rows.map((row) => [[row.day, row.source, row.campaign, row.content, row.currency].join('|'), row]));
  for (const row of byKey.values()) {
    const { amountMicros, ...key } = row;
    await db.insertInto('costs').values({ ...key, amount_micros: amountMicros, updated_at: 0 }).execute();
  }
  await sql`insert into cost_days (day, currency, amount_micros) select day, currency, sum(amount_micros) from costs group by day, currency`.execute(db);
  await sql`insert into cost_months (month, source, campaign, content, currency, amount_micros)
    select substr(day, 1, 7), source, campaign, content, currency, sum(amount_micros) from costs group by substr(day, 1, 7), source, campaign, content, currency`.execute(db);
}
