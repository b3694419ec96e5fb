import { createCostStore } from '../../server/costs/costStore';
import type { CostRow } from '../../server/costs/costRow';
import { formatReportJson, formatReportTable } from '../../server/funnelReport/formatReport';
import { formatSpendCsv } from '../../server/funnelReport/formatCosts';
import { engines } from '../support/engines';
import { useFunnelRecording } from '../support/funnelRecording';

const cost = (fields: Partial<CostRow>): CostRow => ({ day: '2026-11-20', source: 'facebook', campaign: 'spring', content: 'ad-1', amountMicros: 0, currency: 'USD', ...fields });

describe.each(engines)('costs beside earnings in readFunnelReport on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  const { read, view, click, sale } = funnel;
  const costs = () => createCostStore(funnel.opened.database.db);

  beforeEach(async () => {
    // facebook: 4 visitors, 2 sales of 30 USD; google: 2 visitors, 1 sale of 10 USD.
    for (const visitor of ['f1', 'f2', 'f3', 'f4']) await view('2026-11-20T08:00:00Z', visitor, 'facebook');
    for (const visitor of ['g1', 'g2']) await view('2026-11-21T08:00:00Z', visitor, 'google');
    await sale('2026-11-20T10:00:00Z', { txid: 'F1', subid: await click('2026-11-20T08:01:00Z', 'hero', 'f1', 'facebook'), payout: '30' });
    await sale('2026-11-20T10:00:00Z', { txid: 'F2', subid: await click('2026-11-20T08:01:00Z', 'hero', 'f2', 'facebook'), payout: '30' });
    await sale('2026-11-21T10:00:00Z', { txid: 'G1', subid: await click('2026-11-21T08:01:00Z', 'hero', 'g1', 'google'), payout: '10' });
  });

  it('gives every source null cost, profit, ROI and chance, and the totals null, when no cost is recorded', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.costs.recorded).toBe(false);
    expect(report.costs.all).toEqual({ cost: null, costByCurrency: {}, profit: null });
    expect(report.costs.sources.map(({ source, cost, profit, roi, chanceProfitable, verdict }) => ({ source, cost, profit, roi, chanceProfitable, verdict }))).toEqual([
      { source: 'facebook', cost: null, profit: null, roi: null, chanceProfitable: null, verdict: null },
      { source: 'google', cost: null, profit: null, roi: null, chanceProfitable: null, verdict: null },
    ]);
    expect(report.costs.days).toEqual([
      { day: '2026-11-20', cost: null, profit: null },
      { day: '2026-11-21', cost: null, profit: null },
    ]);
  });

  it('sums reported costs and fixed costs per source, with profit and ROI exact, losing money first', async () => {
    await costs().replaceCosts([
      cost({ amountMicros: 10_100_000 }),
      cost({ content: 'ad-2', amountMicros: 200_000 }),
      cost({ day: '2026-11-21', amountMicros: 100_000 }),
      cost({ day: '2026-11-19', amountMicros: 999_000_000 }),
    ]);
    await costs().setFixedCost({ source: 'google', campaign: '', from: '2026-11-01', to: '2026-12-31', dailyMicros: 7_500_000, perVisitorMicros: null, currency: 'USD' });
    const report = await read('2026-11-20', '2026-11-21');
    const [google, facebook] = report.costs.sources;
    expect(report.costs.sources.map((row) => row.source)).toEqual(['google', 'facebook']);
    expect(facebook).toMatchObject({ visitors: 4, conversions: 2, revenue: 60, cost: 10.4, costByCurrency: { USD: 10.4 }, profit: 49.6, costPerVisitor: 2.6, costPerConversion: 5.2 });
    expect(facebook?.roi).toBe((60_000_000 - 10_400_000) / 10_400_000);
    expect(facebook?.breakEven).toEqual({ maxCostPerVisitor: 15, maxCostPerSale: 30 });
    expect(google).toMatchObject({ visitors: 2, conversions: 1, revenue: 10, cost: 15, profit: -5, roi: -5 / 15, costPerVisitor: 7.5, costPerConversion: 15 });
    for (const row of [facebook, google]) {
      expect(row?.chanceProfitable).toBeGreaterThanOrEqual(0);
      expect(row?.chanceProfitable).toBeLessThanOrEqual(1);
      expect(row?.verdict).toBe('too-early');
      expect(row?.visitorsToKnow).toBeGreaterThan(0);
    }
    expect(report.costs.all).toEqual({ cost: 25.4, costByCurrency: { USD: 25.4 }, profit: 44.6 });
    expect(report.costs.days).toEqual([
      { day: '2026-11-20', cost: 17.8, profit: 42.2 },
      { day: '2026-11-21', cost: 7.6, profit: 2.4 },
    ]);
  });

  it('keeps a cost in another currency apart, with no profit for it', async () => {
    await costs().replaceCosts([cost({ source: 'google', amountMicros: 8_000_000, currency: 'EUR' }), cost({ amountMicros: 5_000_000 }), cost({ content: 'eu', amountMicros: 2_000_000, currency: 'EUR' })]);
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.costs.otherCurrencies).toEqual(['EUR']);
    expect(report.costs.all).toEqual({ cost: 5, costByCurrency: { USD: 5, EUR: 10 }, profit: 65 });
    const bySource = Object.fromEntries(report.costs.sources.map((row) => [row.source, row]));
    expect(bySource.google).toMatchObject({ cost: null, costByCurrency: { EUR: 8 }, profit: null, roi: null, chanceProfitable: null, verdict: null });
    expect(bySource.facebook).toMatchObject({ cost: 5, costByCurrency: { USD: 5, EUR: 2 }, profit: 55, roi: 11 });
  });

  it('lists a source that cost money but brought no visitor, as losing', async () => {
    await costs().replaceCosts([cost({ source: 'tiktok', amountMicros: 3_000_000 })]);
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.costs.sources[0]).toMatchObject({ source: 'tiktok', visitors: 0, cost: 3, profit: -3, roi: -1, costPerVisitor: null, chanceProfitable: 0, verdict: 'too-early' });
  });

  it('shows a lead paid 0 among the conversions but leaves the verdict as it was: no sale, and no change to the site\'s payouts', async () => {
    await costs().replaceCosts([cost({ amountMicros: 40_000_000 })]);
    const figures = (row: { chanceProfitable: number | null; verdict: unknown; visitorsToKnow: number | null } | undefined) => ({
      chanceProfitable: row?.chanceProfitable,
      verdict: row?.verdict,
      visitorsToKnow: row?.visitorsToKnow,
    });
    const before = (await read('2026-11-20', '2026-11-21')).costs.sources.find((row) => row.source === 'facebook');
    await sale('2026-11-20T11:00:00Z', { txid: 'F3', subid: await click('2026-11-20T08:02:00Z', 'hero', 'f3', 'facebook'), payout: '0' });
    await sale('2026-11-20T11:00:00Z', { txid: 'F4', subid: await click('2026-11-20T08:02:00Z', 'hero', 'f4', 'facebook') });
    const after = (await read('2026-11-20', '2026-11-21')).costs.sources.find((row) => row.source === 'facebook');
    expect(after).toMatchObject({ conversions: 4, revenue: 60 });
    expect(before?.verdict).toBe('too-early');
    expect(figures(after)).toEqual(figures(before));
  });

  it('writes cost, profit, ROI and the chance in --json as raw numbers, and the verdict in the table', async () => {
    await costs().replaceCosts([cost({ source: 'google', amountMicros: 15_000_000 })]);
    const report = await read('2026-11-20', '2026-11-21');
    const parsed = JSON.parse(formatReportJson(report)) as { all: Record<string, unknown>; sources: Record<string, unknown>[] };
    expect(parsed.all).toMatchObject({ revenue: 70, cost: 15, profit: 55 });
    const google = parsed.sources.find((row) => row.source === 'google');
    expect(google).toMatchObject({ revenue: 10, cost: 15, profit: -5, roi: -5 / 15 });
    expect(typeof google?.chanceProfitable).toBe('number');
    expect(parsed.sources.find((row) => row.source === 'facebook')).toMatchObject({ cost: null, profit: null, roi: null, chanceProfitable: null });
    const table = formatReportTable(report);
    expect(table).toContain('Spend and profit');
    expect(table).toMatch(/google: too early/);
    expect(table).toContain('-5.00');
  });
});

describe.each(engines)('costs per campaign and ad in readFunnelReport on %s', (engine) => {
  const funnel = useFunnelRecording(engine);
  const { read, view, click, sale } = funnel;
  const costs = () => createCostStore(funnel.opened.database.db);
  const ad1 = { campaign: 'spring', content: 'ad-1' };
  const ad2 = { campaign: 'spring', content: 'ad-2' };
  const brand = { campaign: 'brand' };

  beforeEach(async () => {
    // facebook / spring: ad-1 brings 3 visitors and a sale of 30 USD, ad-2 one visitor; google / brand (no ad) 2 visitors and a sale of 10 USD.
    for (const visitor of ['a1', 'a2', 'a3']) await view('2026-11-20T08:00:00Z', visitor, 'facebook', '/', ad1);
    await view('2026-11-20T08:00:00Z', 'b1', 'facebook', '/', ad2);
    for (const visitor of ['g1', 'g2']) await view('2026-11-21T08:00:00Z', visitor, 'google', '/', brand);
    await view('2026-11-21T08:00:00Z', 'd1', 'direct');
    await sale('2026-11-20T10:00:00Z', { txid: 'A1', subid: await click('2026-11-20T08:01:00Z', 'hero', 'a1', 'facebook', ad1), payout: '30' });
    await click('2026-11-20T08:02:00Z', 'bonus', 'b1', 'facebook', ad2);
    await sale('2026-11-21T10:00:00Z', { txid: 'G1', subid: await click('2026-11-21T08:01:00Z', 'hero', 'g1', 'google', brand), payout: '10' });
    await costs().replaceCosts([
      cost({ amountMicros: 20_000_000 }),
      cost({ content: 'ad-2', amountMicros: 5_000_000 }),
      cost({ day: '2026-11-21', source: 'google', campaign: 'brand', content: '', amountMicros: 15_000_000 }),
    ]);
    // A campaign paid by the day that brought nobody yet.
    await costs().setFixedCost({ source: 'facebook', campaign: 'autumn', from: '2026-11-01', to: '2026-11-30', dailyMicros: 2_000_000, perVisitorMicros: null, currency: 'USD' });
  });

  const summary = (row: { source: string; campaign: string; visitors: number; clicks: number; conversions: number; revenue: number; cost: number | null; profit: number | null }) => {
    const { source, campaign, visitors, clicks, conversions, revenue, cost: spent, profit } = row;
    return { source, campaign, visitors, clicks, conversions, revenue, cost: spent, profit };
  };

  it('credits each sale to the campaign and ad of its click, and lists campaigns and their ads losing money first', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    expect(report.costs.campaigns.map(summary)).toEqual([
      { source: 'google', campaign: 'brand', visitors: 2, clicks: 1, conversions: 1, revenue: 10, cost: 15, profit: -5 },
      { source: 'facebook', campaign: 'autumn', visitors: 0, clicks: 0, conversions: 0, revenue: 0, cost: 4, profit: -4 },
      { source: 'facebook', campaign: 'spring', visitors: 4, clicks: 2, conversions: 1, revenue: 30, cost: 25, profit: 5 },
    ]);
    const spring = report.costs.campaigns[2]!;
    expect(spring.ads.map(({ content, visitors, conversions, cost: spent, profit, roi }) => ({ content, visitors, conversions, cost: spent, profit, roi }))).toEqual([
      { content: 'ad-2', visitors: 1, conversions: 0, cost: 5, profit: -5, roi: -1 },
      { content: 'ad-1', visitors: 3, conversions: 1, cost: 20, profit: 10, roi: 0.5 },
    ]);
    expect(report.costs.campaigns[0]?.ads).toEqual([]);
    for (const row of [...report.costs.campaigns, ...spring.ads]) {
      expect(row.chanceProfitable).toBeGreaterThanOrEqual(0);
      expect(row.chanceProfitable).toBeLessThanOrEqual(1);
      expect(row.verdict).toBe('too-early');
    }
    // The sources still hold every cost: facebook's 25 + 4 and google's 15.
    expect(Object.fromEntries(report.costs.sources.map((row) => [row.source, row.cost]))).toMatchObject({ facebook: 29, google: 15 });
  });

  it('keeps crediting campaigns and ads once the conversions are folded past retention', async () => {
    const before = await read('2026-11-20', '2026-11-21');
    expect(await funnel.conversions.foldOldConversions(30, new Date('2027-12-01T00:00:00Z'))).toBe(2);
    const after = await read('2026-11-20', '2026-11-21');
    expect(after.costs.campaigns).toEqual(before.costs.campaigns);
  });

  it('writes campaigns[] with their ads[] in --json, a campaign section in the table, and every level in the spend CSV', async () => {
    const report = await read('2026-11-20', '2026-11-21');
    const parsed = JSON.parse(formatReportJson(report)) as { campaigns: { source: string; campaign: string; cost: number; chanceProfitable: number; ads: { content: string; cost: number }[] }[] };
    expect(parsed.campaigns.map((row) => [row.source, row.campaign, row.cost, row.ads.map((ad) => [ad.content, ad.cost])])).toEqual([
      ['google', 'brand', 15, []],
      ['facebook', 'autumn', 4, []],
      ['facebook', 'spring', 25, [['ad-2', 5], ['ad-1', 20]]],
    ]);
    const table = formatReportTable(report);
    expect(table).toContain('Spend and profit per campaign and ad');
    expect(table).toMatch(/google \/ brand: too early/);
    expect(table).toMatch(/\n\s*│?\s*ad-2\b/);
    const csv = formatSpendCsv(report).trim().split('\n');
    expect(csv[0]).toBe('level,source,campaign,content,currency,cost,cost_other,visitors,clicks,conversions,revenue,profit,roi,chance_profitable,verdict');
    expect(csv.filter((line) => line.startsWith('ad,'))).toEqual([
      expect.stringMatching(/^ad,facebook,spring,ad-2,USD,5,,1,1,0,0,-5,-1,[\d.e-]+,too-early$/),
      expect.stringMatching(/^ad,facebook,spring,ad-1,USD,20,,3,1,1,30,10,0.5,[\d.e-]+,too-early$/),
    ]);
    expect(csv.filter((line) => line.startsWith('campaign,')).map((line) => line.split(',').slice(1, 3).join('/'))).toEqual(['google/brand', 'facebook/autumn', 'facebook/spring']);
  });
});
