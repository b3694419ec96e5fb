import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { earningsPerClickInterval, wilsonInterval } from '../../server/releases/intervals';
import { maxReportedReleases } from '../../server/releases/releaseReport';
import { closeDaysAndForget } from '../support/closeDays';
import { engines } from '../support/engines';
import { useFunnelRecording } from '../support/funnelRecording';

const release = { stamp: '3f9a1b2c4d5e'.padEnd(64, '0'), at: new Date('2026-11-10T14:02:00Z') };

describe('wilsonInterval', () => {
  it('is the Wilson score interval at 95%', () => {
    const { low, high } = wilsonInterval(10, 100)!;
    expect(low).toBeCloseTo(0.05523, 5);
    expect(high).toBeCloseTo(0.17437, 5);
  });

  it('bounds a proportion of nothing above 0, and has no interval without trials', () => {
    expect(wilsonInterval(0, 50)).toEqual({ low: 0, high: expect.closeTo(0.07135, 5) });
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('takes more successes than trials as all of them', () => {
    expect(wilsonInterval(12, 10)).toEqual(wilsonInterval(10, 10));
  });

  it('scales the conversion rate\'s interval by the mean payout for earnings per click, and has none with no payout known', () => {
    expect(earningsPerClickInterval(1, 10, 40)).toEqual({ low: wilsonInterval(1, 10)!.low * 40, high: wilsonInterval(1, 10)!.high * 40 });
    expect(earningsPerClickInterval(0, 10, undefined)).toBeNull();
  });
});

describe.each(engines)('releases in the funnel report on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  const db = () => funnel.opened.database.db;
  const recordReleaseRow = (stamp: string, at: Date, note = 'changed shared/content/home.ts') =>
    db().insertInto('releases').values({ stamp, first_served_at: at.getTime(), files: '{}', note }).execute();

  /** `count` page views, and `clicks` of the hero of which the first `sales` sold for 40 USD, on `day` at noon. */
  async function layOut(day: string, views: number, clicks: number, sales: number) {
    const at = `${day}T12:00:00Z`;
    for (let index = 0; index < views; index += 1) await funnel.view(at, `${day}-v${index}`, null);
    for (let index = 0; index < clicks; index += 1) {
      const clickId = await funnel.click(at, 'hero', `${day}-v${index}`, null);
      if (index < sales) await funnel.sale(`${day}T13:00:00Z`, { txid: `${day}-T${index}`, subid: clickId, payout: '40' });
    }
  }

  beforeEach(async () => {
    await recordReleaseRow(release.stamp, release.at);
    // Outside both weeks: counted nowhere.
    await layOut('2026-11-02', 7, 3, 1);
    await layOut('2026-11-17', 4, 4, 0);
    // The week before (11-03 to 11-09) and the week from the release's day (11-10 to 11-16).
    await layOut('2026-11-05', 50, 5, 1);
    await layOut('2026-11-11', 40, 8, 2);
    await layOut('2026-11-13', 10, 2, 0);
  });

  it('compares each placement\'s click-through and earnings per click over the week before and the week from the release\'s day, with 95% intervals', async () => {
    const now = new Date('2026-11-20T12:00:00Z');
    await closeDaysAndForget(db(), 400, now);
    const { releases } = await readFunnelReport(db(), { from: '2026-11-01', to: '2026-11-20' }, { now });
    expect(releases.inRange).toBe(1);
    const [compared] = releases.compared;
    expect(compared).toMatchObject({ stamp: '3f9a1b2c4d5e', firstServedAt: '2026-11-10T14:02:00.000Z', day: '2026-11-10', note: 'changed shared/content/home.ts' });
    const hero = compared!.placements.find((row) => row.placement === 'hero')!;
    expect(hero.before).toEqual({
      from: '2026-11-03', to: '2026-11-09', days: 7, views: 50, clicks: 5, conversions: 1, revenue: 40,
      clickThrough: 0.1, clickThroughInterval: wilsonInterval(5, 50),
      earningsPerClick: 8, earningsPerClickInterval: { low: wilsonInterval(1, 5)!.low * 40, high: wilsonInterval(1, 5)!.high * 40 },
    });
    expect(hero.after).toEqual({
      from: '2026-11-10', to: '2026-11-16', days: 7, views: 50, clicks: 10, conversions: 2, revenue: 80,
      clickThrough: 0.2, clickThroughInterval: wilsonInterval(10, 50),
      earningsPerClick: 8, earningsPerClickInterval: { low: wilsonInterval(2, 10)!.low * 40, high: wilsonInterval(2, 10)!.high * 40 },
    });
    expect(hero.before.clickThroughInterval!.low).toBeCloseTo(0.0435, 4);
    expect(hero.after.clickThroughInterval!.high).toBeCloseTo(0.3304, 4);
    const bonus = compared!.placements.find((row) => row.placement === 'bonus')!;
    expect(bonus.after).toMatchObject({ clicks: 0, clickThrough: 0, clickThroughInterval: wilsonInterval(0, 50), earningsPerClick: null, earningsPerClickInterval: null });
  });

  it('counts the week after as far as it has gone, today included, from closed and open days alike', async () => {
    const now = new Date('2026-11-12T18:00:00Z');
    await layOut('2026-11-12', 6, 3, 1);
    await closeDaysAndForget(db(), 400, now);
    const { releases } = await readFunnelReport(db(), { from: '2026-11-01', to: '2026-11-12' }, { now });
    const hero = releases.compared[0]!.placements.find((row) => row.placement === 'hero')!;
    expect(hero.after).toMatchObject({ from: '2026-11-10', to: '2026-11-12', days: 3, views: 46, clicks: 11, conversions: 3, revenue: 120 });
    expect(hero.after.clickThroughInterval).toEqual(wilsonInterval(11, 46));
  });

  it('reads the whole week after a release near the end of a past range', async () => {
    const now = new Date('2026-11-20T12:00:00Z');
    await closeDaysAndForget(db(), 400, now);
    const { releases } = await readFunnelReport(db(), { from: '2026-11-10', to: '2026-11-11' }, { now });
    const hero = releases.compared[0]!.placements.find((row) => row.placement === 'hero')!;
    expect(hero.after).toMatchObject({ days: 7, views: 50, clicks: 10 });
    expect(hero.before).toMatchObject({ days: 7, views: 50, clicks: 5 });
  });

  it('gives the week after no days when the release is first served after the moment of the report', async () => {
    const { releases } = await readFunnelReport(db(), { from: '2026-11-01', to: '2026-11-20' }, { now: new Date('2026-11-09T12:00:00Z') });
    expect(releases.compared[0]!.placements[0]!.after).toMatchObject({ days: 0, views: 0, clicks: 0, clickThrough: null, clickThroughInterval: null });
  });

  it(`lists the releases first served in the range, newest first, at most ${maxReportedReleases}, and says how many there were`, async () => {
    for (let day = 1; day <= 12; day += 1) await recordReleaseRow(`${String(day).padStart(2, '0')}`.padEnd(64, 'a'), new Date(`2026-10-${String(day).padStart(2, '0')}T09:00:00Z`), 'no content or artwork changed');
    const { releases } = await readFunnelReport(db(), { from: '2026-10-02', to: '2026-10-31' }, { now: new Date('2026-11-20T12:00:00Z') });
    expect(releases.inRange).toBe(11);
    expect(releases.compared.map((row) => row.day)).toEqual(['2026-10-12', '2026-10-11', '2026-10-10', '2026-10-09', '2026-10-08', '2026-10-07', '2026-10-06', '2026-10-05', '2026-10-04', '2026-10-03']);
    const empty = await readFunnelReport(db(), { from: '2026-11-18', to: '2026-11-20' });
    expect(empty.releases).toEqual({ inRange: 0, compared: [] });
  });
});
