import { newClickId } from '../../shared/affiliate';
import { readConversionTotals } from '../../server/conversions/conversionStore';
import { createStatsStores } from '../../server/statsStores';
import { engines, openTestDatabase } from '../support/engines';
import { inParallel, standInNetwork } from '../support/standInNetwork';
import { startTestServer } from '../support/testApp';

const key = 'c0nv3rs10ns-k3y-0123456789abcdef0123';
const distinct = 1_500;
const repeated = 500;
/**
 * Postbacks under way at once: enough that a txid and its repeat are in flight together, and twice the
 * pool's 10 connections, so that they queue for one. Not 100: on a busy machine (a clean-clone CI run at load
 * 13) the last of 100 queued waited past the pool's 5 s for a connection and were answered 503, as the
 * server should answer a network it cannot record for (it sends again), and not what this test measures.
 */
const concurrency = 20;

describe.each(engines)('2,000 concurrent postbacks on %s', (engine) => {
  it(
    'with 500 repeated txids record exactly 1,500 conversions, each once',
    async () => {
      const opened = await openTestDatabase(engine);
      const site = await startTestServer({ CONVERSIONS_KEY: key }, { stores: createStatsStores(opened.database) });
      try {
        const template = `${site.url}/api/conversions?key=${key}&txid=[TXID]&subid=[SUBID]&payout=1.00`;
        const byGet = standInNetwork({ template, macro: (name) => `[${name}]` });
        const byForm = standInNetwork({ template, macro: (name) => `[${name}]`, method: 'POST' });
        // Every repeat is queued right beside its first copy, so the two race through the server together.
        const events = Array.from({ length: distinct }, (_, index) => ({ TXID: `TX-${index}`, SUBID: newClickId('bonus') }));
        const order = events.flatMap((event, index) => (index < repeated ? [event, event] : [event]));
        const answers = await inParallel(
          order.map((event, index) => () => (index % 2 === 0 ? byGet : byForm).send(event)),
          concurrency,
        );

        expect(answers).toHaveLength(distinct + repeated);
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(distinct + repeated);
        expect(answers.filter((answer) => answer.text === 'recorded')).toHaveLength(distinct);
        expect(answers.filter((answer) => answer.text === 'duplicate')).toHaveLength(repeated);
        const db = opened.database.db;
        expect(await readConversionTotals(db)).toEqual({
          conversions: distinct,
          unattributed: 0,
          reversed: 0,
          revenue: [{ currency: 'USD', payoutMicros: distinct * 1_000_000 }],
        });
        const history = await db.selectFrom('conversion_events').select((eb) => eb.fn.countAll<number>().as('rows')).executeTakeFirstOrThrow();
        expect(Number(history.rows)).toBe(distinct + repeated);
      } finally {
        await site.close();
        await opened.close();
      }
    },
    120_000,
  );
});
