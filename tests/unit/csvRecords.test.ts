import { parseCsvRecords } from '../../server/conversions/csvRecords';

describe('parseCsvRecords', () => {
  it('reads records and the line each starts on', () => {
    expect(parseCsvRecords('txid,payout\nA,1.50\nB,2\n')).toEqual([
      { line: 1, fields: ['txid', 'payout'] },
      { line: 2, fields: ['A', '1.50'] },
      { line: 3, fields: ['B', '2'] },
    ]);
  });

  it('reads quoted fields holding the delimiter, line breaks and doubled quotes, and counts their lines', () => {
    expect(parseCsvRecords('txid,note\r\n"A,1","two\r\nlines"\r\n"B","say ""hi"""\r\nC,\r\n')).toEqual([
      { line: 1, fields: ['txid', 'note'] },
      { line: 2, fields: ['A,1', 'two\r\nlines'] },
      { line: 4, fields: ['B', 'say "hi"'] },
      { line: 5, fields: ['C', ''] },
    ]);
  });

  it.each([
    ['CRLF', 'a,b\r\n1,2'],
    ['LF', 'a,b\n1,2\n'],
    ['CR', 'a,b\r1,2\r'],
  ])('ends records at %s, with or without a last line break', (_name, text) => {
    expect(parseCsvRecords(text).map((record) => record.fields)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('skips blank lines but keeps counting them', () => {
    expect(parseCsvRecords('a\n\n\nb\n')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 4, fields: ['b'] },
    ]);
  });

  it('drops a byte-order mark', () => {
    expect(parseCsvRecords('\uFEFFtxid\nA')[0]).toEqual({ line: 1, fields: ['txid'] });
  });

  it('reads another delimiter, such as the semicolon of European exports', () => {
    expect(parseCsvRecords('txid;payout\n"A;1";12,50', ';').map((record) => record.fields)).toEqual([
      ['txid', 'payout'],
      ['A;1', '12,50'],
    ]);
  });

  it('keeps a quote inside an unquoted field as it is', () => {
    expect(parseCsvRecords('5" screen,x')[0]!.fields).toEqual(['5" screen', 'x']);
  });

  it('marks a record whose quoted field is followed by more text', () => {
    expect(parseCsvRecords('a,b\n"A"x,2\nB,3')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['Ax', '2'], error: 'a quoted field must be followed by "," or the end of the line' },
      { line: 3, fields: ['B', '3'] },
    ]);
  });

  it('ends at a quoted field that is never closed, marking the record it began', () => {
    expect(parseCsvRecords('a,b\nA,1\n"B,2\nC,3\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['A', '1'] },
      { line: 3, fields: ['B,2\nC,3\n'], error: 'a quoted field is never closed: the rest of the file is inside it' },
    ]);
  });

  it('reads an empty file as no records', () => {
    expect(parseCsvRecords('')).toEqual([]);
  });
});
