import { gunzipSync } from 'node:zlib';
import { claimList } from '../../shared/content/claims';
import { checkClaims } from '../../server/claims/checkClaims';
import { databaseClaimStore, keptEvidencePerClaim, type ClaimStore } from '../../server/claims/claimStore';
import { PoliteFetcher } from '../../server/fetching/politeFetcher';
import { merchantAnswersFromExamples, merchantPagesFromExamples, withEtag } from '../support/claimsMerchant';
import { engines, useTestDatabase } from '../support/engines';
import { requestedPaths, startTestMerchant, type TestMerchant } from '../support/testMerchant';

const dayMs = 24 * 3600_000;
const pages = merchantPagesFromExamples();
const refundPage = pages['/refund-policy']!;

describe.each(engines)('checkClaims against the test merchant (%s)', (engine) => {
  const database = useTestDatabase(engine);
  let merchant: TestMerchant;
  let clock: number;
  let store: ClaimStore;
  let fetcher: PoliteFetcher;

  beforeEach(async () => {
    clock = Date.parse('2026-11-28T12:00:00Z');
    merchant = await startTestMerchant(merchantAnswersFromExamples());
    store = databaseClaimStore(database.db());
    fetcher = politeFetcher();
  });
  /** The fetcher's own 15 s unless given: a short one only where a page never answers, so a busy machine's slow answer is never read as a timeout. */
  const politeFetcher = (timeoutMs?: number) =>
    new PoliteFetcher({ userAgent: 'AuctionsGuideBot/1.0 (+http://localhost)', productToken: 'AuctionsGuideBot', now: () => clock, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  afterEach(() => merchant.close());

  const check = () => checkClaims({ claims: claimList, merchantUrl: merchant.origin, fetcher, store, now: () => clock });
  const verdicts = async () => Object.fromEntries((await check()).map((result) => [result.claim.id, result.state.verdict]));

  it('verifies every claim on pages built from the examples, fetching each page once', async () => {
    const results = await check();
    expect(results.map((result) => [result.claim.id, result.state.verdict])).toEqual(claimList.map((claim) => [claim.id, 'verified']));
    expect(requestedPaths(merchant).sort()).toEqual(['/', '/refund-policy', '/robots.txt']);
  });

  it('reads a 30-day refund as contradicted, keeps the evidence with the page, and verified again when it says 60', async () => {
    await check();
    merchant.answers.set('/refund-policy', withEtag(refundPage.replace('60-day', '30-day')));
    clock += 3600_000;
    const contradicted = (await check()).find((result) => result.claim.id === 'refundWindow')!;
    expect(contradicted.state.verdict).toBe('contradicted');
    expect(contradicted.reading.deciding).toMatchObject({ found: 30, excerpt: expect.stringContaining('30-day money-back guarantee') });
    merchant.answers.set('/refund-policy', withEtag(refundPage));
    clock += 3600_000;
    expect((await verdicts()).refundWindow).toBe('verified');
    const kept = await store.evidence('refundWindow');
    expect(kept.map((row) => row.verdict)).toEqual(['verified', 'contradicted', 'verified']);
    expect(gunzipSync(kept[1]!.pageGzip!).toString()).toContain('30-day money-back guarantee');
    expect(kept[1]!.excerptHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads a JSON-LD merchantReturnDays of 30 as contradicted', async () => {
    merchant.answers.set('/', withEtag(pages['/']!.replace('"merchantReturnDays":60', '"merchantReturnDays":30')));
    expect((await verdicts()).refundWindow).toBe('contradicted');
  });

  it('reads removed evidence as missing', async () => {
    merchant.answers.set('/refund-policy', withEtag('<main><p>Refunds are handled case by case. Write to us with your order number and the reason.</p></main>'));
    expect((await verdicts()).refundWindow).toBe('missing');
  });

  it.each([
    ['a 403 challenge page', () => merchant.answers.set('/refund-policy', { status: 403, body: '<title>Just a moment...</title>Checking your browser' })],
    ['a page of 40 bytes', () => merchant.answers.set('/refund-policy', { body: '<html><body>Loading…</body></html>'.padEnd(40) })],
    ['a 200 challenge page', () => merchant.answers.set('/refund-policy', { body: '<html><body><h1>Just a moment...</h1><p>Checking your browser before accessing the site. This takes a few seconds.</p></body></html>' })],
    [
      'a timeout',
      () => {
        merchant.answers.set('/refund-policy', () => {});
        fetcher = politeFetcher(1_000);
      },
    ],
    ['a 5xx robots.txt', () => merchant.answers.set('/robots.txt', { status: 503, body: 'down' })],
    ['Disallow: /', () => merchant.answers.set('/robots.txt', { body: 'User-agent: *\nDisallow: /\n' })],
  ])('reads %s as unknown, never as a changed claim, and stale after maxAgeDays of it', async (_what, breakIt) => {
    await check();
    breakIt();
    clock += dayMs;
    expect((await verdicts()).refundWindow).toBe('unknown');
    clock += 7 * dayMs;
    expect((await verdicts()).refundWindow).toBe('stale');
  });

  it('reads a selector that matches nothing as unknown: the page changed shape', async () => {
    merchant.answers.set('/', withEtag(pages['/']!.replace('<section id="benefits">', '<section id="perks">')));
    expect((await verdicts()).savingsInBenefits).toBe('unknown');
  });

  it('keeps the verdicts on a 304 after an ETag, without the page sent again', async () => {
    await check();
    const before = merchant.requests.length;
    clock += dayMs;
    const again = await verdicts();
    expect(Object.values(again).every((verdict) => verdict === 'verified')).toBe(true);
    const conditional = merchant.requests.slice(before).filter((request) => request.headers['if-none-match']);
    expect(conditional.map((request) => request.path).sort()).toEqual(['/', '/refund-policy']);
    expect((await store.states()).get('refundWindow')!.verifiedAt).toBe(clock);
  });

  it('keeps the last 20 pieces of evidence per claim', async () => {
    for (let change = 0; change < keptEvidencePerClaim + 3; change += 1) {
      merchant.answers.set('/refund-policy', withEtag(change % 2 === 0 ? refundPage.replace('60-day', '30-day') : refundPage));
      clock += 3600_000;
      await check();
    }
    expect(await store.evidence('refundWindow', 100)).toHaveLength(keptEvidencePerClaim);
  });
});
