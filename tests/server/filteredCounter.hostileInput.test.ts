import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { createFilteredCounter, maxFilteredKeys } from '../../server/beacons/filteredCounter';
import { filteredBeacons, filterReasons } from '../../server/dayCounts/filterReasons';
import type { Schema } from '../../server/db/schema';
import { createStatsStores, type StatsStores } from '../../server/statsStores';
import { browserUserAgent, sendReport } from '../support/beaconReports';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { headerText } from '../support/hostileInput';
import { createTestApp, testSiteUrl } from '../support/testApp';

/**
 * However many hostile reports arrive, and however long the database refuses the flushes, the filtered
 * counter holds at most its bound, never throws, and loses nothing it does not say it lost: every report
 * is either recorded or counted under a reason (tests/support/hostileInput.ts says how to replay a failure).
 */

const sumOf = async (db: Kysely<Schema>) => {
  const rows = await db.selectFrom('filtered_counts').select('count').execute();
  return rows.reduce((sum, row) => sum + Number(row.count), 0);
};

describe('the filtered counter under a flood', () => {
  let database: TestEngineDatabase;
  beforeEach(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterEach(() => database.close());

  it('holds at most its bound, never throws, and writes or reports as lost every count, while the database goes down and up', async () => {
    const db = database.database.db;
    const maxKeys = 24;
    const operation = fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('count' as const),
          beacon: fc.constantFrom(...filteredBeacons),
          reason: fc.constantFrom(...filterReasons),
          // Any moment at all, a few invalid ones among them.
          at: fc.oneof({ arbitrary: fc.date({ min: new Date('2026-01-01'), max: new Date('2026-03-01') }), weight: 4 }, fc.date()),
        }),
        weight: 8,
      },
      fc.constant({ kind: 'flush' as const }),
      fc.constant({ kind: 'down' as const }),
      fc.constant({ kind: 'up' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 300 }), async (operations) => {
        await db.deleteFrom('filtered_counts').execute();
        const counter = createFilteredCounter(db, { maxKeys });
        let counted = 0;
        let down = false;
        const setDown = async (wanted: boolean) => {
          if (down === wanted) return;
          await db.schema.alterTable(down ? 'filtered_counts_away' : 'filtered_counts').renameTo(down ? 'filtered_counts' : 'filtered_counts_away').execute();
          down = wanted;
        };
        for (const step of operations) {
          if (step.kind === 'count') {
            counter.count(step.beacon, step.reason, step.at);
            counted += 1;
          } else if (step.kind === 'flush') {
            expect(await counter.flush()).toBe(!down || counter.held === 0);
          } else {
            await setDown(step.kind === 'down');
          }
          expect(counter.held).toBeLessThanOrEqual(maxKeys);
        }
        await setDown(false);
        expect(await counter.flush()).toBe(true);
        expect((await sumOf(db)) + counter.lost).toBe(counted);
      }),
      { numRuns: 60 },
    );
  });

  describe('from hostile requests to both beacons', () => {
    let stores: StatsStores;
    let app: Awaited<ReturnType<typeof createTestApp>>;
    beforeEach(async () => {
      stores = createStatsStores(database.database);
      app = await createTestApp({ TRUST_PROXY: 'true' }, { stores });
    });

    const endpoint = fc.constantFrom('/api/clicks', '/api/views');
    const body = fc.oneof(
      fc.constantFrom(
        JSON.stringify({ placement: 'hero', page: '/', referrer: '' }),
        JSON.stringify({ page: '/', referrer: '', source: 'direct', medium: '', campaign: '' }),
        '{',
        '',
        'null',
        'x'.repeat(2000),
      ),
      fc.string({ maxLength: 40 }),
      fc.json({ maxDepth: 2 }),
    );
    const headers = fc.record(
      {
        'User-Agent': fc.oneof({ arbitrary: fc.constant(browserUserAgent), weight: 4 }, fc.constantFrom('Googlebot/2.1', 'HeadlessChrome', 'curl/8.0', ''), headerText(30)),
        Origin: fc.oneof({ arbitrary: fc.constant(testSiteUrl), weight: 3 }, fc.constantFrom('https://elsewhere.example', 'null', 'not a url'), headerText(30)),
        'Sec-Fetch-Site': fc.constantFrom('same-origin', 'cross-site', 'none'),
        'Sec-Purpose': fc.oneof(fc.constantFrom('prefetch', 'prefetch;prerender'), headerText(10)),
        'Sec-GPC': fc.constantFrom('1', '0', ''),
        DNT: fc.constantFrom('1', '0'),
        'Content-Encoding': fc.constantFrom('gzip', 'identity'),
        'X-Forwarded-For': fc.oneof(fc.constantFrom('203.0.113.9', '2001:db8::1'), fc.ipV4(), headerText(20)),
      },
      { requiredKeys: [] },
    );

    it('answers each without a 5xx, holds one day of keys, and counts every report it does not record', async () => {
      const db = database.database.db;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(endpoint, body, headers), { minLength: 1, maxLength: 25 }), async (reports) => {
          await Promise.all((['clicks', 'views', 'filtered_counts'] as const).map((table) => db.deleteFrom(table).execute()));
          for (const [path, text, extra] of reports) {
            const response = await sendReport(app, path, text, extra as Record<string, string>);
            expect(response.status).toBeLessThan(500);
            // Today's keys, or today's and tomorrow's across midnight.
            expect(stores.filtered.held).toBeLessThanOrEqual(2 * filteredBeacons.length * filterReasons.length);
          }
          expect(await stores.filtered.flush()).toBe(true);
          const recorded = (await db.selectFrom('clicks').select('id').execute()).length + (await db.selectFrom('views').select('id').execute()).length;
          expect(recorded + (await sumOf(db))).toBe(reports.length);
          expect(stores.filtered.lost).toBe(0);
        }),
        { numRuns: 20 },
      );
    });
  });

  it('has a bound the size of 100 days of every key', () => {
    expect(maxFilteredKeys).toBe(100 * filteredBeacons.length * filterReasons.length);
  });
});
