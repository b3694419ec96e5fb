import { readConversionTotals } from '../../server/conversions/conversionStore';
import { createStatsStores } from '../../server/statsStores';
import { engines, openTestDatabase, type TestEngineDatabase } from '../support/engines';
import { key, usePostbackApp, wrongKey } from '../support/postbackApp';
import { standInNetwork } from '../support/standInNetwork';
import { startTestServer, type RunningServer } from '../support/testApp';

describe.each(engines)('/api/conversions on %s', (engine) => {
  const { conversions, events, totals, get, postForm, postJson } = usePostbackApp(engine);

  describe('a sale', () => {
    it('sent in the query string is recorded and answered 200 "recorded"', async () => {
      const response = await get({ key, txid: 'T-1', subid: 'heabcdefghij234567abcd', payout: '12.50', currency: 'EUR' }).expect(200);
      expect(response.text).toBe('recorded\n');
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(await conversions()).toEqual([
        expect.objectContaining({ txid: 'T-1', subid: 'heabcdefghij234567abcd', click_id: 'heabcdefghij234567abcd', placement: 'hero', payout_micros: 12_500_000, status: 'sale', reversed_at: null }),
      ]);
      expect((await conversions())[0]!.currency.trim()).toBe('EUR');
    });

    it('sent as a form body is recorded', async () => {
      await postForm({ key, txid: 'T-2', payout: '3' }).expect(200, 'recorded\n');
      expect(await totals()).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 3_000_000 }] });
    });

    it('sent as JSON, numbers included, is recorded', async () => {
      await postJson({ key, txid: 987654, payout: 19.99, status: 'sale' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ txid: '987654', payout_micros: 19_990_000 })]);
    });

    it('may carry the key in the URL and the fields in the body', async () => {
      await postJson({ txid: 'T-3' }, `/api/conversions?key=${key}`).expect(200, 'recorded\n');
    });

    it('whose txid is already recorded is answered 200 "duplicate" and adds nothing, as networks retry', async () => {
      await get({ key, txid: 'T-4', payout: '10' }).expect(200, 'recorded\n');
      await get({ key, txid: 'T-4', payout: '10' }).expect(200, 'duplicate\n');
      await postForm({ key, txid: 'T-4', payout: '99' }).expect(200, 'duplicate\n');
      expect(await totals()).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 10_000_000 }] });
      expect((await events()).map((event) => event.outcome)).toEqual(['recorded', 'duplicate', 'duplicate']);
    });

    it('with a sub-ID that matches no click is kept as unattributed, never dropped', async () => {
      await get({ key, txid: 'T-5', subid: 'newsletter_june-2026' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ subid: 'newsletter_june-2026', click_id: null, placement: null })]);
      expect(await totals()).toMatchObject({ conversions: 1, unattributed: 1 });
    });

    it('with a bare placement as its sub-ID (a link followed without JavaScript) keeps the placement', async () => {
      await get({ key, txid: 'T-6', subid: 'HERO' }).expect(200);
      expect(await conversions()).toEqual([expect.objectContaining({ subid: 'HERO', placement: 'hero', click_id: null })]);
    });

    it("may name its transaction ID tid, as Keitaro's postbacks do", async () => {
      await get({ key, tid: 'K-1', subid: 'heabcdefghij234567abcd', status: 'sale', payout: '5' }).expect(200, 'recorded\n');
      expect(await conversions()).toEqual([expect.objectContaining({ txid: 'K-1' })]);
    });
  });

  describe('a refund or chargeback', () => {
    it('of a known txid reverses it: it no longer counts, and the history stays', async () => {
      await get({ key, txid: 'R-1', payout: '40' }).expect(200, 'recorded\n');
      await get({ key, txid: 'R-2', payout: '2' }).expect(200, 'recorded\n');
      await get({ key, txid: 'R-1', status: 'refund' }).expect(200, 'reversed\n');
      expect(await totals()).toEqual({ conversions: 1, unattributed: 1, reversed: 1, revenue: [{ currency: 'USD', payoutMicros: 2_000_000 }] });
      expect(await events()).toEqual([
        { txid: 'R-1', status: 'sale', outcome: 'recorded', via: 'postback' },
        { txid: 'R-2', status: 'sale', outcome: 'recorded', via: 'postback' },
        { txid: 'R-1', status: 'refund', outcome: 'reversed', via: 'postback' },
      ]);
      expect(await conversions()).toEqual([
        expect.objectContaining({ txid: 'R-1', status: 'refund', payout_micros: 40_000_000, reversed_at: expect.any(Number) }),
        expect.objectContaining({ txid: 'R-2', status: 'sale', reversed_at: null }),
      ]);
    });

    it('of a chargeback is kept as such', async () => {
      await get({ key, txid: 'C-1' }).expect(200);
      await postJson({ key, txid: 'C-1', status: 'chargeback' }).expect(200, 'reversed\n');
      expect(await conversions()).toEqual([expect.objectContaining({ status: 'chargeback' })]);
    });

    it('sent again is answered "already reversed" and changes nothing', async () => {
      await get({ key, txid: 'R-3' }).expect(200);
      await get({ key, txid: 'R-3', status: 'refund' }).expect(200, 'reversed\n');
      const [before] = await conversions();
      await get({ key, txid: 'R-3', status: 'chargeback' }).expect(200, 'already reversed\n');
      expect(await conversions()).toEqual([before]);
    });

    it('of a txid never seen is answered "unknown txid" and kept, so its late sale arrives reversed', async () => {
      await get({ key, txid: 'R-4', status: 'refund' }).expect(200, 'unknown txid\n');
      await get({ key, txid: 'R-4', payout: '15' }).expect(200, 'duplicate\n');
      expect(await totals()).toEqual({ conversions: 0, unattributed: 0, reversed: 1, revenue: [] });
    });
  });

  describe('network status names', () => {
    it('are read through sale_status, refund_status and chargeback_status in the postback URL', async () => {
      const lists = { sale_status: 'APPROVED,PENDING', refund_status: 'REVERSED', chargeback_status: 'DISPUTED' };
      await get({ key, ...lists, txid: 'I-1', status: 'PENDING' }).expect(200, 'recorded\n');
      await get({ key, ...lists, txid: 'I-1', status: 'APPROVED' }).expect(200, 'duplicate\n');
      await get({ key, ...lists, txid: 'I-1', status: 'REVERSED' }).expect(200, 'reversed\n');
      expect(await totals()).toMatchObject({ conversions: 0, reversed: 1 });
    });
  });
});

describe.each(engines)('a stand-in network sending postbacks over HTTP, on %s', (engine) => {
  let opened: TestEngineDatabase;
  let site: RunningServer;
  beforeEach(async () => {
    opened = await openTestDatabase(engine);
    site = await startTestServer({ CONVERSIONS_KEY: key }, { stores: createStatsStores(opened.database) });
  });
  afterEach(async () => {
    await site.close();
    await opened.close();
  });

  it("records Impact-style postbacks with its own macros: sales, a retry, a reversal, garbage and a wrong key", async () => {
    const template = (withKey: string) =>
      `${site.url}/api/conversions?key=${withKey}&txid={ActionId}&subid={SubId1}&status={Status}&payout={Payout}&currency={Currency}` +
      '&sale_status=PENDING,APPROVED&refund_status=REVERSED';
    const impact = standInNetwork({ template: template(key), macro: (name) => `{${name}}` });
    const sale = { SubId1: 'heabcdefghij234567abcd', Payout: '24.00', Currency: 'USD', Status: 'PENDING' };
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1', Status: 'APPROVED' })).toEqual({ status: 200, text: 'duplicate' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.2', SubId1: 'no-such-click!' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.3', SubId1: 'bonus', Payout: '6.5' })).toEqual({ status: 200, text: 'recorded' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.1', Status: 'REVERSED' })).toEqual({ status: 200, text: 'reversed' });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.4', Payout: 'N/A' })).toMatchObject({ status: 400, text: expect.stringMatching(/^payout /) });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.5', Currency: '$' })).toMatchObject({ status: 400, text: expect.stringMatching(/^currency /) });
    expect(await impact.send({ ...sale, ActionId: '1001.2002.6', Status: 'DECLINED' })).toMatchObject({ status: 400, text: expect.stringMatching(/^status /) });
    const impostor = standInNetwork({ template: template(wrongKey), macro: (name) => `{${name}}` });
    expect(await impostor.send({ ...sale, ActionId: '1001.2002.7' })).toEqual({ status: 403, text: 'Wrong or missing key' });

    expect(await readConversionTotals(opened.database.db)).toEqual({
      conversions: 2,
      unattributed: 1,
      reversed: 1,
      revenue: [{ currency: 'USD', payoutMicros: 30_500_000 }],
    });
  });

  it('records ShareASale-style postbacks posted as a form', async () => {
    const shareASale = standInNetwork({
      template: `${site.url}/api/conversions?key=${key}&txid=!!transID!!&subid=!!afftrack!!&payout=!!commission!!`,
      macro: (name) => `!!${name}!!`,
      method: 'POST',
    });
    expect(await shareASale.send({ transID: '90817263', afftrack: 'heabcdefghij234567abcd', commission: '7.25' })).toEqual({ status: 200, text: 'recorded' });
    expect(await shareASale.send({ transID: '90817263', afftrack: 'heabcdefghij234567abcd', commission: '7.25' })).toEqual({ status: 200, text: 'duplicate' });
    expect(await readConversionTotals(opened.database.db)).toMatchObject({ conversions: 1, revenue: [{ currency: 'USD', payoutMicros: 7_250_000 }] });
  });
});
