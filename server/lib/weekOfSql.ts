import { sql, type RawBuilder } from 'kysely';

/**
 * The week of the month of a YYYY-MM-DD day column, in SQL the same on both engines (utcDay.ts's weekOf):
 * for sums grouped by week in one statement. Days of the month compare as text as they do as numbers,
 * both being two digits.
 */
export const weekOfSql = (day: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`substr(${day}, 1, 8) || case when substr(${day}, 9, 2) >= '29' then '29' when substr(${day}, 9, 2) >= '22' then '22' when substr(${day}, 9, 2) >= '15' then '15' when substr(${day}, 9, 2) >= '08' then '08' else '01' end`;
