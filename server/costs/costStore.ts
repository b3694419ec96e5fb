import { sql, type Kysely } from 'kysely';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import { addDays, dayMs, dayStart } from '../lib/utcDay';
import { readDayCounts } from '../dayCounts/dayCounts';
import { readPerDay } from '../dayCounts/funnelQueries';
import { maxReportDays, type ReportRange } from '../dayCounts/reportRange';
import type { CostRow } from './costRow';

/** What replacing costs did: rows whose amount was new or other than held, and rows already held with that amount. */
export interface CostWriteCounts {
  changed: number;
  unchanged: number;
}

/** An operator's fixed cost (npm run costs:set): exactly one of dailyMicros and perVisitorMicros is set. */
export interface FixedCostRule {
  source: string;
  /** '' for the whole source. */
  campaign: string;
  /** First and last UTC day, both included. */
  from: string;
  to: string;
  dailyMicros: number | null;
  perVisitorMicros: number | null;
  currency: string;
}

export interface FixedCost extends FixedCostRule {
  id: number;
  createdAt: number;
}

/** A new rule would cover days another rule of the same source and campaign already covers. */
export class FixedCostOverlapError extends Error {
  override name = 'FixedCostOverlapError';
  constructor(readonly overlapping: FixedCost) {
    super(`it overlaps rule ${overlapping.id} (${overlapping.from} to ${overlapping.to}); remove that one first`);
  }
}

/** Rows written per statement: 7 parameters each, well inside either engine's limit. */
const batchSize = 500;

const keyOf = (row: CostRow) => JSON.stringify([row.day, row.source, row.campaign, row.content, row.currency]);

/**
 * Sets each row's amount as the state of its day, source, campaign, ad and currency: a row not held is
 * added, one held with another amount is replaced, one held with the same amount is left (and its
 * updated_at too). Never adds to an amount, so the same report twice changes nothing and a corrected one
 * replaces. A key given twice in `rows` counts its last amount. All of it in one transaction, a batch per
 * statement, in key order; two instances writing the same rows at once (in whatever order they were given)
 * each meet the other's row through the key, so the row is written once and only one of them counts it as
 * changed, and neither waits on the other in a circle.
 */
export async function replaceCosts(db: Kysely<Schema>, rows: readonly CostRow[], now: Date = new Date()): Promise<CostWriteCounts> {
  const latest = new Map<string, CostRow>();
  for (const row of rows) latest.set(keyOf(row), row);
  // Written in key order, so two writers of overlapping rows lock them in the same order and never deadlock.
  const unique = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  const updatedAt = now.getTime();
  let changed = 0;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < unique.length; start += batchSize) {
      const batch = unique.slice(start, start + batchSize);
      const written = await trx
        .insertInto('costs')
        .values(
          batch.map((row) => ({
            day: row.day,
            source: row.source,
            campaign: row.campaign,
            content: row.content,
            currency: row.currency,
            amount_micros: row.amountMicros,
            updated_at: updatedAt,
          })),
        )
        .onConflict((on) =>
          on
            .columns(['day', 'source', 'campaign', 'content', 'currency'])
            .doUpdateSet((eb) => ({ amount_micros: eb.ref('excluded.amount_micros'), updated_at: eb.ref('excluded.updated_at') }))
            .where((eb) => eb('costs.amount_micros', '<>', eb.ref('excluded.amount_micros'))),
        )
        .returning('day')
        .execute();
      changed += written.length;
    }
  });
  return { changed, unchanged: unique.length - changed };
}

/** A range's days are bounded, so what a read returns is bounded by days times the rows a day holds. */
function checkedRange({ from, to }: ReportRange): ReportRange {
  if (!(from <= to) || (dayStart(to) - dayStart(from)) / dayMs + 1 > maxReportDays) throw new RangeError(`a range of costs is at most ${maxReportDays} days`);
  return { from, to };
}

/** The reported costs of the range's days, in day, source, campaign, ad and currency order. */
export async function readCosts(db: Kysely<Schema>, range: ReportRange): Promise<CostRow[]> {
  const { from, to } = checkedRange(range);
  const rows = await db
    .selectFrom('costs')
    .select(['day', 'source', 'campaign', 'content', 'currency', 'amount_micros'])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .orderBy('source')
    .orderBy('campaign')
    .orderBy('content')
    .orderBy('currency')
    .execute();
  return rows.map(({ amount_micros, ...row }) => ({ ...row, amountMicros: Number(amount_micros) }));
}

/** A source's reported costs over a range, in one currency. */
export interface SourceCostTotal {
  source: string;
  currency: string;
  amountMicros: number;
}

/**
 * The reported costs of the range summed per source and currency, in source and currency order: one
 * grouped query, so a year of many sources reads what its sources and currencies hold, not its rows.
 */
export async function readCostTotals(db: Kysely<Schema>, range: ReportRange): Promise<SourceCostTotal[]> {
  const { from, to } = checkedRange(range);
  const rows = await db
    .selectFrom('costs')
    .select((eb) => ['source', 'currency', eb.fn.sum<number | string | bigint>('amount_micros').as('amount_micros')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['source', 'currency'])
    .orderBy('source')
    .orderBy('currency')
    .execute();
  return rows.map(({ source, currency, amount_micros }) => ({ source, currency, amountMicros: Number(amount_micros) }));
}

/** A campaign's or an ad's reported costs over a range, in one currency. */
export interface CampaignCostTotal extends SourceCostTotal {
  campaign: string;
  /** '' for a cost of the whole campaign. */
  content: string;
}

/**
 * The reported costs of the range that name a campaign, summed per source, campaign, ad and currency:
 * one grouped query, whose rows are the campaigns and ads that cost something, not the days.
 */
export async function readCampaignCostTotals(db: Kysely<Schema>, range: ReportRange): Promise<CampaignCostTotal[]> {
  const { from, to } = checkedRange(range);
  const rows = await db
    .selectFrom('costs')
    .select((eb) => ['source', 'campaign', 'content', 'currency', eb.fn.sum<number | string | bigint>('amount_micros').as('amount_micros')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('campaign', '<>', '')
    .groupBy(['source', 'campaign', 'content', 'currency'])
    .orderBy('source')
    .orderBy('campaign')
    .orderBy('content')
    .orderBy('currency')
    .execute();
  return rows.map(({ amount_micros, ...row }) => ({ ...row, amountMicros: Number(amount_micros) }));
}

/** The reported costs of each day of the range, summed per currency, in day and currency order (one grouped query). */
export async function readDailyCostTotals(db: Kysely<Schema>, range: ReportRange): Promise<{ day: string; currency: string; amountMicros: number }[]> {
  const { from, to } = checkedRange(range);
  const rows = await db
    .selectFrom('costs')
    .select((eb) => ['day', 'currency', eb.fn.sum<number | string | bigint>('amount_micros').as('amount_micros')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'currency'])
    .orderBy('day')
    .orderBy('currency')
    .execute();
  return rows.map(({ day, currency, amount_micros }) => ({ day, currency, amountMicros: Number(amount_micros) }));
}

const toRule = (row: Record<string, unknown>): FixedCost => ({
  id: Number(row.id),
  source: String(row.source),
  campaign: String(row.campaign),
  from: String(row.from_day),
  to: String(row.to_day),
  dailyMicros: row.daily_micros === null ? null : Number(row.daily_micros),
  perVisitorMicros: row.per_visitor_micros === null ? null : Number(row.per_visitor_micros),
  currency: String(row.currency),
  createdAt: Number(row.created_at),
});

/** Every fixed-cost rule, oldest first. The operator writes them by hand, so they are few. */
export async function listFixedCosts(db: Kysely<Schema>): Promise<FixedCost[]> {
  return (await db.selectFrom('fixed_costs').selectAll().orderBy('id').execute()).map(toRule);
}

/**
 * Adds a fixed-cost rule and resolves to it. A rule whose days overlap another of the same source and
 * campaign is refused (FixedCostOverlapError): two would count those days twice. Checked and written in
 * one transaction, which on PostgreSQL first locks the rules against other writers (SQLite's one writer
 * at a time does the same), so two rules set at the same moment cannot both pass.
 */
export async function setFixedCost(db: Kysely<Schema>, rule: FixedCostRule, now: Date = new Date()): Promise<FixedCost> {
  return db.transaction().execute(async (trx) => {
    // Two operators adding overlapping rules at the same moment: the second waits for the first, then sees it.
    if (engineOf(db) === 'postgres') await sql`lock table fixed_costs in share row exclusive mode`.execute(trx);
    const overlapping = await trx
      .selectFrom('fixed_costs')
      .selectAll()
      .where('source', '=', rule.source)
      .where('campaign', '=', rule.campaign)
      .where('from_day', '<=', rule.to)
      .where('to_day', '>=', rule.from)
      .orderBy('id')
      .executeTakeFirst();
    if (overlapping) throw new FixedCostOverlapError(toRule(overlapping));
    const inserted = await trx
      .insertInto('fixed_costs')
      .values({
        source: rule.source,
        campaign: rule.campaign,
        from_day: rule.from,
        to_day: rule.to,
        daily_micros: rule.dailyMicros,
        per_visitor_micros: rule.perVisitorMicros,
        currency: rule.currency,
        created_at: now.getTime(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRule(inserted);
  });
}

/** Removes a rule; false when there was none with that ID. */
export async function removeFixedCost(db: Kysely<Schema>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('fixed_costs').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * What the fixed-cost rules come to on each day of the range, as cost rows (content '', the whole source
 * or campaign): a daily amount on every day the rule covers; an amount per visitor times that day's
 * visitors of the source, read from the day counts (closed days' totals, and the open days' rows as
 * every report counts them), so the read costs what the days and sources cost, not what the traffic does.
 * A day without visitors costs nothing under a per-visitor rule and gives no row.
 */
export async function readFixedCostDays(db: Kysely<Schema>, range: ReportRange): Promise<CostRow[]> {
  const { from, to } = checkedRange(range);
  const rules = await db.selectFrom('fixed_costs').selectAll().where('from_day', '<=', to).where('to_day', '>=', from).orderBy('id').execute();
  if (rules.length === 0) return [];
  const fixed = rules.map(toRule);
  const visitors = new Map<string, number>();
  if (fixed.some((rule) => rule.perVisitorMicros !== null)) {
    const dayCounts = await readDayCounts(db, from, to);
    const sources = new Set(fixed.filter((rule) => rule.perVisitorMicros !== null).map((rule) => rule.source));
    for (const row of await readPerDay(db, 'source', { from, to }, dayCounts)) if (sources.has(row.value)) visitors.set(JSON.stringify([row.day, row.value]), row.visitors);
  }
  const rows: CostRow[] = [];
  for (const rule of fixed) {
    const last = rule.to < to ? rule.to : to;
    for (let day = rule.from > from ? rule.from : from; day <= last; day = addDays(day, 1)) {
      const amountMicros = rule.dailyMicros ?? (rule.perVisitorMicros ?? 0) * (visitors.get(JSON.stringify([day, rule.source])) ?? 0);
      if (rule.dailyMicros === null && amountMicros === 0) continue;
      rows.push({ day, source: rule.source, campaign: rule.campaign, content: '', amountMicros, currency: rule.currency });
    }
  }
  return rows.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** The costs the site keeps, on one open database (wired in server/statsStores.ts). */
export interface CostStore {
  replaceCosts(rows: readonly CostRow[], now?: Date): Promise<CostWriteCounts>;
  readCosts(range: ReportRange): Promise<CostRow[]>;
  readFixedCostDays(range: ReportRange): Promise<CostRow[]>;
  setFixedCost(rule: FixedCostRule, now?: Date): Promise<FixedCost>;
  listFixedCosts(): Promise<FixedCost[]>;
  removeFixedCost(id: number): Promise<boolean>;
}

export function createCostStore(db: Kysely<Schema>): CostStore {
  return {
    replaceCosts: (rows, now) => replaceCosts(db, rows, now),
    readCosts: (range) => readCosts(db, range),
    readFixedCostDays: (range) => readFixedCostDays(db, range),
    setFixedCost: (rule, now) => setFixedCost(db, rule, now),
    listFixedCosts: () => listFixedCosts(db),
    removeFixedCost: (id) => removeFixedCost(db, id),
  };
}
