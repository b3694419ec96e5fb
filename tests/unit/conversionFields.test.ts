import {
  formatPayout,
  parseConversion,
  parsePayoutMicros,
  statusMapFromLists,
  statusMapFromPairs,
  type ConversionFields,
} from '../../server/conversions/conversionFields';
import { variantSubId, type Experiment } from '../../shared/experiments/experiment';

const report = (fields: ConversionFields) => parseConversion({ txid: 'T-1', ...fields }).report;
const errorOf = (fields: ConversionFields) => parseConversion(fields).error;

describe('parseConversion', () => {
  it('reads a full sale', () => {
    expect(parseConversion({ txid: ' 1234.5678.9 ', subid: 'bo4k2mq7xbt3zw6dyr5aqe', payout: '12.50', currency: 'eur', status: 'SALE' })).toEqual({
      report: { txid: '1234.5678.9', subid: 'bo4k2mq7xbt3zw6dyr5aqe', clickId: 'bo4k2mq7xbt3zw6dyr5aqe', placement: 'bonus', variants: '', payoutMicros: 12_500_000, currency: 'EUR', status: 'sale' },
    });
  });

  it("reads a sub-ID without JavaScript from a page in an experiment: the placement and the variants", () => {
    const experiments: Experiment[] = [{ id: 'hero-words', variants: [{ id: 'a' }, { id: 'b' }] }];
    const subid = variantSubId('cb', [{ experiment: 'hero-words', variant: 'b' }]);
    const parsed = parseConversion({ txid: 'T-1', subid: subid.toUpperCase() }, new Map(), experiments);
    expect(parsed.report).toMatchObject({ placement: 'check-auctions-button', clickId: null, variants: 'hero-words:b' });
    expect(parseConversion({ txid: 'T-1', subid }, new Map(), []).report).toMatchObject({ placement: 'check-auctions-button', variants: '' });
  });

  it('makes a sale in USD without a payout when only txid is given', () => {
    expect(report({})).toEqual({ txid: 'T-1', subid: null, clickId: null, placement: null, variants: '', payoutMicros: null, currency: 'USD', status: 'sale' });
  });

  it.each([
    ['hero', 'hero'],
    ['BONUS', 'bonus'],
    ['check-auctions-button', 'check-auctions-button'],
  ])('reads the sub-ID %s as the placement %s', (subid, placement) => {
    expect(report({ subid })).toMatchObject({ subid, placement, clickId: null });
  });

  it('reads a click ID sent back upper-cased (ClickBank) as the lower-case ID it was, with its placement', () => {
    expect(report({ subid: 'HE4K2MQ7XBT3ZW6DYR5AQE' })).toMatchObject({ subid: 'HE4K2MQ7XBT3ZW6DYR5AQE', clickId: 'he4k2mq7xbt3zw6dyr5aqe', placement: 'hero' });
  });

  it.each([
    'fb_ad-3',
    'spring sale',
    'a'.repeat(65),
    'k3XcQ9',
    // The right length and alphabet, but no placement's code (zz), or a character base32 never makes (0, 1, 8, 9).
    'zz4k2mq7xbt3zw6dyr5aqe',
    'he4k2mq7xbt3zw6dyr5aq0',
  ])('keeps the sub-ID %j unattributed: neither click ID nor placement, never dropped', (subid) => {
    expect(report({ subid })).toMatchObject({ subid, placement: null, clickId: null });
  });

  it('treats empty optional fields as missing', () => {
    expect(report({ subid: '', payout: ' ', currency: '', status: '' })).toMatchObject({ subid: null, payoutMicros: null, currency: 'USD', status: 'sale' });
  });

  it.each(['refund', 'Chargeback'])('reads the status %s', (status) => {
    expect(report({ status })?.status).toBe(status.toLowerCase());
  });

  it('reads a network status through a status map', () => {
    const { map } = statusMapFromLists({ sale: 'APPROVED,pending', refund: 'REVERSED' });
    expect(parseConversion({ txid: 'A1', status: 'Reversed' }, map).report?.status).toBe('refund');
    expect(parseConversion({ txid: 'A1', status: 'PENDING' }, map).report?.status).toBe('sale');
  });

  it.each([
    [{}, 'txid', "txid is required: the network's transaction ID"],
    [{ txid: '   ' }, 'txid', "txid is required: the network's transaction ID"],
    [{ txid: 'x'.repeat(129) }, 'txid', 'txid must be at most 128 characters without control characters'],
    [{ txid: 'a\nb' }, 'txid', 'txid must be at most 128 characters without control characters'],
    [{ txid: '{ActionId}' }, 'txid', 'txid is a macro the network did not fill in: check the macro name in the postback URL'],
    [{ txid: '!!transID!!' }, 'txid', 'txid is a macro the network did not fill in: check the macro name in the postback URL'],
    [{ txid: '!!!transactionId!!!' }, 'txid', 'txid is a macro the network did not fill in: check the macro name in the postback URL'],
    [{ txid: '[RECEIPT]' }, 'txid', 'txid is a macro the network did not fill in: check the macro name in the postback URL'],
    [{ txid: 'T', subid: 's'.repeat(256) }, 'subid', 'subid must be at most 255 characters without control characters'],
    [{ txid: 'T', payout: '-5' }, 'payout', 'payout must be a decimal number from 0 to 1000000 with at most 6 decimal places, such as 12.50'],
    [{ txid: 'T', payout: '12,50' }, 'payout', expect.stringMatching(/^payout must be/)],
    [{ txid: 'T', payout: '1e3' }, 'payout', expect.stringMatching(/^payout must be/)],
    [{ txid: 'T', payout: '1000000.01' }, 'payout', expect.stringMatching(/^payout must be/)],
    [{ txid: 'T', payout: '0.0000001' }, 'payout', expect.stringMatching(/^payout must be/)],
    [{ txid: 'T', payout: '{Payout}' }, 'payout', expect.stringMatching(/^payout must be/)],
    [{ txid: 'T', currency: 'US' }, 'currency', 'currency must be an ISO 4217 currency code such as USD or EUR'],
    [{ txid: 'T', currency: 'ZZZ' }, 'currency', 'currency must be an ISO 4217 currency code such as USD or EUR'],
    [{ txid: 'T', status: 'lead' }, 'status', 'status must be sale, refund or chargeback, or a status the postback maps with sale_status, refund_status or chargeback_status'],
  ])('refuses %j with one line naming %s', (fields, field, message) => {
    expect(errorOf(fields as ConversionFields)).toEqual({ field, message });
  });
});

describe('payouts', () => {
  it.each([
    ['0', 0],
    ['12.5', 12_500_000],
    ['12.', 12_000_000],
    ['.75', 750_000],
    ['0.000001', 1],
    ['1000000', 1_000_000_000_000],
    ['19.990000', 19_990_000],
  ])('reads %s as %i millionths, without floating point', (text, micros) => {
    expect(parsePayoutMicros(text)).toBe(micros);
  });

  it.each([
    [12_500_000, '12.50'],
    [0, '0.00'],
    [1, '0.000001'],
    [19_990_000, '19.99'],
    [1_234_500, '1.2345'],
  ])('writes %i millionths as %s', (micros, text) => {
    expect(formatPayout(micros)).toBe(text);
  });
});

describe('status maps', () => {
  it('are read from the postback lists without case', () => {
    expect(statusMapFromLists({ sale: 'Approved, Pending', chargeback: 'DISPUTED' }).map).toEqual(
      new Map([
        ['approved', 'sale'],
        ['pending', 'sale'],
        ['disputed', 'chargeback'],
      ]),
    );
  });

  it('refuse one status named in two lists', () => {
    expect(statusMapFromLists({ sale: 'approved', refund: 'Approved' }).error).toBe(
      'refund_status must list status names of at most 40 characters, separated by commas, that no other *_status list names',
    );
  });

  it('are read from the import pairs', () => {
    expect(statusMapFromPairs('Locked=sale, Closed=sale,Reversed=refund').map).toEqual(
      new Map([
        ['locked', 'sale'],
        ['closed', 'sale'],
        ['reversed', 'refund'],
      ]),
    );
  });

  it.each(['Locked', 'Locked=won', '=sale', 'Locked=sale,Locked=refund'])('refuse the pairs %j', (pairs) => {
    expect(statusMapFromPairs(pairs).error).toMatch(/^--status-map must be pairs such as "Locked=sale,Reversed=refund,Disputed=chargeback"/);
  });
});
