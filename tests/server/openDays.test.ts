import fc from 'fast-check';
import pg from 'pg';
import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema';
import { OpenDayCounter, rebuildMs, settleMs, snapshot } from '../../server/dayCounts/openDays';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { engines, openTestDatabase } from '../support/engines';
import { waitUntil } from '../support/waitUntil';

const today = '2026-11-24';
const yesterday = '2026-11-23';
const noon = Date.parse(`${today}T12:00:00Z`);

const view = (day: string, at: number, visitor: string, source: string | null = 'newsletter') => ({
  at,
  day,
  page: '/',
  referrer_host: null,
  source,
  medium: null,
  campaign: null,
  device: 'mobile',
  visitor,
});
const click = (day: string, at: number, visitor: string, placement = 'hero') => ({
  at,
  day,
  placement,
  page: '/',
  referrer_host: 'www.google.com',
  device: 'desktop',
  visitor,
  via: 'beacon',
  source: 'google',
});

/** A batch of rows recorded up to `now`: some long before, some within the settling span. */
const batch = fc.array(
  fc.record({
    table: fc.constantFrom('views' as const, 'clicks' as const),
    day: fc.constantFrom(yesterday, today, today, today),
    secondsAgo: fc.integer({ min: 0, max: 600 }),
    visitor: fc.integer({ min: 0, max: 30 }).map((n) => `v${n}`),
    value: fc.integer({ min: 0, max: 12 }),
  }),
  { maxLength: 60 },
);

type Batch = typeof batch extends fc.Arbitrary<infer Rows> ? Rows : never;

async function insert(db: Kysely<Schema>, rows: Batch, now: number): Promise<void> {
  const at = (secondsAgo: number) => now - secondsAgo * 1000;
  const views = rows.filter((row) => row.table === 'views').map((row) => view(row.day, at(row.secondsAgo), row.visitor, row.value === 0 ? null : `source-${row.value}`));
  const clicks = rows.filter((row) => row.table === 'clicks').map((row) => click(row.day, at(row.secondsAgo), row.visitor, `placement-${row.value % 4}`));
  if (views.length > 0) await db.insertInto('views').values(views).execute();
  if (clicks.length > 0) await db.insertInto('clicks').values(clicks).execute();
}

/**
 * On PostgreSQL, waits until every transaction running on the server now has ended: rows settle once the
 * oldest running transaction is past the read's (PostgresMark), on the whole server, and the other test
 * files run beside this one on the same server. Without the wait, a row read while another file's
 * transaction ran did not settle at the read this file expected.
 */
async function transactionsRunningNowEnded(db: Kysely<Schema>): Promise<void> {
  const { xmax } = await snapshot(db);
  await waitUntil('the transactions running on the server to end', async () => (await snapshot(db)).xmin >= xmax);
}

describe.each(engines)('the open days counted between reports on %s', (engine) => {
  it('equal the open days counted from every raw row in one read, however the rows arrive between reports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(batch, fc.integer({ min: 1, max: 200 })), { minLength: 1, maxLength: 6 }), fc.boolean(), async (steps, closeYesterday) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          const counter = new OpenDayCounter();
          let now = noon;
          for (const [rows, secondsLater] of steps) {
            await insert(db, rows, now);
            // Closing yesterday moves the first open day on; the counter then forgets yesterday.
            const start = closeYesterday && now > noon ? today : yesterday;
            expect(await counter.read(db, start, now)).toEqual(await readRawDayCounts(db, start, today));
            now += secondsLater * 1000;
          }
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 25 : 8 },
    );
  });

  it('give each of several reads at once what it would alone, whatever day each starts on', async () => {
    await fc.assert(
      fc.asyncProperty(batch, batch, fc.array(fc.constantFrom(yesterday, today), { minLength: 2, maxLength: 5 }), async (first, second, starts) => {
        const opened = await openTestDatabase(engine);
        try {
          const db = opened.database.db;
          const counter = new OpenDayCounter();
          await insert(db, first, noon);
          await counter.read(db, yesterday, noon);
          await insert(db, second, noon + settleMs);
          // The worker answers reports concurrently: the warm-up, an /admin, the digest's two weeks.
          const together = await Promise.all(starts.map((start) => counter.read(db, start, noon + 2 * settleMs)));
          for (const [index, start] of starts.entries()) expect(together[index]).toEqual(await readRawDayCounts(db, start, today));
        } finally {
          await opened.close();
        }
      }),
      { numRuns: engine === 'sqlite' ? 20 : 6 },
    );
  });

  it('keep a row read and settled for good, until the counts are built anew', async () => {
    const opened = await openTestDatabase(engine);
    try {
      const db = opened.database.db;
      const counter = new OpenDayCounter();
      const all = (counts: Awaited<ReturnType<OpenDayCounter['read']>>) => counts.get('all')!.map(({ views, visitors }) => ({ views, visitors }));
      await db.insertInto('views').values([view(today, noon - 60_000, 'a'), view(today, noon - 1_000, 'b')]).execute();
      expect(all(await counter.read(db, today, noon))).toEqual([{ views: 2, visitors: 2 }]);
      // Settled (on PostgreSQL at the first read a second later with no transaction running), then deleted:
      if (engine === 'postgres') await transactionsRunningNowEnded(db);
      await counter.read(db, today, noon + settleMs);
      await db.deleteFrom('views').execute();
      expect(all(await counter.read(db, today, noon + 2 * settleMs))).toEqual([{ views: 2, visitors: 2 }]);
      // An hour on, the counts are built anew from the rows there are.
      expect(await counter.read(db, today, noon + rebuildMs + 3 * settleMs)).toEqual(await readRawDayCounts(db, today));
    } finally {
      await opened.close();
    }
  });
});

describe('the open days counted between reports on postgres', () => {
  it('count a row numbered before rows already read but committed after them', async () => {
    const opened = await openTestDatabase('postgres');
    const late = new pg.Client({ connectionString: opened.url });
    await late.connect();
    try {
      const db = opened.database.db;
      const counter = new OpenDayCounter();
      await db.insertInto('views').values(view(today, noon - 60_000, 'early')).execute();
      // A transaction takes the next id and has not committed when the next row is numbered and read.
      await late.query('begin');
      await late.query(`insert into views (at, day, page, source, device, visitor) values ($1, $2, '/', 'late', 'mobile', 'late')`, [noon - 30_000, today]);
      await db.insertInto('views').values(view(today, noon - 20_000, 'after')).execute();
      expect((await counter.read(db, today, noon)).get('all')![0]!.views).toBe(2);
      await late.query('commit');
      // Read again once every row has settled: the late row is counted, and only once.
      expect(await counter.read(db, today, noon + settleMs)).toEqual(await readRawDayCounts(db, today));
      expect((await counter.read(db, today, noon + settleMs + 1_000)).get('all')![0]).toMatchObject({ views: 3, visitors: 3 });
    } finally {
      await late.end();
      await opened.close();
    }
  });

  it('read again the rows numbered while another transaction was running, until it has ended', async () => {
    const opened = await openTestDatabase('postgres');
    const running = new pg.Client({ connectionString: opened.url });
    await running.connect();
    try {
      const db = opened.database.db;
      const counter = new OpenDayCounter();
      const views = async (at: number) => (await counter.read(db, today, at)).get('all')?.[0]?.views ?? 0;
      await running.query('begin');
      await running.query(`insert into views (at, day, page, device, visitor) values ($1, $2, '/', 'mobile', 'running')`, [noon, today]);
      await db.insertInto('views').values(view(today, noon, 'read')).execute();
      expect(await views(noon)).toBe(1);
      // Long after, but the transaction still runs: the row read is not settled, and its deletion shows.
      await db.deleteFrom('views').where('visitor', '=', 'read').execute();
      expect(await views(noon + 10 * settleMs)).toBe(0);
      await running.query('commit');
      expect(await views(noon + 11 * settleMs)).toBe(1);
      expect(await counter.read(db, today, noon + 12 * settleMs)).toEqual(await readRawDayCounts(db, today));
    } finally {
      await running.end();
      await opened.close();
    }
  });
});
