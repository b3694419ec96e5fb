import { createClickStore } from '../../server/clicks/clickStore';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createCostStore } from '../../server/costs/costStore';
import { digestCampaigns } from '../../server/digest/digestContent';
import { weekEnding } from '../../server/digest/digestWeek';
import { inProcessReportReader } from '../../server/reports/reportReader';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId } from '../../shared/affiliate';
import { engines, useTestDatabase } from '../support/engines';
import { conversion } from '../support/storeRows';

describe.each(engines)('the weekly digest’s Spend and profit on %s', (engine) => {
  const database = useTestDatabase(engine);

  const digest = async () => {
    const db = database.db();
    const at = new Date('2026-01-13T08:00:00Z');
    for (const visitor of ['a', 'b']) await createViewStore(db).record({ at, page: '/', referrerHost: null, source: 'newsletter', medium: null, campaign: null, device: 'mobile', visitor });
    const clickId = newClickId('hero');
    await createClickStore(db).record({ at, placement: 'hero', page: '/', referrerHost: null, device: 'mobile', visitor: 'a', via: 'beacon', clickId, source: 'newsletter' });
    await createConversionStore(db).record(conversion({ txid: 'T1', subid: clickId, payout: '40' }), 'postback', new Date('2026-01-14T09:00:00Z'));
    return inProcessReportReader(db).readDigest(weekEnding('2026-01-18', '2026-W04'), { siteUrl: 'https://auctions.example.com' });
  };

  it('leaves the section out when no cost is recorded', async () => {
    const message = await digest();
    expect(message.text).not.toContain('Spend and profit');
    expect(message.html).not.toContain('Spend and profit');
  });

  it('shows each source’s cost, profit and verdict when costs are recorded', async () => {
    await createCostStore(database.db()).replaceCosts([{ day: '2026-01-13', source: 'newsletter', campaign: '', content: '', amountMicros: 9_000_000, currency: 'USD' }]);
    const message = await digest();
    expect(message.text).toContain('Spend and profit');
    expect(message.text).toMatch(/newsletter\s+9\.00\s+2\s+4\.50\s+1\s+9\.00\s+40\.00\s+31\.00\s+344%/);
    expect(message.text).toMatch(/newsletter: (too early|paying for itself|losing money)/);
    expect(message.html).toContain('Spend and profit by source');
  });

  it('lists the campaigns losing most money first, at most digestCampaigns of them, and says how many more /admin has', async () => {
    const costs = Array.from({ length: digestCampaigns + 2 }, (_, index) => ({
      day: '2026-01-13',
      source: 'facebook',
      campaign: `c${String(index).padStart(2, '0')}`,
      content: '',
      amountMicros: (index + 1) * 1_000_000,
      currency: 'USD',
    }));
    await createCostStore(database.db()).replaceCosts(costs);
    const message = await digest();
    expect(message.text).toContain('Spend and profit per campaign and ad');
    // The most cost (with no sale) is the most lost: c11 first, c00 and c01 left out.
    expect(message.text).toMatch(/facebook \/ c11\s+12\.00/);
    expect(message.text).not.toContain('facebook / c01');
    expect(message.text).toContain('And 2 more campaigns with a cost: npm run stats -- --csv --spend lists every one.');
    expect(message.html).toContain('Spend and profit by campaign and ad');
    expect(message.html).toMatch(/And 2 more campaigns with a cost: <code[^>]*>npm run stats -- --csv --spend<\/code> lists every one\./);
    expect(message.html).toContain('c11');
    expect(message.html).not.toContain('c01');
  });
});
