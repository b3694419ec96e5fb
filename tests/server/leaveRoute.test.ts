import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { createLeaveStore } from '../../server/leaves/leaveStore';
import { pageLayouts } from '../../server/leaves/pageLayout';
import { createRateLimiter } from '../../server/limits/rateLimiter';
import { createStatsStores, type StatsStores } from '../../server/statsStores';
import { utcDay } from '../../server/lib/utcDay';
import type { Schema } from '../../server/db/schema';
import { leaveBeaconLimits, type LeaveBeaconBody } from '../../shared/leaveBeacon';
import { pagePaths } from '../../shared/routes';
import { sendReport } from '../support/beaconReports';
import { engines, useTestDatabase } from '../support/engines';
import { createTestApp } from '../support/testApp';

/**
 * POST /api/leaves (issue 29): one leave report per page view, taken only for a view of its page by its
 * visitor that day. What every beacon answers alike (bots, opt-outs, cross-site, size, 503) is the
 * shared route's (beaconRoute.test.ts); here, what a leave report must hold and what it is refused for.
 */
const view = { page: '/', referrer: '', source: 'direct', medium: '', campaign: '' };
const leave: LeaveBeaconBody = { page: '/', variants: '', sections: ['what-is', 'hero'], seen: ['hero'], engagedSeconds: 12 };

type Row = { page: string; sections: string; seen: string; engaged_seconds: number; day: string; device: string; visitor: string; variants: string };
const leaveRows = async (db: Kysely<Schema>): Promise<Row[]> =>
  (await db.selectFrom('leaves').select(['page', 'sections', 'seen', 'engaged_seconds', 'day', 'device', 'visitor', 'variants']).orderBy('id').execute()).map((row) => ({
    ...row,
    engaged_seconds: Number(row.engaged_seconds),
  }));

describe.each(engines)('POST /api/leaves on %s', (engine) => {
  const database = useTestDatabase(engine);
  let stores: StatsStores;
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    stores = createStatsStores(database.opened.database);
    // Limits that never refill during a test: what is counted here is the views and leaves themselves.
    const slow = () => createRateLimiter({ burst: 1000, refillMs: 3_600_000 });
    app = await createTestApp({ TRUST_PROXY: 'true' }, { stores, leaveRateLimiter: slow(), leaveAddressRateLimiter: slow(), viewRateLimiter: slow(), viewAddressRateLimiter: slow() });
  });
  const post = (endpoint: string, body: string | object, headers: Record<string, string> = {}) => sendReport(app, endpoint, body, headers);

  it('records the leave of a page viewed, its sections and placements in page order, and answers 204', async () => {
    await post('/api/views', view).expect(204);
    await post('/api/leaves', leave).expect(204);
    const [row, ...more] = await leaveRows(database.db());
    expect(more).toEqual([]);
    expect(row).toEqual({ page: '/', sections: 'hero what-is', seen: 'hero', engaged_seconds: 12, day: utcDay(new Date()), device: 'mobile', visitor: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), variants: '' });
    const [viewed] = await database.db().selectFrom('views').select('visitor').execute();
    expect(row!.visitor).toBe(viewed!.visitor);
  });

  it('refuses a leave naming no view of that page by that visitor today (409), and counts it as no-view', async () => {
    await post('/api/leaves', leave).expect(409);
    await post('/api/views', { ...view, page: '/about-us' }).expect(204);
    await post('/api/leaves', leave).expect(409);
    // Another visitor (another address) viewed the home page: not this one's.
    await post('/api/views', view, { 'X-Forwarded-For': '198.51.100.7' }).expect(204);
    const refused = await post('/api/leaves', leave).expect(409);
    expect(refused.text).toBe('No view of this page by this visitor was counted today\n');
    expect(await leaveRows(database.db())).toEqual([]);
    await stores.filtered.flush();
    const counted = await database.db().selectFrom('filtered_counts').select(['beacon', 'reason', 'count']).execute();
    expect(counted.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([{ beacon: 'leave', reason: 'no-view', count: 3 }]);
  });

  it('takes one leave per view: a second for one view is a repeat (409), two views take two', async () => {
    await post('/api/views', view).expect(204);
    await post('/api/leaves', leave).expect(204);
    const repeat = await post('/api/leaves', leave).expect(409);
    expect(repeat.text).toBe('Every view of this page by this visitor today has its leave report already\n');
    await post('/api/views', view).expect(204);
    await post('/api/leaves', { ...leave, sections: ['hero'], seen: [] }).expect(204);
    await post('/api/leaves', leave).expect(409);
    expect((await leaveRows(database.db())).map((row) => row.sections)).toEqual(['hero what-is', 'hero']);
    await stores.filtered.flush();
    const counted = await database.db().selectFrom('filtered_counts').select(['beacon', 'reason', 'count']).execute();
    expect(counted.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([{ beacon: 'leave', reason: 'repeat', count: 2 }]);
  });

  it('records the placements whose link was followed, each as seen too, and none from a script that sends no list', async () => {
    await post('/api/views', view).expect(204);
    await post('/api/leaves', { ...leave, seen: ['hero'], clicked: ['bonus'] }).expect(204);
    await post('/api/views', view).expect(204);
    await post('/api/leaves', leave).expect(204);
    const rows = await database.db().selectFrom('leaves').select(['seen', 'clicked']).orderBy('id').execute();
    expect(rows).toEqual([
      { seen: 'hero bonus', clicked: 'bonus' },
      { seen: 'hero', clicked: '' },
    ]);
  });

  it.each(pagePaths)('takes the leave of %s with every one of its sections and placements', async (page) => {
    await post('/api/views', { ...view, page }).expect(204);
    const { sections, placements } = pageLayouts[page];
    await post('/api/leaves', { ...leave, page, sections: [...sections].reverse(), seen: [...placements], engagedSeconds: leaveBeaconLimits.maxEngagedSeconds }).expect(204);
    expect(await leaveRows(database.db())).toEqual([expect.objectContaining({ page, sections: sections.join(' '), seen: placements.join(' '), engaged_seconds: 1800 })]);
  });

  it('records nothing from a visitor sending Global Privacy Control, and answers as for any report (204)', async () => {
    await post('/api/views', view).expect(204);
    await post('/api/leaves', leave, { 'Sec-GPC': '1' }).expect(204);
    expect(await leaveRows(database.db())).toEqual([]);
  });

  it('keeps one leave per view when many arrive at once for one view, as from two instances', async () => {
    await post('/api/views', view).expect(204);
    const [viewed] = await database.db().selectFrom('views').select(['visitor', 'at']).execute();
    // Two stores, as two instances hold, each sending five at once (on PostgreSQL over the pool's several connections).
    const stores2 = [createLeaveStore(database.db()), createLeaveStore(database.db())];
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        stores2[index % 2]!.record({ at: new Date(Number(viewed!.at)), page: '/', device: 'mobile', visitor: viewed!.visitor, variants: '', sections: ['hero'], seen: [], clicked: [], engagedSeconds: index }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'repeat')).toHaveLength(9);
    expect(await leaveRows(database.db())).toHaveLength(1);
  });
});

describe('POST /api/leaves: what a report must hold', () => {
  const database = useTestDatabase('sqlite');
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    app = await createTestApp({ TRUST_PROXY: 'true' }, { stores: createStatsStores(database.opened.database) });
    await sendReport(app, '/api/views', view).expect(204);
    await sendReport(app, '/api/views', { ...view, page: '/about-us' }).expect(204);
  });

  it.each([
    ['an unknown page', { ...leave, page: '/admin' }],
    ['a missing page', { ...leave, page: undefined }],
    ['a section the page does not have', { ...leave, sections: ['hero', 'pricing'] }],
    ['a section named twice', { ...leave, sections: ['hero', 'hero'] }],
    ['more sections than the page has', { ...leave, sections: [...pageLayouts['/'].sections, 'hero'] }],
    ['sections that are not a list', { ...leave, sections: 'hero' }],
    ['a section that is not a string', { ...leave, sections: [1] }],
    ['a placement on a page without placements', { ...leave, page: '/about-us', sections: [], seen: ['hero'] }],
    ['an unknown placement', { ...leave, seen: ['sidebar'] }],
    ['a placement seen twice', { ...leave, seen: ['bonus', 'bonus'] }],
    ['missing seen placements', { ...leave, seen: undefined }],
    ['an unknown placement clicked', { ...leave, clicked: ['sidebar'] }],
    ['a placement clicked twice', { ...leave, clicked: ['hero', 'hero'] }],
    ['clicked placements that are not a list', { ...leave, clicked: 'hero' }],
    ['engaged seconds past the cap', { ...leave, engagedSeconds: leaveBeaconLimits.maxEngagedSeconds + 1 }],
    ['negative engaged seconds', { ...leave, engagedSeconds: -1 }],
    ['fractional engaged seconds', { ...leave, engagedSeconds: 1.5 }],
    ['engaged seconds as text', { ...leave, engagedSeconds: '12' }],
    ['variants that are not text', { ...leave, variants: 7 }],
  ])('answers 400 to %s and records nothing', async (_name, body) => {
    await sendReport(app, '/api/leaves', body).expect(400);
    expect(await database.db().selectFrom('leaves').select('id').execute()).toEqual([]);
  });

  it('answers any body with 204, 400 or 409 and never a crash, and records only what the page holds (generated bodies)', async () => {
    const layout = pageLayouts['/'];
    const name = fc.oneof(fc.constantFrom(...layout.sections, ...layout.placements), fc.string({ maxLength: 12 }));
    const body = fc.record(
      {
        page: fc.oneof(fc.constantFrom('/', '/about-us', '/terms-conditions'), fc.string({ maxLength: 20 })),
        variants: fc.oneof(fc.constant(''), fc.string({ maxLength: 10 })),
        sections: fc.oneof(fc.array(name, { maxLength: 10 }), fc.anything()),
        seen: fc.oneof(fc.array(name, { maxLength: 8 }), fc.anything()),
        clicked: fc.oneof(fc.array(name, { maxLength: 8 }), fc.anything()),
        engagedSeconds: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (generated) => {
        const response = await sendReport(app, '/api/leaves', generated);
        expect([204, 400, 409]).toContain(response.status);
      }),
      { numRuns: 150 },
    );
    const rows = await database.db().selectFrom('leaves').select(['page', 'sections', 'seen', 'clicked', 'engaged_seconds']).execute();
    for (const row of rows) {
      const { sections, placements } = pageLayouts[row.page as keyof typeof pageLayouts];
      for (const id of row.sections.split(' ').filter(Boolean)) expect(sections).toContain(id);
      for (const placement of row.seen.split(' ').filter(Boolean)) expect(placements).toContain(placement);
      for (const placement of row.clicked.split(' ').filter(Boolean)) expect(row.seen.split(' ')).toContain(placement);
      expect(Number(row.engaged_seconds)).toBeLessThanOrEqual(leaveBeaconLimits.maxEngagedSeconds);
    }
    // Two views were counted: at most one leave each.
    expect(rows.length).toBeLessThanOrEqual(2);
  });
});
