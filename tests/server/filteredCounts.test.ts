import path from 'node:path';
import request from 'supertest';
import { clickBeaconLimits } from '../../shared/clickBeacon';
import { viewBeaconLimits } from '../../shared/viewBeacon';
import type { Kysely } from 'kysely';
import { createFilteredCounter } from '../../server/beacons/filteredCounter';
import { filterReasons, type FilteredBeacon, type FilterReason } from '../../server/dayCounts/filterReasons';
import { openDatabase } from '../../server/db/openDatabase';
import type { Schema } from '../../server/db/schema';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { createRateLimiter } from '../../server/limits/rateLimiter';
import { silentLogger } from '../../server/lib/logger';
import { utcDay } from '../../server/lib/utcDay';
import { createStatsStores, type StatsStores } from '../../server/statsStores';
import { main as statsMain } from '../../scripts/stats';
import { adminToken, basicAuth } from '../support/adminApp';
import { cells, rowHeaded, tableCaptioned } from '../support/adminTables';
import { sendReport } from '../support/beaconReports';
import { engines, useTestDatabase } from '../support/engines';
import { parseHtml } from '../support/html';
import { useTempDir } from '../support/tempDir';
import { createTestApp } from '../support/testApp';

/**
 * What the beacons did not count, and why (server/dayCounts/filterReasons.ts): counted per day, beacon and
 * reason in memory (filteredCounter.ts), flushed into filtered_counts, and shown in the funnel report,
 * npm run stats and /admin.
 */

const temp = useTempDir();

const beacons = [
  { endpoint: '/api/clicks', beacon: 'click', valid: { placement: 'hero', page: '/', referrer: '' }, visitorLimiter: 'clickRateLimiter', maxBytes: clickBeaconLimits.maxBytes },
  { endpoint: '/api/views', beacon: 'view', valid: { page: '/', referrer: '', source: 'direct', medium: '', campaign: '' }, visitorLimiter: 'viewRateLimiter', maxBytes: viewBeaconLimits.maxBytes },
] as const;

type Row = { day: string; beacon: string; reason: string; count: number };

/** filtered_counts as rows with numbers (PostgreSQL reads bigint back as text), in key order. */
async function filteredRows(db: Kysely<Schema>): Promise<Row[]> {
  const rows = await db.selectFrom('filtered_counts').selectAll().orderBy('day').orderBy('beacon').orderBy('reason').execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

describe.each(engines)('reports not counted, on %s', (engine) => {
  const database = useTestDatabase(engine);

  describe.each(beacons)('POST $endpoint', ({ endpoint, beacon, valid, visitorLimiter, maxBytes }) => {
    let stores: StatsStores;
    let app: Awaited<ReturnType<typeof createTestApp>>;
    beforeEach(async () => {
      stores = createStatsStores(database.opened.database);
      // One report per visitor: the second is rate-limited.
      app = await createTestApp({ TRUST_PROXY: 'true' }, { stores, [visitorLimiter]: createRateLimiter({ burst: 1, refillMs: 3_600_000 }) });
    });

    /** Sends the reports, flushes, and expects one row for today with the count given. */
    async function expectCounted(reason: FilterReason, count: number, send: () => Promise<unknown>) {
      const before = utcDay(new Date());
      await send();
      expect(await stores.filtered.flush()).toBe(true);
      const rows = await filteredRows(database.db());
      // The day is the server's clock's: the one the test began on, or the next if it crossed midnight.
      expect(rows).toEqual([{ day: rows[0]?.day === before ? before : utcDay(new Date()), beacon, reason, count }]);
      expect(stores.filtered.held).toBe(0);
    }

    const post = (body: string | object = valid, headers: Record<string, string> = {}) => sendReport(app, endpoint, body, headers);

    it.each([
      ['bot', 'Googlebot', 204, { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
      ['bot', 'no user agent', 204, { 'User-Agent': '' }],
      ['prefetch', 'a prefetch', 204, { 'Sec-Purpose': 'prefetch' }],
      ['opted-out', 'Global Privacy Control', 204, { 'Sec-GPC': '1' }],
      ['opted-out', 'Do Not Track', 204, { DNT: '1' }],
      ['cross-site', "another site's page", 403, { Origin: 'https://elsewhere.example' }],
      ['cross-site', 'a cross-site fetch', 403, { 'Sec-Fetch-Site': 'cross-site' }],
    ] as const)('counts %s (%s), answered %d', async (reason, _name, status, headers) => {
      await expectCounted(reason, 1, () => post(valid, headers).expect(status));
    });

    it('counts unreadable and invalid reports as malformed (400)', async () => {
      await expectCounted('malformed', 3, async () => {
        await post('{"page":').expect(400);
        await post({ ...valid, page: '/nowhere' }).expect(400);
        await post('x', { 'Content-Encoding': 'gzip' }).expect(400);
      });
    });

    it('counts an oversized report as malformed (400)', async () => {
      await expectCounted('malformed', 1, () => post(JSON.stringify({ ...valid, padding: 'x'.repeat(maxBytes) })).expect(400));
    });

    it('counts a report past the rate limit as rate-limited (429), and not the one before it', async () => {
      await expectCounted('rate-limited', 2, async () => {
        await post().expect(204);
        await post().expect(429);
        await post().expect(429);
      });
    });

    it('counts nothing for a report it records', async () => {
      await post().expect(204);
      expect(stores.filtered.held).toBe(0);
      await stores.filtered.flush();
      expect(await filteredRows(database.db())).toEqual([]);
    });
  });

  describe('flushing', () => {
    const day = new Date('2026-11-20T12:00:00Z');

    it('adds up across two flushes', async () => {
      const counter = createFilteredCounter(database.db());
      counter.count('view', 'bot', day);
      counter.count('view', 'bot', day);
      await counter.flush();
      counter.count('view', 'bot', day);
      counter.count('click', 'bot', day);
      await counter.flush();
      expect(await filteredRows(database.db())).toEqual([
        { day: '2026-11-20', beacon: 'click', reason: 'bot', count: 1 },
        { day: '2026-11-20', beacon: 'view', reason: 'bot', count: 3 },
      ]);
    });

    it('adds up what two instances count, flushed at the same moment', async () => {
      const instances = [createFilteredCounter(database.db()), createFilteredCounter(database.db())];
      for (const [index, counter] of instances.entries()) {
        for (let i = 0; i <= index; i += 1) counter.count('click', 'rate-limited', day);
        counter.count('view', 'prefetch', new Date('2026-11-21T00:00:00Z'));
      }
      await Promise.all(instances.map((counter) => counter.flush()));
      instances[0]!.count('click', 'rate-limited', day);
      await Promise.all([instances[0]!.flush(), instances[1]!.flush()]);
      expect(await filteredRows(database.db())).toEqual([
        { day: '2026-11-20', beacon: 'click', reason: 'rate-limited', count: 4 },
        { day: '2026-11-21', beacon: 'view', reason: 'prefetch', count: 2 },
      ]);
    });

    it('counts by the UTC day of each report', async () => {
      const counter = createFilteredCounter(database.db());
      counter.count('view', 'malformed', new Date('2026-11-20T23:59:59.999Z'));
      counter.count('view', 'malformed', new Date('2026-11-21T00:00:00Z'));
      await counter.flush();
      expect((await filteredRows(database.db())).map((row) => [row.day, row.count])).toEqual([
        ['2026-11-20', 1],
        ['2026-11-21', 1],
      ]);
    });

    it('keeps the counts when the database does not take them, and adds them at the next flush', async () => {
      const counter = createFilteredCounter(database.db());
      counter.count('view', 'cross-site', day);
      await counter.flush();
      // The table out of reach: every write to it fails, as with the database down.
      await database.db().schema.alterTable('filtered_counts').renameTo('filtered_counts_away').execute();
      counter.count('view', 'cross-site', day);
      counter.count('click', 'opted-out', day);
      expect(await counter.flush()).toBe(false);
      expect(await counter.flush()).toBe(false);
      expect(counter.held).toBe(2);
      counter.count('view', 'cross-site', day);
      await database.db().schema.alterTable('filtered_counts_away').renameTo('filtered_counts').execute();
      expect(await counter.flush()).toBe(true);
      expect(counter.held).toBe(0);
      expect(await filteredRows(database.db())).toEqual([
        { day: '2026-11-20', beacon: 'click', reason: 'opted-out', count: 1 },
        { day: '2026-11-20', beacon: 'view', reason: 'cross-site', count: 3 },
      ]);
      expect(counter.lost).toBe(0);
    });

    it('holds at most its bound while the database is down, giving up the oldest days first', async () => {
      const counter = createFilteredCounter(database.db(), { maxKeys: 12 });
      await database.db().schema.alterTable('filtered_counts').renameTo('filtered_counts_away').execute();
      // 20 days of one key each, the flush failing after each day.
      for (let index = 0; index < 20; index += 1) {
        counter.count('click', 'bot', new Date(Date.UTC(2026, 10, 1 + index)));
        counter.count('click', 'bot', new Date(Date.UTC(2026, 10, 1 + index)));
        await counter.flush();
        expect(counter.held).toBeLessThanOrEqual(12);
      }
      // A late report of a day already given up is given up too, rather than pushing out a newer day.
      counter.count('click', 'bot', new Date(Date.UTC(2026, 10, 1)));
      expect(counter.lost).toBe(8 * 2 + 1);
      await database.db().schema.alterTable('filtered_counts_away').renameTo('filtered_counts').execute();
      await counter.flush();
      const rows = await filteredRows(database.db());
      expect(rows.map((row) => row.day)).toEqual(Array.from({ length: 12 }, (_, index) => utcDay(new Date(Date.UTC(2026, 10, 9 + index)))));
      expect(rows.every((row) => row.count === 2)).toBe(true);
    });

    it('gives up a report whose time is not a date, and never throws', async () => {
      const counter = createFilteredCounter(database.db());
      expect(() => counter.count('view', 'bot', new Date(Number.NaN))).not.toThrow();
      expect(counter.lost).toBe(1);
      expect(counter.held).toBe(0);
    });
  });

  describe('in the report', () => {
    /** Counts laid out around a range of 2026-11-19 to 2026-11-21, one day past each end. */
    async function layOut(db: Kysely<Schema>) {
      const counter = createFilteredCounter(db);
      const at = (day: string) => new Date(`${day}T08:00:00Z`);
      const counts: [string, FilteredBeacon, FilterReason, number][] = [
        ['2026-11-18', 'view', 'bot', 50],
        ['2026-11-19', 'view', 'bot', 4],
        ['2026-11-19', 'click', 'malformed', 1],
        ['2026-11-21', 'view', 'bot', 900],
        ['2026-11-21', 'view', 'rate-limited', 30],
        ['2026-11-21', 'click', 'bot', 2],
        ['2026-11-22', 'click', 'cross-site', 7],
        ['2026-11-19', 'leave', 'repeat', 1],
        ['2026-11-21', 'leave', 'no-view', 5],
      ];
      for (const [day, beacon, reason, count] of counts) for (let i = 0; i < count; i += 1) counter.count(beacon, reason, at(day));
      await counter.flush();
    }
    const range = { from: '2026-11-19', to: '2026-11-21' };
    const zeros = Object.fromEntries(filterReasons.map((reason) => [reason, { views: 0, clicks: 0, leaves: 0 }]));

    it('has per reason and beacon over the range, and per day with anything filtered, bounded by the range', async () => {
      await layOut(database.db());
      const { filtered } = await readFunnelReport(database.db(), range);
      expect(filtered).toEqual({
        views: 934,
        clicks: 3,
        leaves: 6,
        reasons: {
          ...zeros,
          bot: { views: 904, clicks: 2, leaves: 0 },
          'rate-limited': { views: 30, clicks: 0, leaves: 0 },
          malformed: { views: 0, clicks: 1, leaves: 0 },
          'no-view': { views: 0, clicks: 0, leaves: 5 },
          repeat: { views: 0, clicks: 0, leaves: 1 },
        },
        days: [
          { day: '2026-11-19', views: 4, clicks: 1, leaves: 1, reasons: { ...zeros, bot: { views: 4, clicks: 0, leaves: 0 }, malformed: { views: 0, clicks: 1, leaves: 0 }, repeat: { views: 0, clicks: 0, leaves: 1 } } },
          {
            day: '2026-11-21',
            views: 930,
            clicks: 2,
            leaves: 5,
            reasons: { ...zeros, bot: { views: 900, clicks: 2, leaves: 0 }, 'rate-limited': { views: 30, clicks: 0, leaves: 0 }, 'no-view': { views: 0, clicks: 0, leaves: 5 } },
          },
        ],
      });
      // Every reason is listed, in the module's order, zeros included.
      expect(Object.keys(filtered.reasons)).toEqual([...filterReasons]);
    });

    it('shows them on /admin: per reason over the range, and per day, newest first', async () => {
      await layOut(database.db());
      const app = await createTestApp({ ADMIN_TOKEN: adminToken }, { stores: createStatsStores(database.opened.database) });
      const page = parseHtml((await request(app).get('/admin?from=2026-11-19&to=2026-11-21').set('Authorization', basicAuth(adminToken)).expect(200)).text);
      const byReason = tableCaptioned(page, 'Reports not counted, by reason');
      expect(filterReasons.map((reason) => [reason, ...cells(rowHeaded(byReason, reason))])).toEqual([
        ['bot', '904', '2', '0'],
        ['prefetch', '0', '0', '0'],
        ['opted-out', '0', '0', '0'],
        ['rate-limited', '30', '0', '0'],
        ['cross-site', '0', '0', '0'],
        ['malformed', '0', '1', '0'],
        ['no-view', '0', '0', '5'],
        ['repeat', '0', '0', '1'],
      ]);
      expect(cells(rowHeaded(byReason, 'All reasons'))).toEqual(['934', '3', '6']);
      const perDay = tableCaptioned(page, 'Reports not counted per day');
      expect(perDay.all('thead th').map((head) => head.text())).toEqual(['Day', 'All', ...filterReasons]);
      expect(perDay.all('tbody tr').map((row) => [row.one('th').text(), ...cells(row)])).toEqual([
        ['2026-11-21', '930 / 2 / 5', '900 / 2 / 0', '–', '–', '30 / 0 / 0', '–', '–', '0 / 0 / 5', '–'],
        ['2026-11-19', '4 / 1 / 1', '4 / 0 / 0', '–', '–', '–', '–', '0 / 1 / 0', '–', '0 / 0 / 1'],
      ]);
    });

    it('shows the table of reasons with zeros, and no day table, when nothing was filtered', async () => {
      const app = await createTestApp({ ADMIN_TOKEN: adminToken }, { stores: createStatsStores(database.opened.database) });
      const page = parseHtml((await request(app).get('/admin?days=7').set('Authorization', basicAuth(adminToken)).expect(200)).text);
      expect(cells(rowHeaded(tableCaptioned(page, 'Reports not counted, by reason'), 'All reasons'))).toEqual(['0', '0', '0']);
      expect(page.all('caption').filter((caption) => caption.text().startsWith('Reports not counted per day'))).toEqual([]);
    });

    it('prints them in npm run stats -- --json, and per reason in its table', async () => {
      // A database the command opens by its environment: a SQLite file, or the test PostgreSQL database.
      let env: Record<string, string>;
      let close = async () => {};
      if (engine === 'postgres') {
        await layOut(database.db());
        env = { DATABASE_URL: database.opened.url! };
      } else {
        const file = path.join(temp.dir(), 'stats.sqlite');
        const opened = await openDatabase({ engine: 'sqlite', file }, { logger: silentLogger });
        await layOut(opened.db);
        env = { CLICKS_DB: file };
        close = () => opened.close();
      }
      try {
        const run = async (argv: string[]) => {
          let out = '';
          const code = await statsMain(argv, env, (text) => (out += text), () => {});
          expect(code).toBe(0);
          return out;
        };
        const json = JSON.parse(await run(['--json', '--from', range.from, '--to', range.to]));
        expect(json.filtered).toMatchObject({ views: 934, clicks: 3, leaves: 6, reasons: { bot: { views: 904, clicks: 2, leaves: 0 }, 'no-view': { leaves: 5 } } });
        expect(json.filtered.days.map((entry: { day: string }) => entry.day)).toEqual(['2026-11-19', '2026-11-21']);
        const text = await run(['--from', range.from, '--to', range.to]);
        expect(text).toContain('Not counted (bots, prefetches, opt-outs, refused reports)\n');
        expect(text).toMatch(/\nbot +904 +2 +0\n/);
        expect(text).toMatch(/\nall reasons +934 +3 +6\n/);
      } finally {
        await close();
      }
    });
  });
});

