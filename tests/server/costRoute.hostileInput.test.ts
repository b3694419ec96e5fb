import fc from 'fast-check';
import request from 'supertest';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { answered, dayText, expectStillServing, hangMs, headerText, hostileText, listen, type Listening } from '../support/hostileInput';

/** POST /api/costs answers whatever it is sent (tests/support/hostileInput.ts says how to replay a failure). */

const conversionsKey = 'h0st1le-c0nv3rs10ns-k3y-0123456789ab';

describe('POST /api/costs with hostile bodies', () => {
  let database: TestEngineDatabase;
  let server: Listening;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    server = await listen(database, { CONVERSIONS_KEY: conversionsKey, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });

  const value = fc.oneof(
    { arbitrary: hostileText, weight: 3 },
    fc.jsonValue({ maxDepth: 2 }),
    fc.double(),
    fc.constantFrom('12.50', '0', '-1', '1e308', 'NaN', '1000000000.000001', 'USD', 'usd', 'EURO', 'facebook', ''),
  );
  const costRow = fc.oneof(
    { arbitrary: fc.record({ day: fc.oneof(dayText, value), source: value, campaign: value, content: value, cost: value, currency: value }, { requiredKeys: [] }), weight: 4 },
    fc.jsonValue({ maxDepth: 2 }),
  );
  const body = fc.oneof(
    { arbitrary: fc.array(costRow, { maxLength: 20 }).map((rows) => JSON.stringify({ rows })), weight: 4 },
    fc.json({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.jsonValue().map((parsed) => `${JSON.stringify(parsed) ?? ''}`.slice(0, -1)),
  );
  const keyHeader = fc.oneof({ arbitrary: fc.constant(`Bearer ${conversionsKey}`), weight: 8 }, headerText(), fc.constant(undefined));
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', undefined);

  it('never answers 5xx, crashes or hangs', async () => {
    await fc.assert(
      fc.asyncProperty(body, keyHeader, contentType, fc.integer({ min: 1, max: 254 }), async (sent, authorization, type, address) => {
        // Addresses drawn from a /24, so the wrong-key throttle holds some back and not all.
        const pending = request(server.url).post('/api/costs').set('X-Forwarded-For', `198.51.100.${address}`);
        if (authorization !== undefined) pending.set('Authorization', authorization);
        if (type !== undefined) pending.set('Content-Type', type);
        const response = await answered(server, pending.send(sent));
        if (response === 'reset') return;
        expect([200, 400, 403, 405, 413, 415, 429]).toContain(response.status);
        expect(response.type).toBe('application/json');
        if (response.status === 200) expect(Object.keys(response.body)).toEqual(['applied', 'unchanged', 'rejected']);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 60_000, timeout: hangMs },
    );
    await expectStillServing(server);
  }, 90_000);
});
