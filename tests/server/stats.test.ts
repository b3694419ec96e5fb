import { createCostStore } from '../../server/costs/costStore';
import path from 'node:path';
import { createClickStore } from '../../server/clicks/clickStore';
import { parseConversion } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { main as statsMain } from '../../scripts/stats';
import { engines, openTestDatabase } from '../support/engines';
import { commandTestDatabase } from '../support/commandTestDatabase';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

async function run(main: typeof statsMain, argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

const today = new Date();
const click = (placement: string, visitor: string, at = today) => ({ at, placement, page: '/', referrerHost: null, device: 'mobile' as const, visitor, via: 'beacon' as const });

describe.each(engines)('npm run stats on %s', (engine) => {
  let stats: Awaited<ReturnType<typeof commandTestDatabase>>;
  beforeEach(async () => {
    stats = await commandTestDatabase(engine, temp.dir(), 'stats.sqlite');
  });
  afterEach(() => stats.close());

  it('prints the same JSON shape: all, and totals[] rows with placement, clicks and visitors', async () => {
    const store = createClickStore(stats.db);
    await store.record(click('hero', 'a'));
    await store.record(click('hero', 'b'));
    await store.record(click('bonus', 'a'));
    const { code, out } = await run(statsMain, ['--json', '--days', '1'], stats.env);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.all).toMatchObject({ clicks: 3, visitors: 2 });
    expect(report.totals[0]).toMatchObject({ placement: 'hero', clicks: 2, visitors: 2 });
    expect(report.totals.find((row: { placement: string }) => row.placement === 'bonus')).toMatchObject({ placement: 'bonus', clicks: 1, visitors: 1 });
  });

  describe('with page views, sources and conversions', () => {
    beforeEach(async () => {
      const views = createViewStore(stats.db);
      const clicks = createClickStore(stats.db);
      const conversions = createConversionStore(stats.db);
      for (const visitor of ['a', 'b']) {
        await views.record({ at: today, page: '/', referrerHost: null, source: 'newsletter', medium: 'email', campaign: null, device: 'mobile', visitor });
      }
      const clickId = newClickId('hero');
      await clicks.record({ ...click('hero', 'a'), clickId, source: 'newsletter' });
      for (const [txid, subid, payout, currency] of [['T1', clickId, '12.5', 'USD'], ['T2', 'bonus', '4', 'EUR']] as const) {
        const parsed = parseConversion({ txid, subid, payout, currency });
        if (parsed.error) throw new Error(parsed.error.message);
        await conversions.record(parsed.report, 'postback', today);
      }
    });

    it('adds the funnel to the JSON: views, conversions, revenue in the main currency and each, sources', async () => {
      const { code, out, err } = await run(statsMain, ['--json', '--days', '1'], stats.env);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      const report = JSON.parse(out);
      expect({ currency: report.currency, currencies: report.currencies }).toEqual({ currency: 'EUR', currencies: ['EUR', 'USD'] });
      expect(report.all).toEqual({ clicks: 1, visitors: 1, views: 2, viewVisitors: 2, conversions: 2, revenue: 4, revenueByCurrency: { EUR: 4, USD: 12.5 }, unattributed: 0, leaves: 0, leaveShare: 0, cost: null, profit: null });
      expect(report.totals[0]).toMatchObject({ placement: 'hero', clicks: 1, visitors: 1, conversions: 1, revenue: 0, revenueByCurrency: { USD: 12.5 }, seen: 0, seenClickThrough: null });
      expect(report.sources).toEqual([
        { source: 'newsletter', visitors: 2, clicks: 1, clickers: 1, conversions: 1, revenue: 0, revenueByCurrency: { USD: 12.5 }, cost: null, profit: null, roi: null, chanceProfitable: null },
        { source: '', visitors: 0, clicks: 0, clickers: 0, conversions: 1, revenue: 4, revenueByCurrency: { EUR: 4 }, cost: null, profit: null, roi: null, chanceProfitable: null },
      ]);
    });

    it('adds conversions and revenue columns to the CSV, and says on stderr which currency it holds', async () => {
      const { code, out, err } = await run(statsMain, ['--csv', '--days', '1'], stats.env);
      expect(code).toBe(0);
      const day = today.toISOString().slice(0, 10);
      expect(out.split('\n')).toEqual(expect.arrayContaining(['day,placement,clicks,visitors,conversions,revenue', `${day},hero,1,1,1,0`, `${day},bonus,0,0,1,4`]));
      expect(err).toBe('stats: revenue is in EUR; 12.50 USD earned in other currencies is not in the CSV (--json has it)\n');
    });

    it('writes spend and profit per source, campaign and ad with --csv --spend, and refuses --spend alone with 64', async () => {
      const day = today.toISOString().slice(0, 10);
      await createCostStore(stats.db).replaceCosts([{ day, source: 'newsletter', campaign: 'november', content: 'banner', amountMicros: 3_000_000, currency: 'EUR' }]);
      const { code, out, err } = await run(statsMain, ['--csv', '--spend', '--days', '1'], stats.env);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      const lines = out.trim().split('\n');
      expect(lines[0]).toBe('level,source,campaign,content,currency,cost,cost_other,visitors,clicks,conversions,revenue,profit,roi,chance_profitable,verdict');
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 6).join(','))).toEqual(['source,newsletter,,,EUR,3', 'source,,,,EUR,', 'campaign,newsletter,november,,EUR,3', 'ad,newsletter,november,banner,EUR,3']);
      const alone = await run(statsMain, ['--spend'], stats.env);
      expect(alone.code).toBe(64);
      expect(alone.err).toMatch(/^stats: --spend is a form of --csv/);
    });

    describe('with more sources than the top 20', () => {
      beforeEach(async () => {
        const views = createViewStore(stats.db);
        for (let index = 0; index < 25; index += 1) {
          await views.record({ at: today, page: '/', referrerHost: null, source: `site-${index}`, medium: null, campaign: null, device: 'mobile', visitor: `w${index}` });
        }
      });

      it('adds up the rest in otherSources and says on stderr that --all-sources lists every one', async () => {
        const { code, out, err } = await run(statsMain, ['--json', '--days', '1'], stats.env);
        expect(code).toBe(0);
        const report = JSON.parse(out);
        expect(report.sources).toHaveLength(20);
        // 26 sources with views, 20 listed; the sale that named no click (source not known) counts among the rest.
        expect(report.otherSources).toMatchObject({ sourceCount: 6, visitors: 6, conversions: 1 });
        expect(err).toContain('--all-sources lists every one');
        const every = JSON.parse((await run(statsMain, ['--json', '--all-sources', '--days', '1'], stats.env)).out);
        expect(every.sources).toHaveLength(27);
        expect(every.otherSources).toBeUndefined();
      });

      it('says with --csv where every source is', async () => {
        const { err } = await run(statsMain, ['--csv', '--days', '1'], stats.env);
        expect(err).toContain('stats: the CSV has no sources; npm run stats -- --json --all-sources lists every one');
      });

      it('prints a row of the other sources in the table, and where every one is', async () => {
        const { out } = await run(statsMain, ['--days', '1'], stats.env);
        expect(out).toMatch(/^\(6 others\) +6 +0 +0 +0% +1 +4\.00 EUR$/m);
        expect(out).toContain('The 20 sources with most visitors are listed; --all-sources lists every one.');
      });
    });

    it('prints the funnel table', async () => {
      const { code, out } = await run(statsMain, ['--days', '1'], stats.env);
      expect(code).toBe(0);
      expect(out).toMatch(/^Visitors who clicked +1 {2}50% of visitors$/m);
      expect(out).toMatch(/^newsletter +2 +1 +1 +50% +1 +12\.50 USD$/m);
    });
  });
});
