import { sql, type Kysely, type RawBuilder } from 'kysely';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import { closedDayRows, openDayRows, rangeValueRows, toDayCountRow, valueOrder, type DayCounts } from './dayCounts';
import { byBytes, byValueOrder, othersValue, type DayCountRow, type Dimension } from './dimensions';
import type { ReportRange } from './reportRange';
import { groupBy } from '../lib/groupBy';
import { splitAtWholeMonths } from '../lib/utcDay';

/**
 * The funnel's reads of a range, on either engine. Views and clicks come from the closed days' totals
 * (daily_counts) and, after the last closed day, from raw rows: so a year costs what its days and values
 * cost, not what its traffic does. Every query aggregates in the database and hands back rows bounded by
 * days times values shown. The reports read conversions from their sums (conversionSums.ts); here only
 * the campaigns' days around a range's whole months are read raw (readCampaignConversionCounts).
 */

/** How many values a dimension's range or day rows hold beyond those listed, and their counts added up. */
export interface OthersCount extends Omit<DayCountRow, 'value' | 'distinctValues'> {
  /** How many values (sources) the row holds. */
  values: number;
}

/** How many values of a dimension a report lists; 'all' lists every one. */
export type ValueLimit = number | 'all';

const limitClause = (limit: ValueLimit) => (limit === 'all' ? sql`` : sql`limit ${limit}`);
const sums = sql`sum(views) as views, sum(visitors) as visitors, sum(clicks) as clicks, sum(clickers) as clickers`;

async function rows(db: Kysely<Schema>, query: ReturnType<typeof sql>): Promise<DayCountRow[]> {
  return (await sql<Record<string, unknown>>`${query}`.execute(db)).rows.map(toDayCountRow);
}

/**
 * A dimension's counts per day and value (one row each), for the dimensions with few values (all, placement):
 * the closed days' rows as daily_counts holds them, the open days' as counted already.
 */
export async function readPerDay(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, dayCounts: DayCounts): Promise<DayCountRow[]> {
  const closed = closedDayRows(dimension, from, to, dayCounts);
  return [...(closed ? await rows(db, closed) : []), ...openDayRows(dimension, from, to, dayCounts)];
}

/** The rows of a read of several parts (each row's `part`, 0 to count - 1), a list a part, in the order read. */
function rowsByPart(found: readonly Record<string, unknown>[], count: number): DayCountRow[][] {
  const rows = Array.from({ length: count }, (): DayCountRow[] => []);
  for (const row of found) rows[Number(row.part)]!.push(toDayCountRow(row));
  return rows;
}

/**
 * readPerDay for several dimensions in one statement (a list of rows per dimension, in the order asked):
 * on PostgreSQL each statement of a report waits its turn for one of the pool's few connections.
 */
export async function readPerDayOf(db: Kysely<Schema>, dimensions: readonly Dimension[], { from, to }: ReportRange, dayCounts: DayCounts): Promise<DayCountRow[][]> {
  const closed = dimensions.flatMap((dimension, part) => {
    const rows = closedDayRows(dimension, from, to, dayCounts);
    return rows ? [sql`select ${sql.lit(part)} as part, counts.* from (${rows}) as counts`] : [];
  });
  const found = closed.length === 0 ? [] : (await sql<Record<string, unknown>>`${sql.join(closed, sql` union all `)}`.execute(db)).rows;
  const byPart = rowsByPart(found, dimensions.length);
  return dimensions.map((dimension, part) => [...byPart[part]!, ...openDayRows(dimension, from, to, dayCounts)]);
}

/** What readTopValuesOf lists of one dimension: its first `limit` values ('all': every one), by most clicks or by most views then clicks, then by value. */
export interface TopValues {
  dimension: Dimension;
  limit: ValueLimit;
  by: 'clicks' | 'views';
}

const rankedBy = { clicks: sql`sum(clicks) desc, value`, views: sql`sum(views) desc, sum(clicks) desc, value` };

/**
 * Several dimensions' top values over the range in one statement, each ranked within its own part (the
 * othersValue row never listed): a list of rows per dimension, in the order asked.
 */
export async function readTopValuesOf(db: Kysely<Schema>, wanted: readonly TopValues[], { from, to }: ReportRange, dayCounts: DayCounts): Promise<DayCountRow[][]> {
  const parts = wanted.map(
    ({ dimension, by }, part) => sql`select ${sql.lit(part)} as part, value, ${sums}, row_number() over (order by ${rankedBy[by]}) as position
      from (${rangeValueRows(dimension, from, to, dayCounts)}) as counts where value <> ${othersValue} group by value`,
  );
  const listed = wanted.map(({ limit }, part) => (limit === 'all' ? sql`part = ${sql.lit(part)}` : sql`(part = ${sql.lit(part)} and position <= ${limit})`));
  const found = await sql<Record<string, unknown>>`select part, value, views, visitors, clicks, clickers from (${sql.join(parts, sql` union all `)}) as ranked
    where ${sql.join(listed, sql` or `)} order by part, position`.execute(db);
  return rowsByPart(found.rows, wanted.length);
}

/** A dimension's values over the range, in valueOrder, at most `limit` of them (the othersValue row is never listed). */
export function readTopValues(db: Kysely<Schema>, dimension: Dimension, { from, to }: ReportRange, dayCounts: DayCounts, limit: ValueLimit, order = valueOrder): Promise<DayCountRow[]> {
  return rows(
    db,
    sql`select value, ${sums} from (${rangeValueRows(dimension, from, to, dayCounts)}) as counts where value <> ${othersValue}
      group by value order by ${order} ${limitClause(limit)}`,
  );
}

/** What readTopAndNamedValues lists of one dimension: its `limit` busiest values and the named ones wherever they rank. */
export interface TopAndNamed {
  dimension: Dimension;
  limit: number;
  values: readonly string[];
}

/**
 * A dimension's busiest values and some named ones, in one read of its rows: the `limit` first values over the
 * range in valueOrder, and the named ones wherever they rank (the othersValue row is never listed). For a
 * report that lists the busiest and those it must show (the campaigns with a cost), where two reads would
 * sum the same rows twice.
 */
export async function readTopAndNamedValues(db: Kysely<Schema>, dimension: Dimension, range: ReportRange, dayCounts: DayCounts, limit: number, values: readonly string[]): Promise<DayCountRow[]> {
  return (await readTopAndNamedValuesOf(db, [{ dimension, limit, values }], range, dayCounts))[0]!;
}

/**
 * readTopAndNamedValues for several dimensions (or limits) in one statement, a list of rows each in the
 * order asked. The named values go as one parameter (an array, or JSON on SQLite): the campaigns and ads
 * with a cost are some hundreds, which as a parameter each cost more to send and plan than the read.
 */
export async function readTopAndNamedValuesOf(db: Kysely<Schema>, wanted: readonly TopAndNamed[], { from, to }: ReportRange, dayCounts: DayCounts): Promise<DayCountRow[][]> {
  const postgres = engineOf(db) === 'postgres';
  const named = (values: readonly string[]) =>
    values.length === 0 ? sql`` : postgres ? sql`or value = any(${[...values]}::text[])` : sql`or value in (select value from json_each(${JSON.stringify(values)}))`;
  const byValue = wanted.map(
    ({ dimension }, part) =>
      sql`select ${sql.lit(part)} as part, value, ${sums} from (${rangeValueRows(dimension, from, to, dayCounts)}) as counts where value <> ${othersValue} group by value`,
  );
  const listed = wanted.map(({ limit, values }, part) => sql`(part = ${sql.lit(part)} and (position <= ${limit} ${named(values)}))`);
  const found = await sql<Record<string, unknown>>`select part, value, views, visitors, clicks, clickers from (
      select part, value, views, visitors, clicks, clickers, row_number() over (partition by part order by ${valueOrder}) as position from (
        ${sql.join(byValue, sql` union all `)}
      ) as byValue
    ) as ranked where ${sql.join(listed, sql` or `)} order by part, position`.execute(db);
  return rowsByPart(found.rows, wanted.length);
}

/** Window sums of a grouped dimension's figures, and how many values its rows hold (an othersValue row holds distinct_values). */
const totals = (partition: ReturnType<typeof sql>) => sql`
  sum(views) over (${partition}) as total_views, sum(visitors) over (${partition}) as total_visitors,
  sum(clicks) over (${partition}) as total_clicks, sum(clickers) over (${partition}) as total_clickers,
  sum(case when value = ${othersValue} then distinct_values else 1 end) over (${partition}) as total_values`;

/** The window totals a row carries, as a DayCountRow of the day (or the range) it was summed over. */
function totalOf(row: Record<string, unknown>): DayCountRow {
  return toDayCountRow({ day: row.day, value: '', views: row.total_views, visitors: row.total_visitors, clicks: row.total_clicks, clickers: row.total_clickers, distinct_values: row.total_values });
}

/**
 * A dimension's top values over the range, and every value's counts added up, in one read of its rows
 * (each read of the open days' raw rows costs a scan of them). `total` holds how many values there were;
 * a value folded into a capped day's othersValue row and listed on another day counts twice there.
 */
export async function readTopValuesWithTotal(
  db: Kysely<Schema>,
  dimension: Dimension,
  { from, to }: ReportRange,
  dayCounts: DayCounts,
  limit: ValueLimit,
): Promise<{ top: DayCountRow[]; total: DayCountRow | undefined }> {
  const found = await sql<Record<string, unknown>>`select * from (
      select value, views, visitors, clicks, clickers, ${totals(sql``)} from (
        select value, ${sums}, sum(distinct_values) as distinct_values from (${rangeValueRows(dimension, from, to, dayCounts)}) as counts group by value
      ) as byValue
    ) as withTotals where value <> ${othersValue} order by ${valueOrder} ${limitClause(limit)}`.execute(db);
  return { top: found.rows.map(toDayCountRow), total: found.rows[0] && totalOf(found.rows[0]) };
}

/**
 * Each day's top values of a dimension, at most `limit` a day in valueOrder (each day's in turn, the days in
 * order), and each day's values added up (as in readTopValuesWithTotal). The closed days are ranked and
 * added up in the database, the open days here from their counts, which were read already: sent back to the
 * database as JSON they cost more than the rest of the read.
 */
export async function readTopValuesPerDayWithTotals(
  db: Kysely<Schema>,
  dimension: Dimension,
  { from, to }: ReportRange,
  dayCounts: DayCounts,
  limit: ValueLimit,
): Promise<{ top: DayCountRow[]; totals: DayCountRow[] }> {
  const closed = closedDayRows(dimension, from, to, dayCounts);
  const { top: closedTop, totals: closedTotals } = closed
    ? await readClosedTopPerDay(db, dimension, from, dayCounts.lastClosed < to ? dayCounts.lastClosed : to, closed, limit)
    : { top: [], totals: [] };
  const top = closedTop.sort((a, b) => byBytes(a.day, b.day) || byValueOrder(a, b));
  const totals = closedTotals.sort((a, b) => byBytes(a.day, b.day));
  for (const [day, dayRows] of groupBy(openDayRows(dimension, from, to, dayCounts), (row) => row.day)) {
    const values = dayRows.filter((row) => row.value !== othersValue);
    if (values.length === 0) continue;
    top.push(...values.sort(byValueOrder).slice(0, limit === 'all' ? undefined : limit));
    const total = { day, value: '', views: 0, visitors: 0, clicks: 0, clickers: 0, distinctValues: 0 };
    for (const row of dayRows) {
      total.views += row.views;
      total.visitors += row.visitors;
      total.clicks += row.clicks;
      total.clickers += row.clickers;
      total.distinctValues += row.value === othersValue ? row.distinctValues : 1;
    }
    totals.push(total);
  }
  return { top, totals };
}

/**
 * Each closed day's top values and its values added up (from..to are closed, `closed` their rows); a day of
 * one othersValue row alone lists no value, so no total either. PostgreSQL takes each day's few first by
 * the day counts' index and adds up the same day's rows beside them, in one read (LATERAL: 29 days of 66
 * sources in 3 ms, where ranking every row of the range in one window sorted all 2,000, 6 ms, and the
 * totals took a read of their own). SQLite, which has no LATERAL, ranks them in one window and adds them
 * up in another read.
 */
async function readClosedTopPerDay(
  db: Kysely<Schema>,
  dimension: Dimension,
  from: string,
  to: string,
  closed: RawBuilder<unknown>,
  limit: ValueLimit,
): Promise<{ top: DayCountRow[]; totals: DayCountRow[] }> {
  if (engineOf(db) === 'postgres') {
    // daily_counts.day compared as stored, so that the index finds each day; the values sorted by their bytes.
    const dayRows = sql`from daily_counts where dimension = ${dimension} and daily_counts.day = days.day`;
    const found = await sql<Record<string, unknown>>`select days.day, top.*, totals.* from (
        select to_char(d, 'YYYY-MM-DD') as day from generate_series(${from}::date, ${to}::date, interval '1 day') as d
      ) as days cross join lateral (
        select value collate "C" as value, views, visitors, clicks, clickers ${dayRows} and value <> ${othersValue} order by ${valueOrder} ${limitClause(limit)}
      ) as top cross join lateral (
        select sum(views) as total_views, sum(visitors) as total_visitors, sum(clicks) as total_clicks, sum(clickers) as total_clickers,
          sum(case when value = ${othersValue} then distinct_values else 1 end) as total_values ${dayRows}
      ) as totals`.execute(db);
    const totals = new Map<string, DayCountRow>();
    for (const row of found.rows) if (!totals.has(String(row.day))) totals.set(String(row.day), totalOf(row));
    return { top: found.rows.map(toDayCountRow), totals: [...totals.values()] };
  }
  const [top, totals] = await Promise.all([
    rows(
      db,
      sql`select day, value, views, visitors, clicks, clickers from (
          select day, value, views, visitors, clicks, clickers,
            row_number() over (partition by day order by case when value = ${othersValue} then 1 else 0 end, ${valueOrder}) as position
          from (${closed}) as counts
        ) as ranked where value <> ${othersValue} ${limit === 'all' ? sql`` : sql`and position <= ${limit}`}`,
    ),
    rows(
      db,
      sql`select day, '' as value, ${sums}, sum(case when value = ${othersValue} then distinct_values else 1 end) as distinct_values
        from (${closed}) as counts group by day having sum(case when value = ${othersValue} then 0 else 1 end) > 0`,
    ),
  ]);
  return { top, totals };
}

/** Counted conversions of one source, campaign, ad and currency over a range; '' for a part not known. */
export interface CampaignConversionCount {
  source: string;
  campaign: string;
  content: string;
  currency: string;
  conversions: number;
  micros: number;
}

/**
 * Conversions not reversed that carried a campaign or an ad, attributed to the range as the funnel
 * report attributes them (the day of their click), summed over it per source, campaign, ad
 * and currency: what the campaigns' spend section sets beside their costs, which is per range, not per
 * day. The range's whole months come from their sums (conversion_campaign_months, migration 14); the days
 * around them from the conversions and those folded past retention (daily_campaign_conversions).
 */
export async function readCampaignConversionCounts(db: Kysely<Schema>, { from, to }: ReportRange): Promise<CampaignConversionCount[]> {
  const split = splitAtWholeMonths(from, to);
  const days = (split ? [split.before, split.after] : [{ from, to }]).filter((span) => span.from <= span.to);
  // Counted as campaignConversions (countedConversions.ts) counts them, summed over the days rather than
  // per day. SQLite, without statistics, reads the days through conversions_counted, which starts with the same
  // day, and then each row from the table; the partial index of conversions with a campaign holds every
  // column this reads (migration 12), half the work on a year. INDEXED BY also fails loudly should a
  // change to the query stop the index from serving it. PostgreSQL chooses by its statistics.
  const table = engineOf(db) === 'sqlite' ? sql`conversions indexed by conversions_in_campaigns` : sql`conversions`;
  const parts = days.flatMap(({ from: first, to: last }) => [
    sql`select coalesce(source, '') as source, coalesce(campaign, '') as campaign, coalesce(content, '') as content, currency,
        count(*) as conversions, coalesce(sum(payout_micros), 0) as micros
      from ${table}
      where reversed_at is null and (campaign is not null or content is not null) and coalesce(click_day, day) >= ${first} and coalesce(click_day, day) <= ${last}
      group by coalesce(source, ''), coalesce(campaign, ''), coalesce(content, ''), currency`,
    sql`select source, campaign, content, currency, conversions, payout_micros as micros from daily_campaign_conversions where day >= ${first} and day <= ${last}`,
  ]);
  if (split) {
    parts.push(sql`select source, campaign, content, currency, conversions, payout_micros as micros
      from conversion_campaign_months where month >= ${split.months.first} and month <= ${split.months.last}`);
  }
  if (parts.length === 0) return [];
  // The days' and months' parts summed in one statement: one round trip and one row a key, whatever the split.
  const { rows } = await sql<Record<string, unknown>>`select source, campaign, content, currency, sum(conversions) as conversions, sum(micros) as micros
    from (${sql.join(parts, sql` union all `)}) as parts group by source, campaign, content, currency`.execute(db);
  const sums: CampaignConversionCount[] = [];
  for (const row of rows) {
    // char(3) may come back padded; sums of bigints come back from PostgreSQL as text.
    const conversions = Number(row.conversions);
    const micros = Number(row.micros);
    if (conversions !== 0 || micros !== 0) sums.push({ source: String(row.source), campaign: String(row.campaign), content: String(row.content), currency: String(row.currency).trim(), conversions, micros });
  }
  // A campaign's whole months may hold only conversions since reversed: they are not shown.
  return sums;
}
