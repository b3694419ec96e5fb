import { startBackgroundWork } from '../../server/backgroundWork';
import { createStatsStores } from '../../server/statsStores';
import { manualTimers } from '../support/manualTimers';
import { testConfig } from '../support/testApp';
import { waitUntil } from '../support/waitUntil';
import { createIncidentStore, type IncidentStore } from '../../server/alerts/incidents';
import { runRules } from '../../server/alerts/watch';
import { databaseClaimStore } from '../../server/claims/claimStore';
import { ClaimsWatch, claimsCheckDue, claimsCheckOff } from '../../server/claims/claimsWatch';
import { claimJobRun } from '../../server/jobs/jobRuns';
import { silentLogger } from '../../server/lib/logger';
import { createSiteFetcher } from '../../server/fetching/siteFetcher';
import { claimList } from '../../shared/content/claims';
import { merchantAnswersFromExamples, merchantPagesFromExamples, withEtag } from '../support/claimsMerchant';
import { engines, useTestDatabase } from '../support/engines';
import { startTestMerchant, type TestMerchant } from '../support/testMerchant';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const refundPage = merchantPagesFromExamples()['/refund-policy']!;

describe.each(engines)('the claims watch and the claims rule (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let merchant: TestMerchant;
  let clock: number;
  let incidents: IncidentStore;

  beforeEach(async () => {
    clock = Date.parse('2026-11-28T12:00:00Z');
    merchant = await startTestMerchant(merchantAnswersFromExamples());
    incidents = createIncidentStore(database.db(), { channels: ['webhook'], siteUrl: 'https://auctions.example.com' });
  });
  afterEach(() => merchant.close());

  const watch = () =>
    new ClaimsWatch({
      claims: claimList,
      merchantUrl: merchant.origin,
      fetcher: createSiteFetcher('https://auctions.example.com', { now: () => clock }),
      store: databaseClaimStore(database.db()),
      intervalMs: day,
      logger: silentLogger,
      claimRun: (job, period) => claimJobRun(database.db(), job, period, new Date(clock)),
      now: () => clock,
    });
  const rules = () => runRules({ db: database.db() }, incidents, clock, 'claims');

  it('alerts on a contradicted claim after the second check an hour on, once, and recovers when the page says 60 again', async () => {
    const claims = watch();
    expect(await claims.tick()).toHaveLength(claimList.length);
    merchant.answers.set('/refund-policy', withEtag(refundPage.replace('60-day', '30-day')));
    clock += day;
    expect((await claims.tick())!.find((result) => result.claim.id === 'refundWindow')!.state.verdict).toBe('contradicted');
    expect(await rules()).toEqual({ opened: [], closed: [], failed: [] });
    // Not verified: looked at again every 15 minutes; an alert only once two checks an hour apart agree.
    clock += 14 * minute;
    expect(await claims.tick()).toBeUndefined();
    for (let look = 0; look < 3; look += 1) {
      clock += 15 * minute;
      expect(await claims.tick()).toBeDefined();
      expect((await rules()).opened).toEqual([]);
    }
    clock += 15 * minute;
    await claims.tick();
    expect(await rules()).toEqual({ opened: [{ rule: 'claims', subject: 'refundWindow' }], closed: [], failed: [] });
    const [open] = await incidents.openIncidents();
    expect(open!.summary).toContain('The site says: A 60-day refund');
    expect(open!.summary).toContain('30-day money-back guarantee');
    expect(open!.summary).toContain(`${merchant.origin}/refund-policy`);
    expect(open!.summary).toContain('/ (hero, benefits, faq), /about-us (our-approach)');
    clock += 15 * minute;
    await claims.tick();
    expect((await rules()).opened).toEqual([]);
    merchant.answers.set('/refund-policy', withEtag(refundPage));
    clock += 15 * minute;
    await claims.tick();
    expect(await rules()).toEqual({ opened: [], closed: [{ rule: 'claims', subject: 'refundWindow' }], failed: [] });
  });

  it('never alerts a claim it cannot read as changed, and opens a can’t-verify incident once it is stale', async () => {
    const claims = watch();
    await claims.tick();
    merchant.answers.set('/refund-policy', { status: 403, body: '<title>Just a moment...</title>' });
    for (let look = 0; look < 8 * 24; look += 1) {
      clock += hour;
      await claims.tick();
      const run = await rules();
      if (clock - Date.parse('2026-11-28T12:00:00Z') <= 7 * day) expect(run.opened).toEqual([]);
    }
    const open = await incidents.openIncidents();
    expect(open.map((incident) => incident.subject)).toEqual(['refundWindow (can’t verify)']);
    expect(open[0]!.summary).toContain('403 Forbidden');
    // Unknown for days, the claim is looked at every 2 hours (server/lib/recheckBackoff.ts): the recovery is told by then.
    merchant.answers.set('/refund-policy', withEtag(refundPage));
    clock += 2 * hour;
    await claims.tick();
    expect((await rules()).closed).toEqual([{ rule: 'claims', subject: 'refundWindow (can’t verify)' }]);
  });

  it('backs off from a merchant that gives no answer, looking again after as long as the outage has lasted, at most 2 hours', async () => {
    const claims = watch();
    await claims.tick();
    for (const path of ['/', '/refund-policy', '/robots.txt']) merchant.answers.set(path, { status: 503, body: 'down for maintenance' });
    clock += day;
    const outageFrom = clock;
    expect((await claims.tick())!.every((result) => result.state.verdict === 'unknown')).toBe(true);
    // The schedule's minute ticks over 7 hours of the outage, then the merchant is back.
    const looks: number[] = [];
    for (let tick = 0; tick < 7 * 60; tick += 1) {
      clock += minute;
      if (await claims.tick()) looks.push((clock - outageFrom) / minute);
    }
    expect(looks).toEqual([15, 30, 60, 120, 240, 360]);
    const asked = merchant.requests.length;
    merchant.answers.set('/robots.txt', { status: 404, body: '' });
    for (const [path, answer] of Object.entries(merchantAnswersFromExamples())) merchant.answers.set(path, answer);
    for (let tick = 0; tick < 2 * 60 && merchant.requests.length === asked; tick += 1) {
      clock += minute;
      await claims.tick();
    }
    expect((await databaseClaimStore(database.db()).states()).get('refundWindow')!.verdict).toBe('verified');
    expect(clock - outageFrom).toBe(480 * minute);
  });

  it('checks from the schedule at start-up when due, and runs the claims rule after its check', async () => {
    const stores = createStatsStores(database.opened.database);
    const timers = manualTimers();
    merchant.answers.set('/refund-policy', withEtag(refundPage.replace('60-day', '30-day')));
    const background = startBackgroundWork(testConfig({ CLAIMS_CHECK_HOURS: '24' }), stores, { claimsWatch: watch(), logger: silentLogger, timers: timers.timers });
    try {
      await timers.advance(0);
      await waitUntil('the start-up check to be saved', async () => (await stores.claims.states()).size === claimList.length);
      expect((await stores.claims.states()).get('refundWindow')!.verdict).toBe('contradicted');
      // An hour later (four re-checks of a claim not verified), the check's own run of the rule opens the incident.
      clock += hour;
      await timers.advance(60 * minute);
      await background.settled();
      await waitUntil('the claims incident', async () => (await incidents.openIncidents()).some((incident) => incident.rule === 'claims'));
    } finally {
      background.stop();
      await background.finish();
    }
  });

  it('lets two instances on one database fetch each page once per period', async () => {
    const [first, second] = [watch(), watch()];
    await Promise.all([first.tick(), second.tick()]);
    clock += day;
    await Promise.all([first.tick(), second.tick()]);
    const pages = merchant.requests.map((request) => request.path).filter((path) => path !== '/robots.txt');
    expect(pages.sort()).toEqual(['/', '/', '/refund-policy', '/refund-policy']);
  });
});

describe('claimsCheckDue and claimsCheckOff', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  const state = (verdict: 'verified' | 'unknown', checkedAt: number) => ({ claimId: '', verdict, since: checkedAt, checkedAt, firstCheckedAt: checkedAt, items: [] });
  const all = (verdict: 'verified' | 'unknown', checkedAt: number) => new Map(claimList.map((claim) => [claim.id, { ...state(verdict, checkedAt), claimId: claim.id }]));

  it('is due at the first check, a period after the latest, and 15 minutes after a claim is first not verified', () => {
    expect(claimsCheckDue({ claims: claimList, states: new Map(), now, intervalMs: day })).toBe('first check');
    expect(claimsCheckDue({ claims: claimList, states: all('verified', now - day + 1), now, intervalMs: day })).toBeUndefined();
    expect(claimsCheckDue({ claims: claimList, states: all('verified', now - day), now, intervalMs: day })).toBe('period');
    expect(claimsCheckDue({ claims: claimList, states: all('unknown', now - 15 * minute), now, intervalMs: day })).toBe('re-check of a claim not verified');
    expect(claimsCheckDue({ claims: claimList, states: all('unknown', now - 15 * minute + 1), now, intervalMs: day })).toBeUndefined();
  });

  it('looks again at a contradicted or missing claim every 15 minutes, and at an unknown one after as long as it has been unknown, at most 2 hours', () => {
    const failing = (verdict: 'contradicted' | 'missing' | 'unknown', since: number, checkedAt: number) =>
      new Map(claimList.map((claim) => [claim.id, { ...state('verified', checkedAt), claimId: claim.id, ...(claim.id === 'refundWindow' ? { verdict, since } : {}) }]));
    const due = (states: ReturnType<typeof failing>, at: number) => claimsCheckDue({ claims: claimList, states, now: at, intervalMs: day });
    const checkedAt = now - 5 * hour;
    for (const verdict of ['contradicted', 'missing'] as const) {
      expect(due(failing(verdict, checkedAt - 3 * day, checkedAt), checkedAt + 15 * minute)).toBe('re-check of a claim not verified');
    }
    // Unknown since 45 minutes before its latest check: looked at 45 minutes after it.
    expect(due(failing('unknown', checkedAt - 45 * minute, checkedAt), checkedAt + 45 * minute - 1)).toBeUndefined();
    expect(due(failing('unknown', checkedAt - 45 * minute, checkedAt), checkedAt + 45 * minute)).toBe('re-check of a claim not verified');
    // Unknown for days: every 2 hours.
    expect(due(failing('unknown', checkedAt - 3 * day, checkedAt), checkedAt + 2 * hour - 1)).toBeUndefined();
    expect(due(failing('unknown', checkedAt - 3 * day, checkedAt), checkedAt + 2 * hour)).toBe('re-check of a claim not verified');
    const missingOne = all('verified', now);
    missingOne.delete('refundWindow');
    expect(claimsCheckDue({ claims: claimList, states: missingOne, now, intervalMs: day })).toBe('a claim never checked');
  });

  it('leaves a documentation address, CLAIMS_CHECK_HOURS=off and no database alone', () => {
    expect(claimsCheckOff('https://www.example.com', 24, true)).toBe('MERCHANT_URL is on www.example.com, a documentation address no merchant answers');
    expect(claimsCheckOff('https://merchant.shop', undefined, true)).toBe('CLAIMS_CHECK_HOURS is off');
    expect(claimsCheckOff('https://merchant.shop', 24, false)).toMatch(/CLICK_STATS is off/);
    expect(claimsCheckOff('https://merchant.shop', 24, true)).toBeUndefined();
  });
});
