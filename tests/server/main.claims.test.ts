import { databaseClaimStore } from '../../server/claims/claimStore';
import { claimList } from '../../shared/content/claims';
import { merchantAnswersFromExamples } from '../support/claimsMerchant';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { freePort, startMain, waitForOutput, type Started } from '../support/mainProcess';
import { startTestMerchant, type TestMerchant } from '../support/testMerchant';
import { waitUntil } from '../support/waitUntil';

/**
 * The built server with MERCHANT_URL on the tests' own merchant: two instances on one PostgreSQL start
 * together, and the merchant's pages are fetched once between them; a restart soon after fetches nothing.
 */
describe('the claims watch of running servers on one PostgreSQL', () => {
  let merchant: TestMerchant;
  let postgres: TestEngineDatabase;
  const started: Started[] = [];

  beforeEach(async () => {
    merchant = await startTestMerchant(merchantAnswersFromExamples());
    postgres = await openTestDatabase('postgres');
  });
  afterEach(async () => {
    for (const instance of started.splice(0)) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
    await postgres.close();
    await merchant.close();
  });

  async function instance(): Promise<Started> {
    const server = startMain({ PORT: String(await freePort()), HOST: '127.0.0.1', CLICK_STATS: 'on', DATABASE_URL: postgres.url!, MERCHANT_URL: merchant.origin });
    started.push(server);
    return server;
  }
  async function stop(server: Started): Promise<void> {
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  }
  const pagesAsked = () => merchant.requests.map((request) => request.path).filter((path) => path !== '/robots.txt').sort();

  it('checks at start-up once across instances, and not again at a restart within the period', async () => {
    const [first, second] = [await instance(), await instance()];
    await waitForOutput(first, /Checking the claims against http:\/\/127\.0\.0\.1:\d+ every 24 hours/);
    const store = databaseClaimStore(postgres.database.db);
    await waitUntil('every claim checked', async () => (await store.states()).size === claimList.length, { timeoutMs: 20_000 });
    await Promise.all([waitForOutput(first, /is listening/), waitForOutput(second, /is listening/)]);
    // A stop waits for the runs under way, so whatever either instance was fetching is done by its exit.
    await Promise.all([stop(first), stop(second)]);
    expect(pagesAsked()).toEqual(['/', '/refund-policy']);
    expect([...(await store.states()).values()].every((state) => state.verdict === 'verified')).toBe(true);

    const restarted = await instance();
    await waitForOutput(restarted, /is listening/);
    await stop(restarted);
    expect(pagesAsked()).toEqual(['/', '/refund-policy']);
  });
});
