import path from 'node:path';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createClickStore } from '../../server/clicks/clickStore';
import { openDatabase } from '../../server/db/openDatabase';
import { readRawDayCounts } from '../../server/dayCounts/rawDayCounts';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { closeFinishedDays } from '../../server/jobs/closeDays';
import { createLeaveStore, type Leave } from '../../server/leaves/leaveStore';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { main as statsMain } from '../../scripts/stats';
import { engines, openTestDatabase } from '../support/engines';
import { conversion } from '../support/storeRows';
import { commandTestDatabase } from '../support/commandTestDatabase';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const day = '2026-11-20';
const at = new Date(`${day}T10:00:00Z`);

/**
 * The reach figures of the funnel report (docs/reach.md) from leave reports recorded through their store:
 * ten visitors view the home page; all send a leave report, four scroll to the bonus section, the bonus
 * button is seen by three and followed by one of them (who converts), the hero by all ten, followed by two.
 */
describe.each(engines)('reach in the funnel report on %s', (engine) => {
  let reach: Awaited<ReturnType<typeof commandTestDatabase>>;

  beforeEach(async () => {
    reach = await commandTestDatabase(engine, temp.dir(), 'reach.sqlite');
    const views = createViewStore(reach.db);
    const leaves = createLeaveStore(reach.db);
    const clicks = createClickStore(reach.db);
    for (let index = 0; index < 10; index++) {
      const visitor = `visitor-${index}`;
      await views.record({ at, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor });
      const far = index < 4;
      const leave: Leave = {
        at,
        page: '/',
        device: 'mobile',
        visitor,
        variants: '',
        sections: far ? ['hero', 'what-is', 'how-it-works', 'benefits', 'faq', 'check-auctions', 'bonus'] : ['hero', 'what-is'],
        seen: index < 3 ? ['hero', 'bonus'] : ['hero'],
        clicked: [...(index < 2 ? ['hero'] : []), ...(index === 0 ? ['bonus'] : [])],
        // 5, 10, … 50 seconds: read from their buckets, the median is 30 (25 to 30 s holds the fifth) and the upper quartile 42.5.
        engagedSeconds: 5 * (index + 1),
      };
      expect(await leaves.record(leave)).toBe('recorded');
    }
    // One view without a leave report: the coverage is 10 of 11 views.
    await views.record({ at, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor: 'no-leave' });
    const clickId = newClickId('bonus');
    await clicks.record({ at, placement: 'bonus', page: '/', referrerHost: null, device: 'mobile', visitor: 'visitor-0', via: 'beacon', clickId });
    await createConversionStore(reach.db).record(conversion({ txid: 'T1', subid: clickId, payout: '30', currency: 'USD' }), 'postback', at);
  });
  afterEach(() => reach.close());

  const range = { from: day, to: day };

  function expectReach(report: Awaited<ReturnType<typeof readFunnelReport>>) {
    expect(report.all).toMatchObject({ views: 11, leaves: 10, leaveShare: 10 / 11 });
    const placement = (name: string) => report.totals.find((row) => row.placement === name)!;
    expect(placement('hero')).toMatchObject({ seen: 10, seenClickers: 2, seenClickThrough: 0.2, conversionsPerThousandSeen: 0, revenuePerThousandSeen: 0 });
    expect(placement('bonus')).toMatchObject({ seen: 3, seenClickers: 1, seenClickThrough: 1 / 3, conversions: 1, conversionsPerThousandSeen: 1000 / 3, revenuePerThousandSeen: 10_000 });
    expect(placement('explainer')).toMatchObject({ seen: 0, seenClickers: 0, seenClickThrough: null, conversionsPerThousandSeen: null });
    const home = report.pages.find((page) => page.page === '/')!;
    expect(home.leaves).toBe(10);
    expect(home.sections).toEqual([
      { id: 'hero', reached: 1 },
      { id: 'what-is', reached: 1 },
      { id: 'how-it-works', reached: 0.4 },
      { id: 'benefits', reached: 0.4 },
      { id: 'faq', reached: 0.4 },
      { id: 'check-auctions', reached: 0.4 },
      { id: 'bonus', reached: 0.4 },
    ]);
    expect(home.engagedSeconds).toEqual({ median: 30, p75: 42.5 });
  }

  it('reads the open day from its raw rows', async () => {
    expectReach(await readFunnelReport(reach.db, range));
  });

  it('reads the same from the closed day', async () => {
    const fromRaw = await readFunnelReport(reach.db, range);
    await closeFinishedDays(reach.db, (closing) => readRawDayCounts(reach.db, closing), new Date('2026-11-22T00:10:00Z'));
    const fromClosed = await readFunnelReport(reach.db, range);
    expect(fromClosed).toEqual(fromRaw);
    expectReach(fromClosed);
  });

  it('prints the reach in npm run stats: the table, --json and --csv --reach', async () => {
    const run = async (argv: string[]) => {
      let out = '';
      let err = '';
      const code = await statsMain([...argv, '--from', day, '--to', day], reach.env, (text) => (out += text), (text) => (err += text));
      return { code, out, err };
    };
    const table = await run([]);
    expect(table.code).toBe(0);
    expect(table.out).toContain('Reach rests on 10 leave reports for 11 views (91%).');
    expect(table.out).toMatch(/^bonus\s+3\s+1\s+33%\s+333\.3\s+10,000\.00 USD$/m);
    expect(table.out).toContain('/: 10 visitors reported\n  engaged time: median 30 s, upper quartile 43 s');
    expect(table.out).toMatch(/^ {2}how-it-works\s+40%\s+████████$/m);
    // As the rest of the table (tests/server/formatReport.test.ts): within a terminal's 90 columns.
    expect(Math.max(...table.out.split('\n').map((line) => line.length))).toBeLessThanOrEqual(90);

    const json = JSON.parse((await run(['--json'])).out);
    expect(json.totals.find((row: { placement: string }) => row.placement === 'hero')).toMatchObject({ seen: 10, seenClickThrough: 0.2 });
    expect(json.pages[0]).toMatchObject({ page: '/', sections: expect.arrayContaining([{ id: 'bonus', reached: 0.4 }]), engagedSeconds: { median: 30, p75: 42.5 } });

    const csv = await run(['--csv', '--reach']);
    expect(csv.code).toBe(0);
    const lines = csv.out.trim().split('\n');
    expect(lines[0]).toBe('kind,page,name,visitors,reached,seen,seen_clickers,seen_click_through,conversions_per_1000_seen,revenue_per_1000_seen,engaged_median_seconds,engaged_p75_seconds');
    expect(lines).toContain('page,/,,10,,,,,,,30,42.5');
    expect(lines).toContain('section,/,bonus,10,0.4,,,,,,,');
    expect(lines).toContain('placement,,hero,,,10,2,0.2,0,0,,');
    expect((await run(['--reach'])).code).toBe(64);
    expect((await run(['--csv', '--reach', '--spend'])).code).toBe(64);
  });

  it('says so when no leave report arrived', async () => {
    const report = await readFunnelReport(reach.db, { from: '2026-11-19', to: '2026-11-19' });
    expect(report.all).toMatchObject({ leaves: 0, leaveShare: null });
    expect(report.totals.every((row) => row.seen === 0 && row.seenClickThrough === null)).toBe(true);
  });
});
