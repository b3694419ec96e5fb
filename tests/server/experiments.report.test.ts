import request from 'supertest';
import type { Express } from 'express';
import { affiliatePlacements, newClickId } from '../../shared/affiliate';
import { experiments as contentExperiments } from '../../shared/content/experiments';
import { variantSubId, type Experiment } from '../../shared/experiments/experiment';
import { readFunnelReport } from '../../server/funnelReport/funnelReport';
import { formatReportJson, formatReportTable } from '../../server/funnelReport/formatReport';
import { experimentReachLines } from '../../server/experiments/formatExperimentReach';
import { createClickStore } from '../../server/clicks/clickStore';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createLeaveStore } from '../../server/leaves/leaveStore';
import { createViewStore } from '../../server/views/viewStore';
import { createStatsStores } from '../../server/statsStores';
import { utcDay, addDays } from '../../server/lib/utcDay';
import { adminToken, basicAuth } from '../support/adminApp';
import { sendReport } from '../support/beaconReports';
import { closeDaysAndForget } from '../support/closeDays';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { key } from '../support/postbackApp';
import { createTestApp } from '../support/testApp';

/**
 * Views, clicks and sales credited to the variant the page showed (server/experiments/), on each
 * engine: recorded through the app's own routes, read by the report, kept when days close, when
 * conversions fold and when the experiment ends.
 */
const experiment: Experiment = { id: 'hero-words', variants: [{ id: 'a' }, { id: 'b', words: { 'home.hero.primaryCtaLabel': 'Start now' } }] };

describe.each(engines)('experiments on %s', (engine) => {
  let opened: TestEngineDatabase;
  let app: Express;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    app = await createTestApp({ TRUST_PROXY: '1', ADMIN_TOKEN: adminToken, CONVERSIONS_KEY: key }, { experiments: [experiment], stores: createStatsStores(opened.database) });
  });
  afterEach(() => opened.close());
  const db = () => opened.database.db;
  const today = utcDay(new Date());
  const read = (experiments: readonly Experiment[] = [experiment]) => readFunnelReport(db(), { from: addDays(today, -6), to: today }, { experiments });
  const view = (address: string, variants?: unknown) => sendReport(app, '/api/views', { page: '/', referrer: '', source: 'direct', medium: '', campaign: '', variants }, { 'X-Forwarded-For': address });
  const click = (address: string, variants: string, clickId = newClickId('hero')) =>
    sendReport(app, '/api/clicks', { placement: 'hero', page: '/', referrer: '', clickId, source: 'direct', variants }, { 'X-Forwarded-For': address });
  const sale = (fields: Record<string, string>) => request(app).get(`/api/conversions?${new URLSearchParams({ key, payout: '40', ...fields })}`).expect(200);

  it('stores what the page showed, dropping what no listed experiment has, and refuses a malformed field', async () => {
    await view('10.0.0.1', 'hero-words:b').expect(204);
    await view('10.0.0.2', 'hero-words:z,gone:b').expect(204);
    await view('10.0.0.3').expect(204);
    await view('10.0.0.4', ['hero-words:b']).expect(400);
    await click('10.0.0.1', 'hero-words:b').expect(204);
    await request(app)
      .post('/api/clicks?placement=hero&variants=hero-words%3Aa')
      .set({ 'Content-Type': 'text/ping', 'Ping-From': 'https://auctions.example.org/', 'X-Forwarded-For': '10.0.0.5', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0' })
      .send('PING')
      .expect(204);
    expect((await db().selectFrom('views').select('variants').orderBy('id').execute()).map((row) => row.variants)).toEqual(['hero-words:b', '', '']);
    expect((await db().selectFrom('clicks').select(['variants', 'via']).orderBy('id').execute()).map((row) => `${row.via} ${row.variants}`)).toEqual(['beacon hero-words:b', 'ping hero-words:a']);
  });

  it("credits a sale to its click's variant, or to the variants a sub-ID without JavaScript names", async () => {
    const clickId = newClickId('hero');
    await click('10.0.0.1', 'hero-words:b', clickId).expect(204);
    await sale({ txid: 'T-1', subid: clickId.toUpperCase() });
    await sale({ txid: 'T-2', subid: variantSubId('bo', [{ experiment: 'hero-words', variant: 'a' }]).toUpperCase() });
    await sale({ txid: 'T-3', subid: 'hero' });
    const rows = await db().selectFrom('conversions').select(['txid', 'placement', 'variants']).orderBy('id').execute();
    expect(rows).toEqual([
      { txid: 'T-1', placement: 'hero', variants: 'hero-words:b' },
      { txid: 'T-2', placement: 'bonus', variants: 'hero-words:a' },
      { txid: 'T-3', placement: 'hero', variants: '' },
    ]);
  });

  it('reports each variant, and keeps the figures when the days close, conversions fold and the experiment ends', async () => {
    // b: three visitors, two clicked (one twice), one sale of 40; a: two visitors, one clicked, no sale; one visitor outside.
    for (const address of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) await view(address, 'hero-words:b').expect(204);
    for (const address of ['10.0.2.1', '10.0.2.2']) await view(address, 'hero-words:a').expect(204);
    await view('10.0.3.1').expect(204);
    const paid = newClickId('hero');
    await click('10.0.1.1', 'hero-words:b', paid).expect(204);
    await click('10.0.1.1', 'hero-words:b').expect(204);
    await click('10.0.1.2', 'hero-words:b').expect(204);
    await click('10.0.2.1', 'hero-words:a').expect(204);
    await sale({ txid: 'T-1', subid: paid });

    const expected = [
      { id: 'a', visitors: 2, clickers: 1, clicks: 1, conversions: 0, revenue: 0, clickRate: 0.5 },
      { id: 'b', visitors: 3, clickers: 2, clicks: 3, conversions: 1, revenue: 40, conversionRate: 1 / 3 },
    ];
    const open = (await read()).experiments;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ id: 'hero-words', winner: null, from: today, to: today, decidedOn: 'conversions', variants: expected });
    expect(open[0]!.variants[0]!.chanceBest + open[0]!.variants[1]!.chanceBest).toBeCloseTo(1, 9);
    expect(open[0]!.verdict).toMatch(/^keep running: /);

    // The next day's maintenance closes today; a long retention later, conversions fold too.
    await closeDaysAndForget(db(), 400, new Date(Date.parse(`${addDays(today, 1)}T00:30:00Z`)));
    const closed = (await read()).experiments[0]!;
    expect(closed.variants).toEqual(open[0]!.variants);
    await createConversionStore(db()).foldOldConversions(0, new Date(Date.parse(`${addDays(today, 181)}T00:30:00Z`)));
    expect(await db().selectFrom('conversions').selectAll().execute()).toEqual([]);
    expect((await read()).experiments[0]!.variants).toEqual(open[0]!.variants);

    const ended = (await read([{ ...experiment, winner: 'b' }])).experiments[0]!;
    expect(ended).toMatchObject({ winner: 'b', variants: expected });
    expect(ended.verdict).toMatch(/^ended: everyone sees b; when it ended, keep running/);
  });

  describe('what each variant saw, from the leave reports', () => {
    const yesterday = addDays(today, -1);
    /**
     * Recorded through the stores, each visitor's view first (a leave needs one that day), then a click where
     * the report says the link was followed, then the leave report. Yesterday: b's v1 saw the hero and
     * followed it, v2 saw the hero and the bonus, v3 left before any button was in view; a's w1 saw the hero.
     * Today: b's v1 again, seeing the hero and following the bonus; a's w1 saw both and followed neither, and
     * w2 sent no leave report. A visitor in no experiment saw the hero and followed it: in no variant.
     */
    async function recordVisits(a = 'hero-words:a', b = 'hero-words:b') {
      const views = createViewStore(db());
      const clicks = createClickStore(db());
      const leaves = createLeaveStore(db());
      const visit = async (day: string, visitor: string, variants: string, seen: string[] | null, clicked: string[] = []) => {
        const at = new Date(`${day}T10:00:00Z`);
        await views.record({ at, page: '/', referrerHost: null, source: 'direct', medium: null, campaign: null, device: 'mobile', visitor, variants });
        for (const placement of clicked) {
          await clicks.record({ at, placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId: newClickId('hero'), variants });
        }
        if (seen === null) return;
        const outcome = await leaves.record({ at, page: '/', device: 'mobile', visitor, variants, sections: ['hero'], seen, clicked, engagedSeconds: 10 });
        expect(outcome).toBe('recorded');
      };
      await visit(yesterday, 'v1', b, ['hero'], ['hero']);
      await visit(yesterday, 'v2', b, ['hero', 'bonus']);
      await visit(yesterday, 'v3', b, []);
      await visit(yesterday, 'w1', a, ['hero']);
      await visit(today, 'v1', b, ['hero', 'bonus'], ['bonus']);
      await visit(today, 'w1', a, ['hero', 'bonus']);
      await visit(today, 'w2', a, null);
      await visit(today, 'x1', '', ['hero'], ['hero']);
    }
    /** Every placement in order: the ones given, the rest unseen. */
    const placements = (figures: Record<string, [seen: number, seenClickers: number]>) =>
      affiliatePlacements.map((placement) => {
        const [seen, seenClickers] = figures[placement] ?? [0, 0];
        return { placement, seen, seenClickers, seenClickThrough: seen === 0 ? null : seenClickers / seen };
      });
    const expectedReach = {
      a: { leaves: 2, placements: placements({ hero: [2, 0], bonus: [1, 0] }) },
      b: { leaves: 4, placements: placements({ hero: [3, 1], bonus: [2, 1] }) },
    };
    const reachOf = async () => Object.fromEntries((await read()).experiments[0]!.variants.map((variant) => [variant.id, variant.reach]));

    it('reads the open days, a closed day beside an open one, and the closed days alike', async () => {
      await recordVisits();
      expect(await reachOf()).toEqual(expectedReach);
      // Today's maintenance closes yesterday; today stays open.
      await closeDaysAndForget(db(), 400, new Date(Date.parse(`${today}T00:30:00Z`)));
      expect(await db().selectFrom('daily_counts').select('day').where('dimension', '=', 'variantSeen').distinct().execute()).toEqual([{ day: yesterday }]);
      expect(await reachOf()).toEqual(expectedReach);
      await closeDaysAndForget(db(), 400, new Date(Date.parse(`${addDays(today, 1)}T00:30:00Z`)));
      expect(await reachOf()).toEqual(expectedReach);
      // As npm run stats writes it.
      expect(experimentReachLines((await read()).experiments[0]!)).toEqual([
        'Buttons seen, from leave reports:',
        '  variant a: 2 leave reports, 67% of its visitors',
        '  variant b: 4 leave reports, 100% of its visitors',
        expect.stringMatching(/^Variant +Placement +Saw +Clicked +CTR seen\na +hero +2 +0 +0%\na +bonus +1 +0 +0%\nb +hero +3 +1 +33%\nb +bonus +2 +1 +50%$/),
      ]);
    });

    it('leaves the variants\' own figures and the verdict as they were', async () => {
      await recordVisits();
      const [a, b] = (await read()).experiments[0]!.variants;
      expect(a).toMatchObject({ visitors: 3, clickers: 0, clicks: 0 });
      expect(b).toMatchObject({ visitors: 4, clickers: 2, clicks: 2 });
    });

    it('gives every placement with nothing seen before any leave report arrives', async () => {
      await view('10.0.1.1', 'hero-words:b').expect(204);
      const none = { leaves: 0, placements: placements({}) };
      expect(await reachOf()).toEqual({ a: none, b: none });
    });

    it('shows on /admin who saw each button and the click-through of those who saw it, per variant', async () => {
      // /admin reads the experiments of shared/content/experiments.ts: the first, with its first two variants.
      const { id, variants } = contentExperiments[0]!;
      const admin = async () => (await request(app).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200)).text;
      expect(await admin()).toContain('No leave report from this experiment’s visitors yet');
      await recordVisits(`${id}:${variants[0]!.id}`, `${id}:${variants[1]!.id}`);
      const html = await admin();
      expect(html).toContain(`Experiment ${id}: who saw each button, and the click-through of those who saw it, by variant`);
      const table = html.slice(html.indexOf(`aria-label="Experiment ${id}: buttons seen by variant"`));
      expect(table).toMatch(/<th scope="row" class="name">Leave reports<span class="muted description">share of visitors<\/span><\/th><td>2<span class="muted description">67%<\/span><\/td><td>4<span class="muted description">100%<\/span><\/td>/);
      expect(table).toMatch(/<th scope="row" class="name">hero<\/th><td>2<span class="muted description">100% saw<\/span><span class="muted description">0% clicked<\/span><\/td><td>3<span class="muted description">75% saw<\/span><span class="muted description">33% clicked<\/span><\/td>/);
      expect(table).toMatch(/<th scope="row" class="name">bonus<\/th><td>1<span class="muted description">50% saw/);
      // Placements nobody in the experiment saw take no row.
      expect(table.slice(0, table.indexOf('</table>'))).not.toContain('>explainer<');
    });
  });

  it('shows each experiment on /admin, in the terminal table and in the JSON', async () => {
    await view('10.0.1.1', 'hero-words:b').expect(204);
    await click('10.0.1.1', 'hero-words:b').expect(204);
    // /admin reads the experiments of shared/content/experiments.ts, as the report worker does: an app on those.
    const shipped = await createTestApp({ TRUST_PROXY: '1', ADMIN_TOKEN: adminToken }, { experiments: contentExperiments, stores: createStatsStores(opened.database) });
    for (const { id, variants } of contentExperiments) {
      const last = variants[variants.length - 1]!;
      await sendReport(shipped, '/api/views', { page: '/', referrer: '', source: 'direct', medium: '', campaign: '', variants: `${id}:${last.id}` }, { 'X-Forwarded-For': '10.0.9.9' }).expect(204);
      const admin = await request(shipped).get('/admin').set('Authorization', basicAuth(adminToken)).expect(200);
      expect(admin.text).toContain(`Experiment ${id} by variant`);
      // The experiments card leads with each experiment's verdict, its figures folded below.
      expect(admin.text).toMatch(new RegExp(`<ul class="verdicts">.*<li><strong>${id}</strong>: keep running: `));
      expect(admin.text).toMatch(new RegExp(`<th scope="row">${last.id}<span class="muted description"> [^<]+</span></th><td>1</td>`));
    }
    const report = await read();
    expect(formatReportTable(report)).toMatch(/hero-words \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\)\n.*\n.*\nb +1 +1 +1 +0/);
    const json = JSON.parse(formatReportJson(report)) as { experiments: { id: string; winner: null; variants: Record<string, unknown>[] }[] };
    expect(json.experiments[0]).toMatchObject({ id: 'hero-words', winner: null });
    for (const field of ['id', 'visitors', 'clickers', 'clicks', 'conversions', 'revenue', 'chanceBest']) expect(json.experiments[0]!.variants[1]).toHaveProperty(field);
  });
});
