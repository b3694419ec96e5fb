import { sql, type Kysely, type Transaction } from 'kysely';
import { engineOf } from '../db/engineOf';
import type { Schema } from '../db/schema';
import { addDays, dayMs, dayStart } from '../lib/utcDay';
import { readDayCounts } from '../dayCounts/dayCounts';
import { readPerDay } from '../dayCounts/funnelQueries';
import { maxReportDays, type ReportRange } from '../dayCounts/reportRange';
import type { CostRow } from './costRow';
import { rangeCostRows, readDailyCostSums, setCostSums, takeCostWritersTurn } from './costSums';

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

/**
 * SQLite only: how long one transaction of replaceCosts may hold the file's write lock, and the pause
 * after it before the next. SQLite lets one writer at a time write the whole file, and a click or page
 * view the server records meanwhile waits for the lock. An import in another process that kept the lock
 * for its whole year (one transaction of about a second for 109,500 rows) held the server's clicks that
 * long, and, while SQLite's busy timeout still waited in the serving thread, its pages too: `GET /` took up
 * to 2–3 s (scripts/bench/costsImport.ts; the server now waits between tries off its thread, see
 * server/db/sqliteLockWait.ts). With the lock held about this long and then left free longer than the
 * server waits between its tries (at most 8 ms), a waiting click gets the lock in the pause and waits one
 * slice at most. The price: the import's write takes about 1.75 times as long.
 */
const sqliteSliceMs = 40;
const sqlitePauseMs = 30;

const keyOf = (row: CostRow) => JSON.stringify([row.day, row.source, row.campaign, row.content, row.currency]);

/** One statement: the batch's rows set where new or other than held; resolves to the day of each row it set. */
async function writeBatch(trx: Transaction<Schema>, batch: readonly CostRow[], updatedAt: number): Promise<string[]> {
  // INSERT … ON CONFLICT DO UPDATE, never a read then a write: two writers of the same key at once would
  // both read "not held" and the second insert would fail on the key (a unique violation), or both read
  // an old amount and one overwrite the other's on stale knowledge. Here the database decides each row
  // under its own lock (PostgreSQL waits for the other's uncommitted row, then updates the committed one),
  // and `where the amount differs` leaves a row held with that amount untouched and uncounted.
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
  return written.map((row) => row.day);
}

/**
 * Sets each row's amount as the state of its day, source, campaign, ad and currency: a row not held is
 * added, one held with another amount is replaced, one held with the same amount is left (and its
 * updated_at too). Never adds to an amount, so the same report twice changes nothing and a corrected one
 * replaces. A key given twice in `rows` counts its last amount. Written a batch per statement, in key
 * order; two instances writing the same rows at once (in whatever order they were given) each meet the
 * other's row through the key, so the row is written once and only one of them counts it as changed, and
 * neither waits on the other in a circle.
 *
 * On PostgreSQL all of it is one transaction (row locks keep other writers going meanwhile). On SQLite it
 * is one transaction per slice of about 40 ms, with a pause after each (see sqliteSliceMs): the POST of a
 * thousand rows is one slice, a year's import about 30. An import cut short keeps the slices it committed,
 * which is safe because each row is a state: running it again sets the same amounts and adds nothing.
 *
 * onProgress is told the rows written so far of the distinct rows to write, after each batch (npm run costs:import's progress).
 */
export async function replaceCosts(db: Kysely<Schema>, rows: readonly CostRow[], now: Date = new Date(), onProgress?: (done: number, total: number) => void): Promise<CostWriteCounts> {
  const latest = new Map<string, CostRow>();
  for (const row of rows) latest.set(keyOf(row), row);
  // Written in key order, so two writers of overlapping rows lock them in the same order and never deadlock.
  const unique = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  const updatedAt = now.getTime();
  const sliced = engineOf(db) === 'sqlite';
  let changed = 0;
  let next = 0;
  while (next < unique.length) {
    if (next > 0) await new Promise((resolve) => setTimeout(resolve, sqlitePauseMs));
    changed += await db.transaction().execute(async (trx) => {
      const began = performance.now();
      const changedDays: string[] = [];
      let at = next;
      do {
        const batch = unique.slice(at, at + batchSize);
        changedDays.push(...(await writeBatch(trx, batch, updatedAt)));
        at += batch.length;
        onProgress?.(at, unique.length);
      } while (at < unique.length && !(sliced && performance.now() - began >= sqliteSliceMs));
      // The sums of the days and months this transaction changed, from the costs it sees (costSums.ts),
      // in turn with other writers, once its own rows are written.
      await takeCostWritersTurn(trx);
      await setCostSums(trx, changedDays);
      next = at;
      return changedDays.length;
    });
  }
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

/** The reported costs of one source, campaign ('' for the whole source) and ad ('' for the whole campaign) over a range, in one currency. */
export interface CostTotal {
  source: string;
  campaign: string;
  content: string;
  currency: string;
  amountMicros: number;
}

/**
 * The reported costs of the range summed per source, campaign, ad and currency, in that order: one grouped
 * query, whose rows are the sources, campaigns and ads that cost something, not the days, and which reads
 * the range's whole months already summed (costSums.ts). A source's total is the sum of its rows, a
 * campaign's of the rows that name it.
 */
export async function readCostTotals(db: Kysely<Schema>, range: ReportRange): Promise<CostTotal[]> {
  const { from, to } = checkedRange(range);
  const { rows } = await sql<{ source: string; campaign: string; content: string; currency: string; amount_micros: number | string }>`
    select source, campaign, content, currency, sum(amount_micros) as amount_micros from (${rangeCostRows({ from, to })}) as costs
    group by source, campaign, content, currency order by source, campaign, content, currency`.execute(db);
  return rows.map(({ amount_micros, ...row }) => ({ ...row, amountMicros: Number(amount_micros) }));
}

/** A day's reported costs in one currency, summed. */
export interface DailyCostTotal {
  day: string;
  currency: string;
  amountMicros: number;
}

/** The reported costs of each day of the range, summed per currency, in day and currency order (as costSums.ts keeps them). */
export async function readDailyCostTotals(db: Kysely<Schema>, range: ReportRange): Promise<DailyCostTotal[]> {
  return readDailyCostSums(db, checkedRange(range));
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
