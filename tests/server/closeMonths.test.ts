import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { readDayCounts } from '../../server/dayCounts/dayCounts';
import { othersValue } from '../../server/dayCounts/dimensions';
import { readTopAndNamedValues, readTopValues, readTopValuesWithTotal } from '../../server/dayCounts/funnelQueries';
import { closeFinishedMonths, closeFinishedWeeks } from '../../server/jobs/closeMonths';
import { addDays, lastDayOfWeek, weekOf } from '../../server/lib/utcDay';
import { engines, openTestDatabase, useTestDatabase } from '../support/engines';

/**
 * Migrations 13 and 16: a closed month's daily_counts summed into monthly_counts, and a closed week of the
 * month's into weekly_counts, once its last day is closed, and the reports that sum a range reading the
 * range's whole months and weeks from there. They must change nothing a report says, only what it reads.
 */

const firstDay = '2026-01-20';
const dayCount = 85; // to 2026-04-14: part of January, February and March whole, part of April
const allDays = Array.from({ length: dayCount }, (_, index) => addDays(firstDay, index));

/** Closes the given days as closeFinishedDays would have: their rows in daily_counts, each claimed in closed_days. */
async function closeDaysWith(db: Kysely<Schema>, rows: readonly DailyRow[], days: readonly string[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 300) await db.insertInto('daily_counts').values(rows.slice(start, start + 300)).execute();
  for (let start = 0; start < days.length; start += 300) await db.insertInto('closed_days').values(days.slice(start, start + 300).map((day) => ({ day, closed_at: 0 }))).execute();
}

/** A day's value of a dimension: campaigns, with the capped day's othersValue row now and then. */
const dayValue = fc.record({
  day: fc.constantFrom(...allDays),
  dimension: fc.constantFrom('campaign', 'source'),
  value: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 30 }).map((n) => `google\u001fcampaign-${n}`) }, { weight: 1, arbitrary: fc.constant(othersValue) }, { weight: 1, arbitrary: fc.constant('') }),
  views: fc.integer({ min: 1, max: 500 }),
  visitors: fc.integer({ min: 1, max: 300 }),
  clicks: fc.integer({ min: 0, max: 40 }),
  clickers: fc.integer({ min: 0, max: 30 }),
  distinct_values: fc.integer({ min: 2, max: 900 }),
});

type DailyRow = { day: string; dimension: string; value: string; views: number; visitors: number; clicks: number; clickers: number; distinct_values: number };

/** One row per day, dimension and value (the key), a row of othersValue holding how many values it stands for. */
function dailyRows(values: readonly DailyRow[]): DailyRow[] {
  const byKey = new Map<string, DailyRow>();
  for (const row of values) byKey.set(`${row.dimension} ${row.day} ${row.value}`, row);
  return [...byKey.values()].map((row) => ({ ...row, distinct_values: row.value === othersValue ? row.distinct_values : 1 }));
}

const named = ['google\u001fcampaign-3', 'google\u001fcampaign-17', othersValue];

const rangeArbitrary = fc
  .tuple(fc.integer({ min: -5, max: dayCount + 5 }), fc.integer({ min: 0, max: dayCount + 10 }))
  .map(([start, length]) => ({ from: addDays(firstDay, start), to: addDays(firstDay, start + length) }));

describe.each(engines)('closed months and weeks on %s', (engine) => {
  it('leave every range summed as from its days: the top values, every value with the total, and the top with named values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(dayValue, { minLength: 200, maxLength: 1500 }), fc.integer({ min: 30, max: dayCount }), fc.array(rangeArbitrary, { minLength: 3, maxLength: 6 }), async (values, closedDays, ranges) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          const closed = allDays.slice(0, closedDays);
          await closeDaysWith(db, dailyRows(values).filter((row) => closed.includes(row.day)), closed);
          const read = async ({ from, to }: { from: string; to: string }) => {
            const dayCounts = await readDayCounts(db, from, to);
            return Promise.all([
              readTopValues(db, 'campaign', { from, to }, dayCounts, 5),
              readTopValuesWithTotal(db, 'campaign', { from, to }, dayCounts, 'all'),
              readTopValuesWithTotal(db, 'source', { from, to }, dayCounts, 3),
              readTopAndNamedValues(db, 'campaign', { from, to }, dayCounts, 3, named),
            ]);
          };
          // The busiest and the named in one read: the first of every value in order, and the named.
          for (const each of ranges) {
            const [, { top: every }, , topAndNamed] = await read(each);
            expect(topAndNamed).toEqual(every.filter((row, index) => index < 3 || named.includes(row.value)));
          }
          const fromDays = await Promise.all(ranges.map(read));
          const months = await closeFinishedMonths(db);
          // Every month whose last day is closed, from the first closed day's month on.
          const lastClosed = closed.at(-1)!;
          const whole = ['2026-01', '2026-02', '2026-03', '2026-04'].filter((month) => lastClosed >= lastDayOfMonth(month));
          expect(months).toEqual(whole);
          // Months alone, then with the weeks of the month around them.
          expect(await Promise.all(ranges.map(read))).toEqual(fromDays);
          const weeks = await closeFinishedWeeks(db);
          expect(weeks).toEqual([...new Set(allDays.map(weekOf))].filter((week) => week >= weekOf(closed[0]!) && lastDayOfWeek(week) <= lastClosed));
          expect(await Promise.all(ranges.map(read))).toEqual(fromDays);
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 25 : 8 },
    );
  });

  describe('the monthly job', () => {
    const { db } = useTestDatabase(engine);
    const rows = dailyRows(
      allDays.flatMap((day, index) => [
        { day, dimension: 'campaign', value: 'google\u001fspring', views: 10 + index, visitors: 5, clicks: 1, clickers: 1, distinct_values: 1 },
        { day, dimension: 'campaign', value: othersValue, views: 3, visitors: 2, clicks: 0, clickers: 0, distinct_values: 7 },
      ]),
    );

    it('sums each month whose last day is closed, once, and the next month when its last day closes', async () => {
      await closeDaysWith(db(), rows.filter((row) => row.day <= '2026-03-30'), allDays.filter((day) => day <= '2026-03-30'));
      expect(await closeFinishedMonths(db())).toEqual(['2026-01', '2026-02']);
      expect(await closeFinishedMonths(db())).toEqual([]);
      const february = await db().selectFrom('monthly_counts').selectAll().where('month', '=', '2026-02').orderBy('value').execute();
      // 28 days of February: views 10 + index for index 12 (Feb 1) to 39 (Feb 28).
      expect(february.map((row) => ({ value: row.value, views: Number(row.views), visitors: Number(row.visitors), distinct: Number(row.distinct_values) }))).toEqual([
        { value: othersValue, views: 3 * 28, visitors: 2 * 28, distinct: 7 * 28 },
        { value: 'google\u001fspring', views: Array.from({ length: 28 }, (_, day) => 22 + day).reduce((sum, views) => sum + views, 0), visitors: 5 * 28, distinct: 28 },
      ]);
      // March's last day closes: March, not April.
      await closeDaysWith(db(), rows.filter((row) => row.day === '2026-03-31'), ['2026-03-31']);
      expect(await closeFinishedMonths(db())).toEqual(['2026-03']);
    });

    it('is done once when two instances run it at once', async () => {
      await closeDaysWith(db(), rows, allDays);
      const [one, two] = await Promise.all([closeFinishedMonths(db()), closeFinishedMonths(db())]);
      expect([...one, ...two].sort()).toEqual(['2026-01', '2026-02', '2026-03']);
      const counted = await db().selectFrom('monthly_counts').select((eb) => ['month', eb.fn.countAll().as('rows')]).groupBy('month').orderBy('month').execute();
      expect(counted.map((row) => [row.month, Number(row.rows)])).toEqual([['2026-01', 2], ['2026-02', 2], ['2026-03', 2]]);
    });

    it('sums nothing before any day is closed', async () => {
      expect(await closeFinishedMonths(db())).toEqual([]);
      expect(await closeFinishedWeeks(db())).toEqual([]);
      expect(await db().selectFrom('closed_months').selectAll().execute()).toEqual([]);
      expect(await db().selectFrom('closed_weeks').selectAll().execute()).toEqual([]);
    });

    it("sums each week of the month whose last day is closed, the month's end days as one, once across two instances", async () => {
      await closeDaysWith(db(), rows.filter((row) => row.day <= '2026-02-21'), allDays.filter((day) => day <= '2026-02-21'));
      // From January 20th: the week of the 15th began before the first closed day, so it is summed from its closed days.
      const [one, two] = await Promise.all([closeFinishedWeeks(db()), closeFinishedWeeks(db())]);
      expect([...one, ...two].sort()).toEqual(['2026-01-15', '2026-01-22', '2026-01-29', '2026-02-01', '2026-02-08', '2026-02-15']);
      const endOfJanuary = await db().selectFrom('weekly_counts').selectAll().where('week', '=', '2026-01-29').where('value', '=', 'google\u001fspring').execute();
      // January 29th to 31st: views 10 + index for index 9 to 11.
      expect(endOfJanuary.map((row) => [Number(row.views), Number(row.distinct_values)])).toEqual([[19 + 20 + 21, 3]]);
      // The last week of February is its 22nd to 28th; the next to close is March's first.
      await closeDaysWith(db(), rows.filter((row) => row.day > '2026-02-21' && row.day <= '2026-03-07'), allDays.filter((day) => day > '2026-02-21' && day <= '2026-03-07'));
      expect(await closeFinishedWeeks(db())).toEqual(['2026-02-22', '2026-03-01']);
    });
  });
});

function lastDayOfMonth(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10);
}
