import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { main as importMain } from '../../scripts/costs-import';
import { parseCsvRecords } from '../../server/conversions/csvRecords';
import { readDailyCostSums } from '../../server/costs/costSums';
import { readCosts } from '../../server/costs/costStore';
import { openDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { runScript } from '../support/scriptProcess';
import { useTempDir } from '../support/tempDir';

/**
 * costs:import on the files the platforms wrote (tests/fixtures/costs/SOURCES.md says where each came
 * from), run as the operator runs it, with the stored costs and their day sums held to the file's figures.
 */

const temp = useTempDir();
const fixtures = path.join(__dirname, '../fixtures/costs');
const fixture = (name: string) => path.join(fixtures, name);
const dbFile = () => path.join(temp.dir(), 'clicks.sqlite');

const googleExcelCsv = 'google-ads-excel-csv_from_DanielTheC-internal-lnking-tool_Campaign-report.csv';
const googleCsv = 'google-ads-csv_from_1123alberto-Clinic_Marketing_Agency_Campaign-report.csv';
const metaExport = 'meta-ads_from_DanielTheC-internal-lnking-tool_Daniel-Conlan-Campaigns-1-Sep-202430-Sep-2024.csv';
const microsoftFromDocs = 'microsoft-advertising-api-csv-from-docs_MicrosoftDocs-BingAds-docs_guides-reports.csv';

const importFile = (file: string, ...args: string[]) => runScript('scripts/costs-import.ts', [file, '--db', dbFile(), ...args]);

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await importMain(argv, {}, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

/** What the database holds: each cost as [day, source, campaign, micros, currency], and each day's sum per currency. */
async function stored(from: string, to: string) {
  const database = await openDatabase({ engine: 'sqlite', file: dbFile() }, { logger: silentLogger });
  try {
    const costs = await readCosts(database.db, { from, to });
    const days = await readDailyCostSums(database.db, { from, to });
    return {
      costs: costs.map((row) => [row.day, row.source, row.campaign, row.amountMicros, row.currency]),
      days: days.map((row) => [row.day, row.amountMicros, row.currency]),
    };
  } finally {
    await database.close();
  }
}

/** A copy of a UTF-8 fixture as UTF-16 with its byte-order mark, tab-separated as Google's "Excel CSV" is: made here, and named so. */
function utf16Copy(name: string, order: 'le' | 'be'): string {
  const text = readFileSync(fixture(name), 'utf8').replace(/^\uFEFF/, '');
  const tabbed = parseCsvRecords(text)
    .map((record) => record.fields.map((field) => (/[\t"\n]/.test(field) || field.includes(',') ? `"${field.replaceAll('"', '""')}"` : field)).join('\t'))
    .join('\r\n');
  const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${tabbed}\r\n`, 'utf16le')]);
  const bytes = order === 'le' ? little : Buffer.from(little).swap16();
  const file = path.join(temp.dir(), `${path.basename(name, '.csv')}_utf-16${order}-copy-made-by-the-test.csv`);
  writeFileSync(file, bytes);
  return file;
}

describe('npm run costs:import of Google Ads downloads', () => {
  it('decodes the "Excel CSV" download (UTF-16LE with its mark, tabs) and names the missing Day segment with what to change', async () => {
    const bytes = readFileSync(fixture(googleExcelCsv));
    expect([bytes[0], bytes[1], bytes.includes(0x09)]).toEqual([0xff, 0xfe, true]);
    const result = await importFile(fixture(googleExcelCsv));
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `costs:import: ${fixture(googleExcelCsv)}: it is a Google Ads report without its "Day" column: segment the Google Ads report by Day (Segment → Time → Day) and download it again; ` +
        'a cost is held per day, so a report without days cannot be imported\n',
    );
    expect(result.code).toBe(1);
    expect(existsSync(dbFile())).toBe(false);
  });

  it('names the missing Day segment of the "CSV" download (UTF-8) the same way', async () => {
    const result = await run([fixture(googleCsv), '--db', dbFile()]);
    expect(result).toEqual({ code: 1, out: '', err: expect.stringContaining(': it is a Google Ads report without its "Day" column: segment the Google Ads report by Day') });
  });

  it('refuses UTF-16 without its byte-order mark, saying the byte order cannot be known', async () => {
    const file = path.join(temp.dir(), 'Campaign report, mark removed.csv');
    writeFileSync(file, readFileSync(fixture(googleExcelCsv)).subarray(2));
    const result = await run([file, '--db', dbFile()]);
    expect(result).toEqual({
      code: 1,
      out: '',
      err: `costs:import: ${file} is not CSV text: it looks like UTF-16 text without a byte-order mark, whose byte order cannot be known for certain; download it again as the platform writes it (with the mark), or save it as CSV (UTF-8)\n`,
    });
  });

  it.each(['le', 'be'] as const)('imports a daily report as UTF-16%s with its mark, tab-separated, to the figures in the file', async (order) => {
    const file = utf16Copy('google-ads.csv', order);
    const result = await importFile(file);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `${file}: a Google Ads report: 3 costs (2237.10 USD), 1 row added into another of the same day, campaign and ad, 2 total or note rows skipped, 1 without an amount, 1 rejected`,
        '  line 9: column "Cost": the amount "-3.00" is negative; a cost is at least 0',
        '  line 8: no amount in "Cost" (empty or --), so nothing was set for that row; the rest is applied',
        'written: 3 new or changed, 0 already held',
        '',
      ].join('\n'),
    );
    // The file's rows: 1,234.56 + 15.44 on 3 November (two devices), 0.00, and 987.10 on 4 November; its total row says 2,237.10.
    expect(await stored('2026-11-01', '2026-11-30')).toEqual({
      costs: [
        ['2026-11-03', 'google', 'repo-cars', 0, 'USD'],
        ['2026-11-03', 'google', 'spring-auctions', 1_250_000_000, 'USD'],
        ['2026-11-04', 'google', 'spring-auctions', 987_100_000, 'USD'],
      ],
      days: [
        ['2026-11-03', 1_250_000_000, 'USD'],
        ['2026-11-04', 987_100_000, 'USD'],
      ],
    });
  });
});

describe("npm run costs:import of Microsoft Advertising's API report (from its documentation)", () => {
  it('reads the no-space column names, passes over the title block and footer, and stores the figures in the file', async () => {
    const result = await importFile(fixture(microsoftFromDocs));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `${fixture(microsoftFromDocs)}: a Microsoft Advertising report: 5 costs (195.95 USD), 1 total or note row skipped, 0 rejected\nwritten: 5 new or changed, 0 already held\n`,
    );
    expect(result.code).toBe(0);
    expect(await stored('2020-02-01', '2020-02-29')).toEqual({
      costs: [
        ['2020-02-01', 'bing', 'red shoes', 41_300_000, 'USD'],
        ['2020-02-01', 'bing', 'shoe sale', 96_000_000, 'USD'],
        ['2020-02-02', 'bing', 'red shoes', 57_500_000, 'USD'],
        ['2020-02-02', 'bing', 'shoe sale', 0, 'USD'],
        ['2020-02-03', 'bing', 'red shoes', 1_150_000, 'USD'],
      ],
      days: [
        ['2020-02-01', 137_300_000, 'USD'],
        ['2020-02-02', 57_500_000, 'USD'],
        ['2020-02-03', 1_150_000, 'USD'],
      ],
    });
  });

  it('imports a UTF-16 copy of it to the same figures', async () => {
    const result = await run([utf16Copy(microsoftFromDocs, 'le'), '--db', dbFile()]);
    expect(result.code).toBe(0);
    expect((await stored('2020-02-01', '2020-02-29')).days).toEqual([
      ['2020-02-01', 137_300_000, 'USD'],
      ['2020-02-02', 57_500_000, 'USD'],
      ['2020-02-03', 1_150_000, 'USD'],
    ]);
  });
});

describe("npm run costs:import of a Meta Ads Manager export", () => {
  it('reads an export of a month without delivery as no costs, its "No data available." line a note, and exits 0', async () => {
    const result = await importFile(fixture(metaExport));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${fixture(metaExport)}: a Meta Ads Manager report: 0 costs (nothing), 1 total or note row skipped, 0 rejected\nwritten: 0 new or changed, 0 already held\n`);
    expect(result.code).toBe(0);
    expect(await stored('2024-09-01', '2024-09-30')).toEqual({ costs: [], days: [] });
  });
});

describe('npm run costs:import: dates whose order the file does not show', () => {
  const write = (text: string) => {
    const file = path.join(temp.dir(), 'costs.csv');
    writeFileSync(file, text);
    return file;
  };
  const ambiguous = 'day,source,campaign,content,cost,currency\n3/11/2026,news,a,,5.00,EUR\n4/11/2026,news,a,,6.00,EUR\n';

  it('refuses a file whose every slash date could be either order, naming --dates, and writes nothing', async () => {
    const file = write(ambiguous);
    const result = await run([file, '--db', dbFile()]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/: every date in column "day" could be month first or day first \(the first, "3\/11\/2026" on line 2, could be either\): say which with --dates mdy .* or --dates dmy/);
    expect(existsSync(dbFile())).toBe(false);
  });

  it('reads it in the order --dates gives', async () => {
    const file = write(ambiguous);
    expect((await run([file, '--db', dbFile(), '--dates', 'dmy'])).code).toBe(0);
    expect((await stored('2026-01-01', '2026-12-31')).costs).toEqual([
      ['2026-11-03', 'news', 'a', 5_000_000, 'EUR'],
      ['2026-11-04', 'news', 'a', 6_000_000, 'EUR'],
    ]);
  });

  it('reads it in the order one unambiguous date shows', async () => {
    const file = write(`${ambiguous}25/11/2026,news,a,,7.00,EUR\n`);
    expect((await run([file, '--db', dbFile()])).code).toBe(0);
    expect((await stored('2026-01-01', '2026-12-31')).costs.map(([day]) => day)).toEqual(['2026-11-03', '2026-11-04', '2026-11-25']);
  });

  it('lists --dates in --help and refuses another value with exit 64', async () => {
    const help = await run(['--help']);
    expect(help.out).toMatch(/\[--dates mdy\|dmy\]/);
    expect(help.out).toMatch(/^ {2}--dates mdy\|dmy {3}/m);
    const bad = await run([write(ambiguous), '--dates', 'ymd', '--db', dbFile()]);
    expect(bad.code).toBe(64);
    expect(bad.err).toMatch(/^costs:import: --dates must be mdy .* or dmy/);
  });
});

describe('npm run costs:import: rows without an amount', () => {
  it('names them in one line, applies the rest, and exits 0', async () => {
    const file = path.join(temp.dir(), 'costs.csv');
    writeFileSync(file, 'Reporting starts,Reporting ends,Campaign name,Ad name,Amount spent (USD)\n2026-11-03,2026-11-03,Spring,video-a,\n2026-11-03,2026-11-03,Spring,video-b,4.50\n2026-11-04,2026-11-04,Spring,video-a,\n');
    const result = await run([file, '--db', dbFile()]);
    expect(result.out).toBe(
      `${file}: a Meta Ads Manager report: 1 cost (4.50 USD), 0 total or note rows skipped, 2 without an amount, 0 rejected\n` +
        '  lines 2, 4: no amount in "Amount spent (USD)" (empty or --), so nothing was set for those rows; the rest is applied\n' +
        'written: 1 new or changed, 0 already held\n',
    );
    expect(result.code).toBe(0);
    expect((await stored('2026-11-01', '2026-11-30')).costs).toEqual([['2026-11-03', 'facebook', 'Spring', 4_500_000, 'USD']]);
  });
});
