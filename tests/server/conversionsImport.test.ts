import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { main as importMain } from '../../scripts/conversions-import';
import { createConversionStore, readConversionTotals } from '../../server/conversions/conversionStore';
import type { Engine } from '../../server/db/databaseSettings';
import { openDatabase, type AppDatabase } from '../../server/db/openDatabase';
import { silentLogger } from '../../server/lib/logger';
import { engines } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();

/** A CJ-style commission report: its own column names and status names, a quoted field with a comma and a line break. */
const cjReport = [
  'Commission ID,Order ID,SID,Commission,Action Status,Advertiser',
  '3001,ORD-1,k3XcQ9,12.50,locked,"Gov Auctions, Inc."',
  '3002,ORD-2,hero,7.25,new,"Gov Auctions, Inc."',
  '3003,ORD-3,,4.00,closed,"Note: two',
  'lines"',
  '3004,ORD-1,k3XcQ9,12.50,corrected,"Gov Auctions, Inc."',
  '',
].join('\r\n');
const cjFlags = ['--txid-column', 'Order ID', '--subid-column', 'SID', '--payout-column', 'Commission', '--status-column', 'Action Status'];
const cjStatusMap = ['--status-map', 'new=sale,locked=sale,closed=sale,corrected=refund'];

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await importMain(argv, env, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

function writeCsv(text: string, name = 'report.csv'): string {
  const file = path.join(temp.dir(), name);
  writeFileSync(file, text);
  return file;
}

/** Where the import writes: a SQLite file named by --db, or a fresh PostgreSQL database named by DATABASE_URL. */
interface Target {
  args: string[];
  env: Record<string, string>;
  open(): Promise<AppDatabase>;
}

describe.each(engines)('npm run conversions:import on %s', (engine: Engine) => {
  let postgres: TestDatabase | undefined;
  let target: Target;
  beforeEach(async () => {
    if (engine === 'postgres') {
      postgres = await createTestDatabase();
      const url = postgres.url;
      target = { args: [], env: { DATABASE_URL: url }, open: () => openDatabase({ engine, url }, { logger: silentLogger }) };
    } else {
      const file = path.join(temp.dir(), 'clicks.sqlite');
      target = { args: ['--db', file], env: {}, open: () => openDatabase({ engine, file }, { logger: silentLogger }) };
    }
  });
  afterEach(() => postgres?.drop());

  const importFile = (file: string, flags: string[] = []) => run([file, ...flags, ...target.args], target.env);
  const totals = async () => {
    const database = await target.open();
    try {
      return await readConversionTotals(database.db);
    } finally {
      await database.close();
    }
  };

  it('imports a report through its own column and status names, and says what it did', async () => {
    const { code, out, err } = await importFile(writeCsv(cjReport), [...cjFlags, ...cjStatusMap]);
    expect(err).toBe('');
    expect(out).toBe('imported 4, duplicate 0, rejected 0\nnow recorded: 2 conversions (11.25 USD), 1 reversed\n');
    expect(code).toBe(0);
    expect(await totals()).toEqual({ conversions: 2, unattributed: 1, reversed: 1, revenue: [{ currency: 'USD', payoutMicros: 11_250_000 }] });
  });

  it('leaves the same totals when the same file is imported twice', async () => {
    const file = writeCsv(cjReport);
    await importFile(file, [...cjFlags, ...cjStatusMap]);
    const before = await totals();
    const again = await importFile(file, [...cjFlags, ...cjStatusMap]);
    expect(again.out).toMatch(/^imported 0, duplicate 4, rejected 0\n/);
    expect(again.code).toBe(0);
    expect(await totals()).toEqual(before);
  });

  it('reads the default columns txid, subid, payout, currency and status without flags', async () => {
    const file = writeCsv('TXID,SubID,Payout,Currency,Status\nA-1,k3XcQ9,10,eur,sale\nA-2,,5,,\nA-1,,,,refund\n');
    const { code, out } = await importFile(file);
    expect(out).toMatch(/^imported 3, duplicate 0, rejected 0\n/);
    expect(code).toBe(0);
    expect((await totals()).revenue).toEqual([{ currency: 'USD', payoutMicros: 5_000_000 }]);
  });

  it('uses --currency for rows without one, and reads a semicolon-separated file', async () => {
    const file = writeCsv('txid;payout\nE-1;19.90\nE-2;0.10\n');
    expect((await importFile(file, ['--currency', 'eur', '--delimiter', ';'])).code).toBe(0);
    expect((await totals()).revenue).toEqual([{ currency: 'EUR', payoutMicros: 20_000_000 }]);
  });

  it('rejects invalid rows with their line and reason, imports the rest, and exits 1', async () => {
    const file = writeCsv(
      ['txid,payout,currency,status,note', 'G-1,3.00,USD,sale,"a note', 'over two lines"', ',1,USD,sale,', 'G-2,-4,USD,sale,', 'G-3,1,XYZ,sale,', 'G-4,1,USD,pending,', '"G-5"x,1,USD,sale,', 'G-6,2,USD,sale,', ''].join('\n'),
    );
    const { code, out } = await importFile(file);
    expect(out).toBe(
      [
        'imported 2, duplicate 0, rejected 5',
        "  line 4: column \"txid\": txid is required: the network's transaction ID",
        '  line 5: column "payout": payout must be a decimal number from 0 to 1000000 with at most 6 decimal places, such as 12.50',
        '  line 6: column "currency": currency must be an ISO 4217 currency code such as USD or EUR',
        '  line 7: column "status": status must be sale, refund or chargeback, or a status the postback maps with sale_status, refund_status or chargeback_status',
        '  line 8: a quoted field must be followed by "," or the end of the line',
        'now recorded: 2 conversions (5.00 USD), 0 reversed',
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
  });

  it('rejects the record a never-closed quote begins, keeping the rows before it', async () => {
    const { code, out } = await importFile(writeCsv('txid,payout\nU-1,1\n"U-2,2\nU-3,3\n'));
    expect(out).toMatch(/^imported 1, duplicate 0, rejected 1\n {2}line 3: a quoted field is never closed/);
    expect(code).toBe(1);
  });

  it('counts a row whose txid a postback already recorded as a duplicate', async () => {
    const database = await target.open();
    await createConversionStore(database.db).record(
      { txid: 'P-1', subid: null, clickId: null, placement: null, variants: '', payoutMicros: 1_000_000, currency: 'USD', status: 'sale' },
      'postback',
    );
    await database.close();
    const { out } = await importFile(writeCsv('txid,payout\nP-1,1\nP-2,1\n'));
    expect(out).toMatch(/^imported 1, duplicate 1, rejected 0\n/);
  });

  it.each([
    ['no file', []],
    ['two files', ['a.csv', 'b.csv']],
    ['an unknown option', ['x.csv', '--sid-column', 'SID']],
    ['a status map without meanings', ['x.csv', '--status-map', 'Locked']],
    ['a status map with an unknown meaning', ['x.csv', '--status-map', 'Locked=won']],
    ['a delimiter of two characters', ['x.csv', '--delimiter', ';;']],
    ['an unknown currency', ['x.csv', '--currency', 'ZZZ']],
  ])('exits 64 with the usage for %s', async (_name, argv) => {
    const { code, err, out } = await run([...argv, ...target.args], target.env);
    expect(code).toBe(64);
    expect(err).toMatch(/^conversions:import: .*\nUsage: npm run conversions:import -- FILE\.csv/);
    expect(out).toBe('');
  });

  it('exits 64 when a column the options name is not in the header, writing nothing', async () => {
    const file = writeCsv('Order ID,Commission\nO-1,2\n');
    const { code, err } = await importFile(file, ['--txid-column', 'Order ID', '--payout-column', 'Amount']);
    expect(code).toBe(64);
    expect(err).toContain('the header has no column "Amount" for --payout-column (its columns: "Order ID", "Commission")');
    expect((await totals()).conversions).toBe(0);
  });

  it('exits 64 when the report has no txid column and none is named', async () => {
    const { code, err } = await importFile(writeCsv('Order ID,Commission\nO-1,2\n'));
    expect(code).toBe(64);
    expect(err).toContain('the header has no column "txid" for --txid-column');
  });

  it('exits 1 for a file it cannot read, or an empty one', async () => {
    const missing = await importFile(path.join(temp.dir(), 'missing.csv'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^conversions:import: cannot read .*missing\.csv/);
    const empty = await importFile(writeCsv(''));
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('the file is empty');
  });
});

describe('npm run conversions:import without a usable database', () => {
  it('exits 1 naming DATABASE_URL, without its password', async () => {
    const file = writeCsv('txid\nZ-1\n');
    const { code, err } = await run([file], { DATABASE_URL: 'postgres://site:hunter2@127.0.0.1:1/guide' });
    expect(code).toBe(1);
    expect(err).toMatch(/^conversions:import: DATABASE_URL postgres:\/\/site:\*\*\*@127\.0\.0\.1:1\/guide /);
    expect(err).not.toContain('hunter2');
  });
});

/** A real ZIP archive of one deflated entry, as the first part of an .xlsx is: local header, data, central directory, end record. */
function zipArchive(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const deflated = deflateRawSync(data);
  const fileName = Buffer.from(name);
  const common = (header: Buffer, at: number) => {
    header.writeUInt16LE(20, at); // version needed
    header.writeUInt16LE(0, at + 2); // flags
    header.writeUInt16LE(8, at + 4); // deflate
    header.writeUInt32LE(0x5a210000, at + 6); // DOS time and date
    header.writeUInt32LE(crc32(data), at + 10);
    header.writeUInt32LE(deflated.length, at + 14);
    header.writeUInt32LE(data.length, at + 18);
    header.writeUInt16LE(fileName.length, at + 22);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  common(local, 4);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // version made by
  common(central, 6);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + deflated.length, 16);
  return Buffer.concat([local, fileName, deflated, central, fileName, end]);
}

/** A PNG's signature and its IHDR chunk (1x1, 8-bit RGBA), then a few image bytes. */
function pngImage(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = Buffer.concat([Buffer.from('IHDR'), ihdr]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(chunk));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), length, chunk, crc, randomBytes(64)]);
}

/** Any control character but the line end: what must never reach the operator's terminal. */
const controlCharacter = /[^\P{Cc}\n]/u;

describe('npm run conversions:import of a file that is not CSV text', () => {
  const database = () => path.join(temp.dir(), 'untouched.sqlite');
  const importBytes = async (bytes: Buffer, name: string) => {
    const file = path.join(temp.dir(), name);
    writeFileSync(file, bytes);
    return { file, ...(await run([file, '--db', database()])) };
  };

  it.each([
    ['a spreadsheet saved as .xlsx', () => zipArchive('[Content_Types].xml', '<?xml version="1.0"?><Types/>'), 'report.xlsx', 'it is a ZIP archive, as an .xlsx or .ods spreadsheet is'],
    ['a PNG image', pngImage, 'screenshot.png', 'it is a PNG image'],
    ['an old .xls spreadsheet', () => Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(512)]), 'report.xls', 'it is an old Office document, as an .xls spreadsheet is'],
    ['random bytes', () => Buffer.concat([Buffer.from('txid\n'), randomBytes(4096)]), 'report.csv', /^it (holds NUL bytes|is not UTF-8 text)/],
    ['text with a NUL byte', () => Buffer.from('txid\nA-1\u0000\n'), 'report.csv', 'it holds NUL bytes (the first at byte 9), as binary files do'],
    ['a Windows-1252 export', () => Buffer.from('txid,note\nA-1,caf\xe9\n', 'latin1'), 'report.csv', 'it is not UTF-8 text (line 2 holds bytes that are not UTF-8'],
    ['an export saved as UTF-16', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('txid\tpayout\r\nA-1\t3\r\n', 'utf16le')]), 'report.txt', 'it is UTF-16 text'],
    ['UTF-8 with a terminal escape sequence', () => Buffer.from('txid,note\nA-1,ok\nA-2,\u001b]0;owned\u0007\u001b[2J\n'), 'report.csv', 'line 3 holds the control character 0x1b, which CSV text never does'],
  ])('exits 1 with one line saying %s is not CSV text, writing nothing and echoing no control byte', async (_name, bytes, name, reason) => {
    const { file, code, out, err } = await importBytes(bytes(), name);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.split('\n')).toEqual([expect.stringMatching(/^conversions:import: /), '']);
    expect(err.startsWith(`conversions:import: ${file} is not CSV text: `)).toBe(true);
    const said = err.slice(`conversions:import: ${file} is not CSV text: `.length);
    if (typeof reason === 'string') expect(said).toContain(reason);
    else expect(said).toMatch(reason);
    expect(said).toContain('save the report as CSV (UTF-8) and import that file');
    expect(err).not.toMatch(controlCharacter);
    expect(existsSync(database())).toBe(false);
  });

  it('writes out the control characters of a file name it cannot read', async () => {
    const { code, err } = await run([path.join(temp.dir(), 'missing\u001b[31m\r.csv'), '--db', database()]);
    expect(code).toBe(1);
    expect(err).toContain('missing\\x1b[31m\\x0d.csv');
    expect(err).not.toMatch(controlCharacter);
    expect(err.split('\n')).toHaveLength(2);
  });

  it('writes out invisible marks and line breaks in the header names it quotes', async () => {
    const file = path.join(temp.dir(), 'marks.csv');
    writeFileSync(file, '"Order\u202eID","Com\nmission"\nO-1,2\n');
    const { code, err } = await run([file, '--db', database(), '--txid-column', 'Order ID']);
    expect(code).toBe(64);
    expect(err).toContain('(its columns: "Order\\u202eID", "Com\\x0amission")');
    expect(err).not.toMatch(controlCharacter);
    expect(err).not.toContain('\u202e');
  });
});
