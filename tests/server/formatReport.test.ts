import { readFunnelReport, type FunnelReport } from '../../server/funnelReport/funnelReport';
import { createClickStore } from '../../server/clicks/clickStore';
import { formatReportCsv, formatReportJson, formatReportTable } from '../../server/funnelReport/formatReport';
import { withCosts } from '../../server/funnelReport/formatCosts';
import { parseConversion, type ConversionFields } from '../../server/conversions/conversionFields';
import { createConversionStore } from '../../server/conversions/conversionStore';
import { createViewStore } from '../../server/views/viewStore';
import { newClickId, type AffiliatePlacement } from '../../shared/affiliate';
import { openTestDatabase, type TestEngineDatabase } from '../support/engines';

/**
 * The formats are functions of the report alone, so one engine is enough to make the reports they
 * print (tests/server/funnelReport.funnel.test.ts reads the same kind of data on both).
 */
let opened: TestEngineDatabase;
beforeEach(async () => {
  opened = await openTestDatabase('sqlite');
});
afterEach(() => opened.close());
const read = (from: string, to: string) => readFunnelReport(opened.database.db, { from, to });

async function recordFunnel({ euro = true } = {}) {
  const db = opened.database.db;
  const views = createViewStore(db);
  const clicks = createClickStore(db);
  const conversions = createConversionStore(db);
  const view = (at: string, visitor: string, source: string) =>
    views.record({ at: new Date(at), page: '/', referrerHost: null, source, medium: null, campaign: null, device: 'mobile', visitor });
  const click = async (at: string, placement: AffiliatePlacement, visitor: string, source: string | null) => {
    const clickId = newClickId(placement);
    await clicks.record({ at: new Date(at), placement, page: '/', referrerHost: null, device: 'mobile', visitor, via: 'beacon', clickId, source });
    return clickId;
  };
  const sale = async (txid: string, fields: ConversionFields) => {
    const parsed = parseConversion({ txid, ...fields });
    if (parsed.error) throw new Error(parsed.error.message);
    await conversions.record(parsed.report, 'postback', new Date('2026-11-21T12:00:00Z'));
  };
  for (const visitor of ['a', 'b', 'c']) await view('2026-11-20T08:00:00Z', visitor, 'newsletter');
  await view('2026-11-20T08:00:00Z', 'a', 'newsletter');
  await view('2026-11-20T09:00:00Z', 'g', 'www.google.com');
  await view('2026-11-21T09:00:00Z', 'd', 'newsletter');
  const heroOfA = await click('2026-11-20T08:01:00Z', 'hero', 'a', 'newsletter');
  const bonusOfA = await click('2026-11-20T08:02:00Z', 'bonus', 'a', 'newsletter');
  await click('2026-11-20T08:03:00Z', 'hero', 'b', 'newsletter');
  await click('2026-11-20T09:01:00Z', 'hero', 'g', 'www.google.com');
  const heroOfD = await click('2026-11-21T09:01:00Z', 'hero', 'd', 'newsletter');
  await sale('T1', { subid: heroOfA, payout: '40' });
  await sale('T2', { subid: bonusOfA, payout: '10.5', currency: euro ? 'EUR' : 'USD' });
  await sale('T3', { subid: heroOfD, payout: '12.25' });
  await sale('T4', { payout: '5' });
}

describe('the terminal table', () => {
  let text: string;
  beforeEach(async () => {
    await recordFunnel();
    text = formatReportTable(await read('2026-11-19', '2026-11-21'));
  });

  it('names the range, then shows the funnel: visitors, visitors who clicked, conversions, revenue', () => {
    expect(text.split('\n')[0]).toBe('Affiliate funnel, 2026-11-19 to 2026-11-21 (UTC, 3 days)');
    expect(text).toMatch(/^Visitors +5$/m);
    expect(text).toMatch(/^Visitors who clicked +4 {2}80% of visitors$/m);
    expect(text).toMatch(/^Conversions +4 {2}80% of 5 clicks$/m);
    expect(text).toMatch(/^Revenue +57\.25 USD \+ 10\.50 EUR {2}11\.45 USD \+ 2\.10 EUR per click$/m);
  });

  it('says when the previous period of the same length had nothing to compare with', () => {
    expect(text).toContain('\nAgainst the previous 3 days (2026-11-16 to 2026-11-18): nothing to compare with.\n');
  });

  it('breaks each day down by source, newest first, the day named on its first row', () => {
    expect(text).toMatch(/^Day +Source +Visitors +Clicked +Clicks +Conv\. +Revenue$/m);
    expect(text).toMatch(/^2026-11-21 +newsletter +1 +1 +1 +1 +12\.25 USD\n {12}\(not known\) +0 +0 +0 +1 +5\.00 USD$/m);
    expect(text).toMatch(/^2026-11-20 +newsletter +3 +2 +3 +2 +40\.00 USD\n +10\.50 EUR\n {12}www\.google\.com +1 +1 +1 +0 +–$/m);
  });

  it('shows per placement clicks, visitors, conversions, conversion rate, revenue and earnings per click', () => {
    expect(text).toMatch(/^Placement +Clicks +Visitors +Share +Conv\. +Conv\. rate +Revenue +EPC$/m);
    expect(text).toMatch(/^hero +4 +4 +80% +2 +50% +52\.25 USD +13\.06 USD$/m);
    expect(text).toMatch(/^explainer +0 +0 +0% +0 +– +– +–$/m);
    expect(text).toMatch(/^bonus +1 +1 +20% +1 +100% +10\.50 EUR +10\.50 EUR$/m);
    // Revenue in two currencies: one a line, the second under the first.
    expect(text).toMatch(/^all placements +5 +4 +100% +4 +80% +57\.25 USD +11\.45 USD\n {30,}10\.50 EUR +2\.10 EUR$/m);
    expect(text).toContain('1 conversion named no placement: in "all placements" only.');
  });

  it('shows per source visitors, visitors who clicked, clicks, click-through rate, conversions and revenue', () => {
    expect(text).toMatch(/^Source +Visitors +Clicked +Clicks +CTR +Conv\. +Revenue$/m);
    expect(text).toMatch(/^newsletter +4 +3 +4 +75% +3 +52\.25 USD\n {30,}10\.50 EUR$/m);
    expect(text).toMatch(/^www\.google\.com +1 +1 +1 +100% +0 +–$/m);
    expect(text).toMatch(/^\(not known\) +0 +0 +0 +– +1 +5\.00 USD$/m);
  });

  it('shows the funnel and the placements day by day, newest first, leaving out days with nothing', () => {
    expect(text).toMatch(/^2026-11-21 +1 +1 +1 +1 +2 +17\.25 USD$/m);
    expect(text).toMatch(/^2026-11-20 +5 +4 +3 +4 +2 +40\.00 USD\n {30,}10\.50 EUR$/m);
    expect(text).toMatch(/^2026-11-21 {2}hero +1 +1 +1 +12\.25 USD\n {12}all placements +1 +1 +2 +17\.25 USD$/m);
    expect(text).toMatch(/^ {12}bonus +1 +1 +1 +10\.50 EUR$/m);
    expect(text.indexOf('2026-11-21  hero')).toBeLessThan(text.indexOf('2026-11-20  hero'));
    expect(text).not.toMatch(/^2026-11-19/m);
  });

  it('fits in 90 columns', () => {
    const widest = text.split('\n').reduce((wide, line) => (line.length > wide.length ? line : wide), '');
    expect(widest.length).toBeLessThanOrEqual(90);
  });

  it('writes revenue in one currency on one line', async () => {
    await opened.close();
    opened = await openTestDatabase('sqlite');
    await recordFunnel({ euro: false });
    const oneCurrency = formatReportTable(await read('2026-11-19', '2026-11-21'));
    expect(oneCurrency).toMatch(/^Revenue +67\.75 USD {2}13\.55 USD per click$/m);
    expect(oneCurrency).toMatch(/^all placements +5 +4 +100% +4 +80% +67\.75 USD +13\.55 USD$/m);
    expect(oneCurrency).not.toContain('EUR');
  });
});

describe('the terminal table of a range with nothing in it', () => {
  it('says so, and leaves the rates out', async () => {
    const text = formatReportTable(await read('2025-01-01', '2025-01-02'));
    expect(text).toMatch(/^Visitors who clicked +0$/m);
    expect(text).toMatch(/^Revenue +–$/m);
    expect(text).toContain('No visitors from any source in this range.');
    expect(text).toContain('Nothing in this range: no views, clicks or conversions.');
  });
});

describe('CSV', () => {
  it('has a row per day and placement, zeros included, with conversions and revenue in the main currency', async () => {
    await recordFunnel();
    const csv = formatReportCsv(await read('2026-11-19', '2026-11-21')).trim().split('\n');
    expect(csv[0]).toBe('day,placement,clicks,visitors,conversions,revenue');
    expect(csv).toHaveLength(1 + 3 * 6);
    expect(csv).toContain('2026-11-19,hero,0,0,0,0');
    expect(csv).toContain('2026-11-20,hero,3,3,1,40');
    expect(csv).toContain('2026-11-21,hero,1,1,1,12.25');
    // Earned in EUR, the report's second currency: not in this column (--json has it).
    expect(csv).toContain('2026-11-20,bonus,1,1,1,0');
  });
});

describe('JSON', () => {
  it('is the report, which parses back to itself', async () => {
    await recordFunnel();
    const report = await read('2026-11-19', '2026-11-21');
    const parsed = JSON.parse(formatReportJson(report)) as FunnelReport;
    expect(parsed).toEqual(withCosts(report));
    expect(Object.keys(parsed)).toEqual(['from', 'to', 'currency', 'currencies', 'days', 'totals', 'all', 'sources', 'devices', 'referrers', 'pages', 'experiments', 'filtered', 'releases', 'costs', 'previous', 'campaigns']);
    // The three days before the range had nothing: the headline's change, as /admin shows it, is none.
    expect(parsed.previous).toMatchObject({ from: '2026-11-16', to: '2026-11-18', views: 0, conversions: 0, cost: null });
    expect(Object.values(parsed.previous.change)).toEqual([null, null, null, null, null, null]);
    expect(parsed.all).toEqual({ clicks: 5, visitors: 4, views: 6, viewVisitors: 5, conversions: 4, revenue: 57.25, revenueByCurrency: { USD: 57.25, EUR: 10.5 }, unattributed: 1, leaves: 0, leaveShare: 0, cost: null, profit: null });
    expect(parsed.sources[0]).toMatchObject({ cost: null, profit: null, roi: null, chanceProfitable: null });
  });
});
