import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { CostRow } from '../../server/costs/costRow';
import { readCampaignMap, readCostReport, type CostReport, type CostReportOptions, type DateOrder } from '../../server/costs/costReports';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/costs', name), 'utf8');

function report(text: string, options?: CostReportOptions): CostReport {
  const result = readCostReport(text, options);
  if ('error' in result) throw new Error(`expected a report, got: ${result.error}`);
  return result;
}

const usd = (day: string, source: string, campaign: string, content: string, amountMicros: number): CostRow => ({ day, source, campaign, content, amountMicros, currency: 'USD' });

describe('readCostReport over each platform export', () => {
  it.each<[string, CostReport['platform'], CostRow[], Array<[number, RegExp]>, number, number]>([
    [
      'google-ads.csv',
      'google',
      [usd('2026-11-03', 'google', 'spring-auctions', '', 1_250_000_000), usd('2026-11-03', 'google', 'repo-cars', '', 0), usd('2026-11-04', 'google', 'spring-auctions', '', 987_100_000)],
      [[9, /^column "Cost": the amount "-3.00" is negative/]],
      2,
      1,
    ],
    [
      'microsoft-advertising.csv',
      'microsoft',
      [usd('2026-11-03', 'bing', 'spring-auctions', '', 1_020_500_000), usd('2026-11-04', 'bing', 'spring-auctions', '', 88_000_000)],
      [
        [14, /^column "Spend": "abc" is not an amount/],
        [15, /^column "Gregorian date": "11\/31\/2026" is no day/],
      ],
      2,
      0,
    ],
    [
      'meta-ads.csv',
      'meta',
      [usd('2026-11-03', 'facebook', 'Spring auctions', 'video-a', 1_245_250_000), usd('2026-11-03', 'facebook', 'Spring auctions', 'carousel-b', 100_420_000), usd('2026-11-04', 'facebook', 'Spring auctions', 'video-a', 1_000_000_000)],
      [[7, /more than one day/]],
      1,
      1,
    ],
    [
      'tiktok-ads.csv',
      'tiktok',
      [usd('2026-11-03', 'tiktok', 'spring-auctions', 'hook-15s', 2_010_000_000), usd('2026-11-04', 'tiktok', 'spring-auctions', 'hook-15s', 310_500_000), usd('2026-11-04', 'tiktok', 'spring-auctions', 'hook-30s', 12_345_678)],
      [[5, /^column "Currency": "XYZ" is not an ISO 4217 currency code$/]],
      1,
      0,
    ],
    [
      'plain.csv',
      'plain',
      [
        { day: '2026-11-03', source: 'newsletter', campaign: 'november-issue', content: '', amountMicros: 1_500_000_000, currency: 'EUR' },
        { day: '2026-11-04', source: 'newsletter', campaign: 'november-issue', content: 'banner', amountMicros: 20_000_000, currency: 'EUR' },
        usd('2026-11-05', 'reddit', 'repo-cars', '', 1_000_000_000),
        usd('2026-11-06', 'reddit', 'repo-cars', '', 12_500_000),
      ],
      [
        [6, /^no source/],
        [7, /^column "cost": "12,50" is not an amount/],
      ],
      1,
      0,
    ],
  ])('%s: detected as %s, its rows read, bad rows rejected, totals skipped, split rows summed', (name, platform, rows, rejected, skipped, summed) => {
    // plain.csv's only slash date, 11/5/2026, could be either order: the operator says which.
    const result = report(fixture(name), name === 'plain.csv' ? { dates: 'mdy' } : {});
    expect(result.platform).toBe(platform);
    expect(result.noAmount).toEqual(name === 'google-ads.csv' ? [8] : []);
    expect(result.rows).toEqual(rows);
    expect(result.rejected.map(({ line }) => line)).toEqual(rejected.map(([line]) => line));
    for (const [index, [, reason]] of rejected.entries()) expect(result.rejected[index]!.reason).toMatch(reason);
    expect(result.skipped).toBe(skipped);
    expect(result.summed).toBe(summed);
    expect(result.read).toBe(result.rows.length + result.summed + result.rejected.length + result.noAmount.length + result.skipped);
  });

  it('gives every row of a platform report the source --source names', () => {
    expect(report(fixture('google-ads.csv'), { source: 'adwords' }).rows.map((row) => row.source)).toEqual(['adwords', 'adwords', 'adwords']);
  });

  it("keeps a plain file's own source column, and fills only its empty cells from --source", () => {
    const rows = report(fixture('plain.csv'), { source: 'partner', dates: 'mdy' }).rows;
    expect(rows.map((row) => row.source)).toEqual(['newsletter', 'newsletter', 'reddit', 'reddit', 'partner']);
  });

  it('maps campaign names to utm_campaign through a campaign map, and keeps names not in it', () => {
    const map = readCampaignMap('name,utm_campaign\nSpring auctions,spring-auctions\n');
    if ('error' in map) throw new Error(map.error);
    expect(report(fixture('meta-ads.csv'), { campaignMap: map.map }).rows.map((row) => row.campaign)).toEqual(['spring-auctions', 'spring-auctions', 'spring-auctions']);
    expect(report('Day,Campaign,Cost\n2026-11-03,Other,1\n', { currency: 'USD', campaignMap: map.map }).rows[0]!.campaign).toBe('Other');
  });
});

describe('readCostReport: header and currency', () => {
  it('refuses a file with no known header in its first 30 lines, naming the forms it knows', () => {
    expect(readCostReport('Order ID,Commission\n1,2\n')).toEqual({ error: expect.stringMatching(/^no header line of a known report .*Google Ads .*Microsoft .*Meta .*TikTok .*plain form/) });
    expect(readCostReport(`${'title\n'.repeat(30)}Day,Campaign,Cost\n`, { currency: 'USD' })).toHaveProperty('error');
    expect(readCostReport('')).toHaveProperty('error');
  });

  it('refuses a report that names no currency anywhere unless --currency gives one', () => {
    const text = 'Day,Campaign,Cost\n2026-11-03,a,1.00\n';
    expect(readCostReport(text)).toEqual({ error: 'the report names no currency (no currency column, and "Cost" names none): give --currency' });
    expect(report(text, { currency: 'eur' }).rows).toEqual([{ day: '2026-11-03', source: 'google', campaign: 'a', content: '', amountMicros: 1_000_000, currency: 'EUR' }]);
  });

  it("reads the currency from the amount's header, and rejects a row whose currency column says otherwise", () => {
    const result = report('Reporting starts,Campaign name,Amount spent (EUR),Currency\n2026-11-03,a,5,\n2026-11-04,a,5,USD\n', { currency: 'USD' });
    expect(result.rows.map((row) => row.currency)).toEqual(['EUR']);
    expect(result.rejected).toEqual([{ line: 3, reason: 'the currency "USD" differs from the amount\'s header, EUR' }]);
  });

  it.each([
    ['Date,Campaign name,Spend,Currency code', 'microsoft', 'bing'],
    ['TimePeriod,AccountName,CampaignName,CurrencyCode,Spend', 'microsoft', 'bing'],
    ['GregorianDate,CampaignName,Impressions,Spend,CurrencyCode', 'microsoft', 'bing'],
    ['Date,Campaign name,Cost,Currency', 'tiktok', 'tiktok'],
    ['Day,Campaign,Cost,Currency code', 'google', 'google'],
    ['Reporting starts,Campaign name,Amount spent (USD)', 'meta', 'facebook'],
    ['Day,Source,Campaign,Cost,Currency', 'plain', 's'],
  ])('tells %s apart as %s, source %s', (header, platform, source) => {
    const cells = header.split(',').map((name) => ({ day: '2026-11-03', date: '2026-11-03', 'reporting starts': '2026-11-03', timeperiod: '2026-11-03', gregoriandate: '11/13/2026', source: 's' })[name.toLowerCase()] ?? (/currency/i.test(name) ? 'USD' : /spend|cost|amount/i.test(name) ? '1' : 'c'));
    const result = report(`${header}\n${cells.join(',')}\n`);
    expect([result.platform, result.rows[0]?.source]).toEqual([platform, source]);
  });

  it.each([
    ['Campaign status,Campaign,Currency code,Clicks,Cost', 'it is a Google Ads report without its "Day" column: segment the Google Ads report by Day (Segment → Time → Day) and download it again'],
    ['AccountName,CampaignName,CurrencyCode,Spend', 'it is a Microsoft Advertising report without its date column ("Gregorian date" or "TimePeriod"): run the report with the time unit Day'],
    ['Campaign name,Ad name,Cost,Currency', 'it is a TikTok Ads Manager report without its "By Day" column: add the By Day dimension to the custom report'],
    ['Campaign name,Ad set name,Amount spent (USD)', 'it is a Meta Ads Manager report without its "Reporting starts" column: export the report broken down by day'],
    ['source,campaign,cost,currency', 'it is a plain cost file without its "day" column: add one'],
  ])('names a known report without its day column, and what to change in the export: %s', (header, advice) => {
    const result = readCostReport(`Campaign report\n${header}\nx,y,1,USD\n`);
    expect('error' in result && result.error).toContain(advice);
    expect('error' in result && result.error).toMatch(/; a cost is held per day, so a report without days cannot be imported$/);
  });

  it("refuses a Microsoft report whose title names an aggregation other than daily, since a week's TimePeriod is written as a day", () => {
    const text = (aggregation: string) => `"Report Name: Campaigns"\n"Report Aggregation: ${aggregation}"\n\n"TimePeriod","CampaignName","CurrencyCode","Spend"\n"2026-11-01","a","USD","7.00"\n`;
    expect(readCostReport(text('Weekly'))).toEqual({ error: 'its title names the aggregation "weekly", so its rows are not days: run the report with daily aggregation (the time unit Day)' });
    expect(report(text('Daily')).rows.map((row) => [row.day, row.amountMicros])).toEqual([['2026-11-01', 7_000_000]]);
  });

  it('reads tab- and semicolon-separated exports', () => {
    expect(report('By Day\tCampaign name\tCost\tCurrency\n2026-11-03\ta\t"1,000.5"\tUSD\n').rows[0]!.amountMicros).toBe(1_000_500_000);
    expect(report('day;source;campaign;content;cost;currency\n2026-11-03;x;a;;2;USD\n').rows[0]!.source).toBe('x');
  });

  it('rejects a row whose quoted field is never closed, with the reader\'s reason', () => {
    expect(report('Day,Campaign,Cost,Currency code\n2026-11-03,"a,1,USD\n').rejected).toEqual([{ line: 2, reason: expect.stringMatching(/never closed/) }]);
  });
});

describe('readCostReport: dates', () => {
  const datesFile = (cells: string[]) => `Day,Campaign,Cost\n${cells.map((date, index) => `"${date}",c${index},1.00`).join('\n')}\n`;
  const dayOf = (cell: string, others: string[] = [], dates?: DateOrder) => {
    const result = readCostReport(datesFile([cell, ...others]), { currency: 'USD', dates });
    if ('error' in result) return result.error;
    return result.rows.find((row) => row.campaign === 'c0')?.day ?? result.rejected.find((row) => row.line === 2)?.reason;
  };

  it.each([
    ['2026-11-03', '2026-11-03'],
    ['2026-11-03 00:00:00', '2026-11-03'],
    ['2026/11/03', '2026-11-03'],
    ['11/13/2026', '2026-11-13'],
    ['13/11/2026', '2026-11-13'],
    ['3/3/2026', '2026-03-03'],
    ['Nov 3, 2026', '2026-11-03'],
    ['November 3, 2026', '2026-11-03'],
    ['Sept 30, 2026', '2026-09-30'],
  ])('reads %s as %s', (cell, day) => {
    expect(dayOf(cell)).toBe(day);
  });

  it.each([
    ['2026-02-30', /no day of 2000–2099/],
    ['1999-12-31', /no day of 2000–2099/],
    ['3.11.2026', /is not a date \(YYYY-MM-DD, YYYY\/MM\/DD, M\/D\/YYYY or D\/M\/YYYY, or "Nov 3, 2026"\)/],
    ['2023-11-11|01', /^column "Day": "2023-11-11\|01" is an hour, not a day: request the report with daily aggregation$/],
    ['3/15/2020 12:00:00 AM|7', /is an hour, not a day/],
    ['11/3/26', /is not a date/],
    ['Foo 3, 2026', /is not a date/],
  ])('rejects %s', (cell, reason) => {
    expect(dayOf(cell)).toMatch(reason);
  });

  it('refuses a file whose every slash date could be month or day first, naming --dates', () => {
    expect(readCostReport(datesFile(['3/11/2026', '4/11/2026', '11/11/2026']), { currency: 'USD' })).toEqual({
      error:
        'every date in column "Day" could be month first or day first (the first, "3/11/2026" on line 2, could be either): ' +
        'say which with --dates mdy (month first, as English (US) exports write them) or --dates dmy (day first), or export dates as YYYY-MM-DD',
    });
  });

  it('reads such a file in the order --dates gives', () => {
    expect(dayOf('3/11/2026', ['4/11/2026'], 'mdy')).toBe('2026-03-11');
    expect(dayOf('3/11/2026', ['4/11/2026'], 'dmy')).toBe('2026-11-03');
  });

  it('lets one unambiguous date decide the order of the rest', () => {
    expect(dayOf('3/11/2026', ['25/11/2026'])).toBe('2026-11-03');
    expect(dayOf('3/11/2026', ['11/25/2026'])).toBe('2026-03-11');
  });

  it('refuses a file that writes dates in both orders, naming a line of each', () => {
    expect(dayOf('3/11/2026', ['25/11/2026', '11/25/2026'])).toBe(
      'column "Day" writes dates both day first ("25/11/2026" on line 3) and month first ("11/25/2026" on line 4); export dates as YYYY-MM-DD',
    );
  });

  it('rejects a date that --dates contradicts, and reads the rest', () => {
    expect(dayOf('25/11/2026', [], 'mdy')).toBe('column "Day": the date "25/11/2026" is not month first (M/D/YYYY), as the file\'s other dates are');
    expect(dayOf('3/11/2026', ['25/11/2026'], 'mdy')).toBe('2026-03-11');
  });
});

describe('readCostReport: amounts', () => {
  const amountOf = (cell: string, currency = 'USD') => {
    const result = report(`day,source,campaign,content,cost,currency\n2026-11-03,s,c,,"${cell}",${currency}\n`);
    return result.rows[0]?.amountMicros ?? result.rejected[0]?.reason;
  };

  it.each([
    ['0', 0],
    ['12.5', 12_500_000],
    ['1,234.56', 1_234_560_000],
    ['1,234,567.891234', 1_234_567_891_234],
    ['$1,234.56', 1_234_560_000],
    ['US$ 7', 7_000_000],
    [' 3.10 ', 3_100_000],
    ['999,999,999.999999', 999_999_999_999_999],
  ])('reads %s as %d micros', (cell, micros) => {
    expect(amountOf(cell)).toBe(micros);
  });

  it.each([
    ['-1.00', /negative/],
    ['(1.00)', /negative/],
    ['$-1.00', /negative/],
    ['12,50', /not an amount/],
    ['1.234,56', /not an amount/],
    ['1,23', /not an amount/],
    ['12.1234567', /more than 6 decimals/],
    ['1e3', /not an amount/],
    ['1,000,000,000', /over 1,000,000,000/],
  ])('rejects %s', (cell, reason) => {
    expect(amountOf(cell)).toMatch(reason);
  });

  it('names a row whose amount is empty or -- as without an amount, rejects nothing, and reads the rest', () => {
    const result = report('day,source,campaign,content,cost,currency\n2026-11-03,s,c,,,USD\n2026-11-04,s,c,,--,USD\n2026-11-05,s,c,,2,USD\n');
    expect([result.noAmount, result.rejected, result.rows.map((row) => row.amountMicros), result.amountName]).toEqual([[2, 3], [], [2_000_000], 'cost']);
  });

  it("rejects a symbol that names another currency than the row's", () => {
    expect(amountOf('€5', 'USD')).toBe("the amount's symbol is EUR, the row's currency USD");
    expect(amountOf('€5', 'EUR')).toBe(5_000_000);
  });
});

describe('readCostReport: totals and duplicates', () => {
  it('skips total and note rows and counts them, and rejects a bad date that is no total', () => {
    const result = report(
      ['Day,Campaign,Cost,Currency code', '2026-11-03,a,1,USD', 'Total: Account,--,1,USD', 'Totals,,1,USD', ',a,1,USD', 'Report generated by hand', ',,,', 'yesterday,a,1,USD'].join('\n'),
    );
    expect(result.skipped).toBe(5);
    expect(result.rejected).toEqual([{ line: 8, reason: expect.stringMatching(/"yesterday" is not a date/) }]);
  });

  it('keeps a campaign whose name begins with Total when its row has a date', () => {
    expect(report('By Day,Campaign name,Cost,Currency\n2026-11-03,Total recall,1,USD\n').rows.map((row) => row.campaign)).toEqual(['Total recall']);
  });

  it('sums rows of the same day, source, campaign and ad, and rejects one in another currency', () => {
    const result = report(['day,source,campaign,content,cost,currency', '2026-11-03,s,c,a,1.10,USD', '2026-11-03,s,c,a,2.20,USD', '2026-11-03,s,c,b,1,USD', '2026-11-03,s,c,a,3,EUR'].join('\n'));
    expect(result.rows.map((row) => [row.content, row.amountMicros])).toEqual([
      ['a', 3_300_000],
      ['b', 1_000_000],
    ]);
    expect(result.summed).toBe(1);
    expect(result.rejected).toEqual([{ line: 5, reason: 'the same day, campaign and ad is on line 2 in USD, here in EUR; two currencies are never added' }]);
  });

  it('rejects a campaign longer than any utm_campaign can be', () => {
    expect(report(`day,source,campaign,content,cost,currency\n2026-11-03,s,${'c'.repeat(101)},,1,USD\n`).rejected[0]!.reason).toMatch(/^a campaign longer than 100 characters/);
  });
});

describe('readCampaignMap', () => {
  it('reads name,utm_campaign pairs', () => {
    expect(readCampaignMap('\uFEFFName,utm_campaign\r\n"Spring, 2026",spring-2026\r\n')).toEqual({ map: new Map([['Spring, 2026', 'spring-2026']]) });
  });

  it.each([
    ['campaign\na\n', /header name,utm_campaign/],
    ['name,utm_campaign\n,b\n', /line 2/],
    ['name,utm_campaign\na,b\na,c\n', /line 3 maps "a" a second time/],
  ])('refuses %j', (text, error) => {
    expect(readCampaignMap(text)).toEqual({ error: expect.stringMatching(error) });
  });
});

describe('readCostReport properties', () => {
  const checkReasons = (result: ReturnType<typeof readCostReport>) => {
    if ('error' in result) return;
    expect(result.read).toBe(result.rows.length + result.summed + result.rejected.length + result.noAmount.length + result.skipped);
    for (const { reason } of result.rejected) {
      expect(reason.length).toBeGreaterThan(0);
      expect(reason).not.toMatch(/[\p{Cc}\p{Cf}<>&]/u);
    }
    for (const row of result.rows) {
      expect(row.day).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(Number.isSafeInteger(row.amountMicros) && row.amountMicros >= 0).toBe(true);
      expect(row.currency).toMatch(/^[A-Z]{3}$/);
    }
  };

  it('never throws on any text, and accounts for every row read', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        checkReasons(readCostReport(text, { currency: 'USD' }));
      }),
      { numRuns: 500 },
    );
  });

  const headers = ['Day,Campaign,Cost,Currency code', 'Gregorian date,Campaign name,Spend,Currency code', 'Reporting starts,Reporting ends,Campaign name,Ad name,Amount spent (USD)', 'By Day,Campaign name,Ad name,Cost,Currency', 'day,source,campaign,content,cost,currency'];
  const nasty = fc.constantFrom('<script>alert(1)</script>', '\u001b[31mred', 'a\u202eb', '"quoted"', '\u0000', 'Total', '--', '', '1,234.56', '-5', '$12', '€3', '11/3/2026', '13/11/2026', 'Nov 3, 2026', '2026-11-03', 'USD', 'usd', 'EUR', 'XYZ', 'x'.repeat(120));
  const cell = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 20 }));

  it('parses or rejects every row of a known header, and no reason holds a raw control character or markup', () => {
    fc.assert(
      fc.property(fc.constantFrom(...headers), fc.array(fc.array(cell, { minLength: 2, maxLength: 7 }), { maxLength: 12 }), (header, rows) => {
        const text = [header, ...rows.map((cells) => cells.map((value) => `"${value.replace(/"/g, '""')}"`).join(','))].join('\r\n');
        // --dates: rows of only ambiguous slash dates would refuse the file whole, as they should.
        const result = readCostReport(text, { source: 'x', dates: 'mdy' });
        expect('error' in result).toBe(false);
        checkReasons(result);
        if (!('error' in result)) expect(result.read).toBe(rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it('quotes no value that is not plain', () => {
    const result = report('day,source,campaign,content,cost,currency\n2026-11-03,s,c,,"<b>1</b>",USD\n2026-11-03,s,c,,"\u001b[2J",USD\n');
    expect(result.rejected.map(({ reason }) => reason)).toEqual(['column "cost": a value of 8 characters is not an amount (digits, a decimal point, commas between thousands: 1,234.56)', 'column "cost": a value of 4 characters is not an amount (digits, a decimal point, commas between thousands: 1,234.56)']);
  });
});
