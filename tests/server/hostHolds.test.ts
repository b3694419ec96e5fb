import { PoliteFetcher } from '../../server/fetching/politeFetcher';
import { databaseHostHolds, type HostHolds } from '../../server/fetching/hostHolds';
import { engines, useTestDatabase } from '../support/engines';
import { startTestMerchant, type TestMerchant } from '../support/testMerchant';

/** A Retry-After outlives the process that read it: a restart and another instance on the database obey it too (issue 42). */

const userAgent = 'AuctionsGuideBot/1.0 (+https://auctions.example.com)';

describe.each(engines)('a Retry-After kept in the %s database', (engine) => {
  const testDatabase = useTestDatabase(engine);
  let merchant: TestMerchant;
  let clock: number;
  /** A fetcher as a freshly started instance has it: nothing in memory, the database's holds. */
  const instance = (holds: HostHolds = databaseHostHolds(testDatabase.db(), () => clock)) =>
    new PoliteFetcher({ userAgent, productToken: 'AuctionsGuideBot', now: () => clock, holds });

  beforeEach(async () => {
    clock = Date.parse('2026-11-29T01:00:00Z');
    merchant = await startTestMerchant({ '/': { body: '<p>hello</p>' } });
    merchant.answers.set('/busy', { status: 429, body: 'slow down', headers: { 'retry-after': '120' } });
  });
  afterEach(() => merchant.close());

  it('holds back a restarted process and every other instance until it has passed', async () => {
    expect(await instance().fetch(`${merchant.origin}/busy`)).toMatchObject({ outcome: 'answered', status: 429 });
    const asked = merchant.requests.length;
    clock += 119_000;
    const [restarted, other] = [instance(), instance()];
    expect(await restarted.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('Retry-After') });
    expect(await other.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'failed', reason: 'the site asked to wait (Retry-After) until 2026-11-29T01:02:00.000Z' });
    expect(merchant.requests).toHaveLength(asked);
    clock += 1_000;
    expect(await other.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'answered', status: 200 });
  });

  it('keeps the later of two holds, and drops those past their time', async () => {
    const holds = databaseHostHolds(testDatabase.db(), () => clock);
    await holds.hold('merchant.example:443', clock + 600_000);
    await holds.hold('merchant.example:443', clock + 60_000);
    expect(await holds.until('merchant.example:443')).toBe(clock + 600_000);
    await holds.hold('old.example', clock + 1_000);
    clock += 700_000;
    await holds.hold('other.example', clock + 5_000);
    const kept = await testDatabase.db().selectFrom('fetch_holds').select('host').orderBy('host').execute();
    expect(kept.map((row) => row.host)).toEqual(['other.example']);
  });

  it('still obeys its own copy when the database cannot be read or written', async () => {
    const failing: HostHolds = { until: () => Promise.reject(new Error('database down')), hold: () => Promise.reject(new Error('database down')) };
    const polite = instance(failing);
    expect(await polite.fetch(`${merchant.origin}/busy`)).toMatchObject({ outcome: 'answered', status: 429 });
    const asked = merchant.requests.length;
    expect(await polite.fetch(`${merchant.origin}/`)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('Retry-After') });
    expect(merchant.requests).toHaveLength(asked);
  });
});
