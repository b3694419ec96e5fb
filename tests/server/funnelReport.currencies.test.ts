import { engines } from '../support/engines';
import { useFunnelRecording } from '../support/funnelRecording';

describe.each(engines)('the funnel in readFunnelReport on %s', (engine) => {
  const { read, sale } = useFunnelRecording(engine);

  describe('the main currency', () => {
    it('is USD, with no revenue anywhere, when nothing converted', async () => {
      const report = await read('2026-11-20', '2026-11-21');
      expect({ currency: report.currency, currencies: report.currencies, sources: report.sources }).toEqual({ currency: 'USD', currencies: [], sources: [] });
      expect(report.all).toEqual({ clicks: 0, visitors: 0, views: 0, viewVisitors: 0, conversions: 0, revenue: 0, revenueByCurrency: {}, unattributed: 0, leaves: 0, leaveShare: null });
    });

    it('is the currency with most conversions, not most revenue', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'E1', subid: 'hero', payout: '1', currency: 'EUR' });
      await sale('2026-11-20T10:00:00Z', { txid: 'E2', subid: 'hero', payout: '2', currency: 'EUR' });
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero', payout: '500' });
      const report = await read('2026-11-20', '2026-11-20');
      expect(report.currency).toBe('EUR');
      expect(report.currencies).toEqual(['EUR', 'USD']);
      expect(report.all).toMatchObject({ conversions: 3, revenue: 3, revenueByCurrency: { EUR: 3, USD: 500 } });
      expect(Object.keys(report.all.revenueByCurrency)).toEqual(['EUR', 'USD']);
    });

    it('is the first in alphabetical order on a tie', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero', payout: '3' });
      await sale('2026-11-20T10:00:00Z', { txid: 'G1', subid: 'hero', payout: '4', currency: 'GBP' });
      const report = await read('2026-11-20', '2026-11-20');
      expect({ currency: report.currency, currencies: report.currencies, revenue: report.all.revenue }).toEqual({ currency: 'GBP', currencies: ['GBP', 'USD'], revenue: 4 });
    });

    it('counts conversions without a payout, which earn nothing', async () => {
      await sale('2026-11-20T10:00:00Z', { txid: 'U1', subid: 'hero' });
      await sale('2026-11-20T10:00:00Z', { txid: 'U2', subid: 'hero' });
      await sale('2026-11-20T10:00:00Z', { txid: 'E1', subid: 'hero', payout: '9', currency: 'EUR' });
      const report = await read('2026-11-20', '2026-11-20');
      expect({ currency: report.currency, currencies: report.currencies }).toEqual({ currency: 'USD', currencies: ['EUR'] });
      expect(report.all).toMatchObject({ conversions: 3, revenue: 0, revenueByCurrency: { EUR: 9 } });
    });
  });

  it('sums payouts exactly, in millionths: 0.1 + 0.2 + 0.000001 is 0.300001', async () => {
    for (const [txid, payout] of [['A', '0.1'], ['B', '0.2'], ['C', '0.000001']]) await sale('2026-11-20T10:00:00Z', { txid, subid: 'bonus', payout });
    const report = await read('2026-11-20', '2026-11-20');
    expect(report.all.revenue).toBe(0.300001);
    expect(report.totals.find((row) => row.placement === 'bonus')?.revenue).toBe(0.300001);
  });
});
