import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { createClickStore } from '../../server/clicks/clickStore';
import { formatPayout, parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore, readConversionTotals, type ConversionChannel, type ConversionOutcome, type ConversionStore } from '../../server/conversions/conversionStore';
import { readPlacementDaySums, readSourceDaySums, readSourceSums } from '../../server/dayCounts/conversionSums';
import { readCampaignConversionCounts } from '../../server/dayCounts/funnelQueries';
import type { ReportRange } from '../../server/dayCounts/reportRange';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { openDatabase } from '../../server/db/openDatabase';
import type { Schema } from '../../server/db/schema';
import { silentLogger } from '../../server/lib/logger';
import { addDays, dayStart } from '../../server/lib/utcDay';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { campaignCountedRows, conversionSumsHeldAndDue, placementDayKey, readRawConversionCounts, rowLines, sourceDayKey, summedLines, type CountedRow } from '../support/conversionSums';
import { engines, openTestDatabase } from '../support/engines';
import { databaseAtSchema } from '../support/databaseAtSchema';
import { inParallel } from '../support/standInNetwork';

/**
 * Migration 14: the counted conversions summed ahead of the reports, per day and placement, per day and
 * source and per month and source, kept by triggers. Whatever was written (postbacks and imports, sales,
 * repeats, refunds in and out of order, the fold past retention, rows written beside the store), the sums
 * held are the conversions and folded days held, counted; the report's reads of any range say what the
 * raw read of that range says; the migration counts what was there before it; and two instances writing
 * at once on PostgreSQL add side by side.
 */

const firstDay = '2025-12-20';
const span = 110; // to 2026-04-08: part of December, January to March whole, part of April
const hour = 3_600_000;
const momentOf = (offset: number, hours: number) => new Date(dayStart(addDays(firstDay, offset)) + hours * hour + 17 * 60_000);

function report(fields: ConversionFields) {
  const parsed = parseConversion(fields);
  if (parsed.error) throw new Error(parsed.error.message);
  return parsed.report;
}

const placement = fc.constantFrom<AffiliatePlacement>('hero', 'bonus', 'explainer');
const source = fc.constantFrom('google', 'newsletter', null);
const day = fc.integer({ min: -4, max: span - 1 });
const poolTxid = fc.integer({ min: 0, max: 24 }).map((n) => `T-${n}`);
const payout = fc.option(fc.integer({ min: 0, max: 250_000_000 }).map(formatPayout), { nil: undefined });
const via = fc.constantFrom<ConversionChannel>('postback', 'import');

/** A click recorded before the conversions: its click ID then names it, and a sale copies its day and source. */
const campaign = fc.option(fc.constantFrom('spring', 'repo-tx'), { nil: null });
const content = fc.option(fc.constantFrom('ad-a', 'ad-b'), { nil: null });
const clickSpec = fc.record({ placement, source, campaign, content, day, hours: fc.integer({ min: 0, max: 23 }) });

/** What a sale's sub-ID carries: nothing, a bare placement, a recorded click's ID, a click ID never recorded, or text naming nothing. */
const subid = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('placement' as const), name: fc.constantFrom('hero', 'BONUS', 'start-learning') }),
  fc.record({ kind: fc.constant('click' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('unknown click' as const), placement }),
  fc.constant({ kind: 'text' as const }),
);

const directRow = fc.record({
  placement: fc.option(placement, { nil: null }),
  source,
  campaign,
  content,
  clickDay: fc.option(day, { nil: null }),
  day,
  payoutMicros: fc.option(fc.integer({ min: 0, max: 90_000_000 }), { nil: null }),
  currency: fc.constantFrom('USD', 'EUR'),
  reversed: fc.boolean(),
});

const dailyRow = fc.record({
  day: fc.integer({ min: 0, max: 12 }).map((n) => n * 9 - 4),
  placement: fc.constantFrom('', 'hero', 'bonus'),
  source: fc.constantFrom('', 'google'),
  currency: fc.constantFrom('USD', 'EUR'),
  conversions: fc.integer({ min: 1, max: 5 }),
  payoutMicros: fc.integer({ min: 0, max: 50_000_000 }),
});

const operation = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('sale' as const), txid: poolTxid, subid, payout, currency: fc.constantFrom('USD', 'USD', 'EUR', 'eur', 'GBP'), day, hours: fc.integer({ min: 0, max: 23 }), via }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reversal' as const), txid: poolTxid, status: fc.constantFrom('refund', 'chargeback'), day, hours: fc.integer({ min: 0, max: 23 }), via }) },
  // now: from about when the first days pass retention (180 days) to when every day has.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fold' as const), retentionDays: fc.constantFrom(30, 180, 200), nowDay: fc.integer({ min: 170, max: span + 200 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert' as const), row: directRow }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('daily' as const), row: dailyRow }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      txid: poolTxid,
      change: fc.oneof(
        fc.constant({ to: 'unreversed' as const }),
        fc.record({ to: fc.constant('payout' as const), payoutMicros: fc.option(fc.integer({ min: 0, max: 9_000_000 }), { nil: null }) }),
        fc.record({ to: fc.constant('click' as const), clickDay: fc.option(day, { nil: null }), source, placement: fc.option(placement, { nil: null }) }),
      ),
    }),
  },
);

type OperationOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type Operation = OperationOf<typeof operation>;
type DailyRow = OperationOf<typeof dailyRow>;

/** Ranges over the span and a little around it: within a month, across one boundary, and with whole months inside. */
const range = fc
  .tuple(fc.integer({ min: -6, max: span + 3 }), fc.integer({ min: 0, max: span + 5 }))
  .map(([start, length]): ReportRange => ({ from: addDays(firstDay, start), to: addDays(firstDay, start + length) }));

/** Ranges every run reads: the whole span (three whole months, a part at each end), one whole month, part of one, a boundary, two part months. */
const fixedRanges: ReportRange[] = [
  { from: '2025-12-01', to: '2026-04-30' },
  { from: '2025-12-24', to: '2026-04-03' },
  { from: '2026-02-01', to: '2026-02-28' },
  { from: '2026-02-03', to: '2026-02-17' },
  { from: '2026-01-31', to: '2026-02-01' },
  { from: '2026-01-15', to: '2026-02-14' },
  { from: '2026-01-01', to: '2026-03-10' },
];

let directRows = 0;

async function insertDirect(db: Kysely<Schema>, row: OperationOf<typeof directRow>): Promise<void> {
  const at = momentOf(row.day, 9).getTime();
  await db
    .insertInto('conversions')
    .values({
      txid: `direct-${(directRows += 1)}`,
      subid: row.placement,
      click_id: null,
      placement: row.placement,
      payout_micros: row.payoutMicros,
      currency: row.currency,
      status: row.reversed ? 'refund' : 'sale',
      received_at: at,
      day: addDays(firstDay, row.day),
      reversed_at: row.reversed ? at : null,
      click_day: row.clickDay === null ? null : addDays(firstDay, row.clickDay),
      source: row.source,
      campaign: row.campaign,
      content: row.content,
    })
    .execute();
}

/** Adds a folded day's figures as the fold does: an upsert that adds to the day's row when there is one. */
async function addDaily(db: Kysely<Schema>, row: DailyRow): Promise<void> {
  await db
    .insertInto('daily_conversions')
    .values({ day: addDays(firstDay, row.day), placement: row.placement, source: row.source, currency: row.currency, conversions: row.conversions, payout_micros: row.payoutMicros })
    .onConflict((conflict) =>
      conflict.columns(['day', 'placement', 'source', 'currency']).doUpdateSet((eb) => ({
        conversions: eb('daily_conversions.conversions', '+', eb.ref('excluded.conversions')),
        payout_micros: eb('daily_conversions.payout_micros', '+', eb.ref('excluded.payout_micros')),
      })),
    )
    .execute();
}

async function apply(db: Kysely<Schema>, store: ConversionStore, clickIds: readonly string[], op: Operation): Promise<void> {
  switch (op.kind) {
    case 'sale': {
      const sent =
        op.subid.kind === 'placement'
          ? op.subid.name
          : op.subid.kind === 'click'
            ? clickIds[op.subid.index % Math.max(clickIds.length, 1)]
            : op.subid.kind === 'unknown click'
              ? newClickId(op.subid.placement)
              : op.subid.kind === 'text'
                ? 'aff-7731'
                : undefined;
      await store.record(report({ txid: op.txid, subid: sent, payout: op.payout, currency: op.currency }), op.via, momentOf(op.day, op.hours));
      return;
    }
    case 'reversal':
      await store.record(report({ txid: op.txid, status: op.status }), op.via, momentOf(op.day, op.hours));
      return;
    case 'fold':
      await store.foldOldConversions(op.retentionDays, momentOf(op.nowDay, 3));
      return;
    case 'insert':
      return insertDirect(db, op.row);
    case 'daily':
      return addDaily(db, op.row);
    case 'update': {
      const { change } = op;
      const update = db.updateTable('conversions').where('txid', '=', op.txid);
      if (change.to === 'unreversed') await update.set({ reversed_at: null, status: 'sale' }).execute();
      else if (change.to === 'payout') await update.set({ payout_micros: change.payoutMicros }).execute();
      else await update.set({ click_day: change.clickDay === null ? null : addDays(firstDay, change.clickDay), source: change.source, placement: change.placement }).execute();
      return;
    }
  }
}

/** What the raw read of a range says, and what the sums' three reads say, each at the sums' grain. */
async function rangeReads(db: Kysely<Schema>, range: ReportRange) {
  const raw: CountedRow[] = await readRawConversionCounts(db, range);
  const [placementDays, sourceDays, sources, campaigns, campaignRows] = await Promise.all([
    readPlacementDaySums(db, range),
    readSourceDaySums(db, range),
    readSourceSums(db, range),
    readCampaignConversionCounts(db, range),
    campaignCountedRows(db),
  ]);
  const campaignKey = (row: { source: string; campaign: string; content: string; currency: string }) => [row.source, row.campaign, row.content, row.currency];
  return {
    due: {
      placementDays: summedLines(raw, placementDayKey),
      sourceDays: summedLines(raw, sourceDayKey),
      sources: summedLines(raw, (row) => [row.source, row.currency]),
      campaigns: summedLines(
        campaignRows.filter((row) => row.day >= range.from && row.day <= range.to),
        campaignKey,
      ),
    },
    read: {
      placementDays: rowLines(placementDays, placementDayKey),
      sourceDays: rowLines(sourceDays, sourceDayKey),
      sources: rowLines(sources, (row) => [row.source, row.currency]),
      campaigns: rowLines(campaigns, campaignKey),
    },
  };
}

async function expectSumsKept(db: Kysely<Schema>): Promise<void> {
  const { held, due } = await conversionSumsHeldAndDue(db);
  expect(held).toEqual(due);
}

describe.each(engines)('the conversions summed ahead on %s', (engine) => {
  it('are the counted conversions after any writes, and the range reads say what the raw read says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(clickSpec, { maxLength: 6, size: 'medium' }),
        fc.array(operation, { minLength: 1, maxLength: 50, size: 'medium' }),
        fc.array(range, { minLength: 2, maxLength: 4 }),
        dailyRow,
        async (clicks, operations, ranges, twiceAdded) => {
          const opened = await openTestDatabase(engine);
          try {
            const db = opened.database.db;
            const clickStore = createClickStore(db);
            const clickIds: string[] = [];
            for (const [index, click] of clicks.entries()) {
              const clickId = newClickId(click.placement);
              clickIds.push(clickId);
              await clickStore.record({ at: momentOf(click.day, click.hours), placement: click.placement, page: '/', referrerHost: null, device: 'mobile', visitor: `v${index}`, via: 'beacon', clickId, source: click.source, campaign: click.campaign, content: click.content });
            }
            const store = createConversionStore(db);
            // Every run has a refund of a txid never sold, and a folded day's row added to twice.
            expect(await store.record(report({ txid: 'never-sold', status: 'refund' }), 'postback', momentOf(3, 1))).toBe('unknown txid');
            for (const op of operations) await apply(db, store, clickIds, op);
            await addDaily(db, twiceAdded);
            await addDaily(db, twiceAdded);

            await expectSumsKept(db);
            for (const each of [...ranges, ...fixedRanges]) {
              const { due, read } = await rangeReads(db, each);
              expect({ range: each, ...read }).toEqual({ range: each, ...due });
            }
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: engine === 'sqlite' ? 40 : 10 },
    );
  });

  it('are filled by the migration from the conversions and folded days held before it, and kept from then on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(directRow, { minLength: 1, maxLength: 30 }), fc.array(dailyRow, { maxLength: 8 }), async (rows, dailyRows) => {
        const legacy = await databaseAtSchema(engine, 13);
        try {
          const db = legacy.db as Kysely<Schema>;
          for (const row of rows) await insertDirect(db, row);
          for (const row of dailyRows) await addDaily(db, row);
          // A sale through the store as schema 13 recorded it, its click's day and source copied.
          const clickId = newClickId('bonus');
          await createClickStore(db).record({ at: momentOf(30, 20), placement: 'bonus', page: '/', referrerHost: null, device: 'desktop', visitor: 'v', via: 'ping', clickId, source: 'newsletter' });
          await createConversionStore(db).record(report({ txid: 'before', subid: clickId, payout: '31.5', currency: 'EUR' }), 'postback', momentOf(44, 2));

          expect(await migrate(db, engine)).toBe(migrations.length);
          const { held, due } = await conversionSumsHeldAndDue(db);
          expect(held).toEqual(due);
          // The sale is under its click's day and source.
          expect(held.days.some((line) => line.startsWith(`${addDays(firstDay, 30)}|bonus|EUR `))).toBe(true);
          expect(held.sourceDays.some((line) => line.startsWith(`${addDays(firstDay, 30)}|newsletter|EUR `))).toBe(true);

          // From then on the triggers keep them: the sale refunded, another recorded, the old days folded.
          const store = createConversionStore(db);
          await store.record(report({ txid: 'before', status: 'refund' }), 'postback', momentOf(60, 2));
          await store.record(report({ txid: 'after', subid: 'hero', payout: '4' }), 'import', momentOf(61, 2));
          await store.foldOldConversions(180, momentOf(50 + 180, 0));
          await expectSumsKept(db);
          for (const each of fixedRanges) {
            const { due: rangeDue, read } = await rangeReads(db, each);
            expect(read).toEqual(rangeDue);
          }
        } finally {
          await legacy.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 15 : 4 },
    );
  });
});

describe('two instances recording at once on one PostgreSQL database', () => {
  /** The test database and a second connection to it, as a second instance opens it; each with its conversion store. */
  async function twoInstances() {
    const opened = await openTestDatabase('postgres');
    const second = await openDatabase({ engine: 'postgres', url: opened.url! }, { logger: silentLogger });
    return {
      db: opened.database.db,
      stores: [createConversionStore(opened.database.db), createConversionStore(second.db)] as const,
      close: async () => {
        await second.close();
        await opened.close();
      },
    };
  }

  /** Clicks on the two days around a month's end, of two placements and three sources, so the sales contend for the same sums' rows. */
  async function recordClicks(db: Kysely<Schema>, count: number): Promise<string[]> {
    const clicks = createClickStore(db);
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      const clickPlacement: AffiliatePlacement = index % 2 === 0 ? 'hero' : 'bonus';
      const clickId = newClickId(clickPlacement);
      ids.push(clickId);
      await clicks.record({
        at: new Date(Date.parse('2026-01-31T10:00:00Z') + (index % 3) * 12 * hour),
        placement: clickPlacement,
        page: '/',
        referrerHost: null,
        device: 'mobile',
        visitor: `v${index}`,
        via: 'beacon',
        clickId,
        source: [null, 'google', 'newsletter'][index % 3],
      });
    }
    return ids;
  }

  it('keep the sums of many sales, repeats and refunds sent to both at once', async () => {
    const { db, stores, close } = await twoInstances();
    try {
      const clickIds = await recordClicks(db, 12);
      const sales = 500;
      const calls: Array<() => Promise<{ txid: string; status: string; outcome: ConversionOutcome }>> = [];
      const send = (instance: number, txid: string, fields: ConversionFields, at: Date) =>
        calls.push(async () => ({ txid, status: fields.status ?? 'sale', outcome: await stores[instance % 2]!.record(report({ txid, ...fields }), 'postback', at) }));
      for (let index = 0; index < sales; index++) {
        const txid = `C-${index}`;
        const at = new Date(Date.parse('2026-01-31T20:00:00Z') + (index % 8) * hour);
        const sale: ConversionFields = {
          subid: index % 3 === 0 ? (index % 2 === 0 ? 'hero' : 'bonus') : clickIds[index % clickIds.length],
          payout: index % 5 === 0 ? undefined : `${(index % 7) + 1}.25`,
          currency: index % 4 === 0 ? 'EUR' : 'USD',
        };
        send(index, txid, sale, at);
        if (index % 5 === 0) send(index + 1, txid, sale, at); // the network's retry, at the other instance
        if (index % 4 === 1) send(index + 1, txid, { status: index % 8 === 1 ? 'refund' : 'chargeback' }, new Date(at.getTime() + hour)); // racing its sale
      }
      // 40 at once, as networks send (each a transaction on one of the two pools' 10 connections): all 725 at
      // once queued the last ones past the pool's 5 s wait for a connection on a busy machine. A repeat or a
      // refund is sent right beside its sale, so the two still race.
      const outcomes = await inParallel(calls, 40);

      await expectSumsKept(db);
      const refunded = new Set(outcomes.filter((each) => each.status !== 'sale').map((each) => each.txid));
      expect(refunded.size).toBe(sales / 4);
      for (const each of outcomes) {
        if (each.status === 'sale') expect(['recorded', 'duplicate']).toContain(each.outcome);
        else expect(['reversed', 'unknown txid']).toContain(each.outcome);
      }
      const recorded = outcomes.filter((each) => each.outcome === 'recorded').map((each) => each.txid);
      expect(new Set(recorded).size).toBe(recorded.length);
      expect((await readConversionTotals(db)).conversions).toBe(sales - refunded.size);
      const { due, read } = await rangeReads(db, { from: '2026-01-01', to: '2026-02-28' });
      expect(read).toEqual(due);
      expect(read.sources.length).toBeGreaterThan(3);
    } finally {
      await close();
    }
  });

  it('leave nothing counted of a sale and its refund sent to the two at the same moment', async () => {
    const { db, stores, close } = await twoInstances();
    try {
      const clickIds = await recordClicks(db, 6);
      const pairs = 150;
      const at = new Date('2026-02-01T08:00:00Z');
      // 20 pairs at once (as above, within the pools' wait for a connection); each sale and its refund together.
      const outcomes = await inParallel(
        Array.from({ length: pairs }, (_, index) => () =>
          Promise.all([
            stores[index % 2]!.record(report({ txid: `R-${index}`, subid: clickIds[index % clickIds.length], payout: '19.99' }), 'postback', at),
            stores[(index + 1) % 2]!.record(report({ txid: `R-${index}`, status: 'refund' }), 'postback', at),
          ]),
        ),
        20,
      );

      // Whichever came first: the sale recorded then reversed, or the refund kept as reversed and the sale a repeat of it.
      for (const [sale, refund] of outcomes) expect([['recorded', 'reversed'], ['duplicate', 'unknown txid']]).toContainEqual([sale, refund]);
      await expectSumsKept(db);
      const { held } = await conversionSumsHeldAndDue(db);
      expect(held).toEqual({ days: [], sourceDays: [], sourceMonths: [], campaignMonths: [] });
      expect(await db.selectFrom('conversions').where('reversed_at', 'is', null).select('txid').execute()).toEqual([]);
    } finally {
      await close();
    }
  });

  it('fold old sales while their refunds arrive at the other instance without a deadlock, counting the sales not refunded before it', async () => {
    const { db, stores, close } = await twoInstances();
    try {
      // Received in mid-January; folded at the end of July (180 days on) while each is refunded elsewhere.
      const old = Date.parse('2026-01-10T10:00:00Z');
      const sales = 300;
      for (let index = 0; index < sales; index++) {
        await stores[0].record(report({ txid: `O-${index}`, subid: index % 2 ? 'hero' : 'bonus', payout: '3' }), 'postback', new Date(old + (index % 5) * 86_400_000));
      }
      const now = new Date('2026-07-30T00:00:00Z');
      const [fold, ...refunds] = await Promise.allSettled([
        stores[0].foldOldConversions(180, now),
        ...Array.from({ length: sales }, (_, index) => stores[1].record(report({ txid: `O-${sales - 1 - index}`, status: 'refund' }), 'postback', now)),
      ]);
      // Before the fix the fold locked the sums' rows and then the conversions', a refund the other way round:
      // PostgreSQL found a deadlock in every run and failed the fold and some refunds.
      expect(fold).toEqual({ status: 'fulfilled', value: expect.any(Number) });
      expect(refunds.filter((each) => each.status === 'rejected')).toEqual([]);
      // A refund that came before the fold reversed its sale, which the fold then left out. One that waited for
      // the fold found its sale folded into the day's totals, as it always has past the 180 days: 'already
      // reversed' when it waited on the row, 'unknown txid' when it came after. The fold counted exactly the
      // sales not reversed before it, and the sums say the same.
      const outcomes = refunds.map((each) => (each.status === 'fulfilled' ? each.value : 'rejected'));
      for (const outcome of outcomes) expect(['reversed', 'already reversed', 'unknown txid']).toContain(outcome);
      const reversedFirst = outcomes.filter((outcome) => outcome === 'reversed').length;
      const folded = await db.selectFrom('daily_conversions').select((eb) => eb.fn.sum<number>('conversions').as('conversions')).executeTakeFirst();
      expect(Number(folded?.conversions ?? 0)).toBe(sales - reversedFirst);
      await expectSumsKept(db);
    } finally {
      await close();
    }
  });
});
