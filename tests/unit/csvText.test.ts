import { decodeCsvText } from '../../server/conversions/csvText';

const utf16 = (text: string, order: 'le' | 'be', mark = true) => {
  const little = Buffer.concat([mark ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? little : Buffer.from(little).swap16();
};

describe('decodeCsvText of UTF-16', () => {
  const text = 'Day\tCampaign\tCost\r\n2026-11-03\tΟδοντικά Εμφυτεύματα 🚗\t"1,234.56"\r\n';

  it.each(['le', 'be'] as const)('decodes UTF-16%s with its byte-order mark when asked, without the mark in the text', (order) => {
    expect(decodeCsvText(utf16(text, order), { utf16WithMark: true })).toEqual({ text });
  });

  it('refuses it as conversions:import does unless asked', () => {
    expect(decodeCsvText(utf16(text, 'le'))).toEqual({ error: 'it is UTF-16 text; save the report as CSV (UTF-8) and import that file' });
  });

  it.each(['le', 'be'] as const)('refuses UTF-16%s without its mark, saying the byte order cannot be known', (order) => {
    expect(decodeCsvText(utf16(text, order, false), { utf16WithMark: true })).toEqual({
      error: 'it looks like UTF-16 text without a byte-order mark, whose byte order cannot be known for certain; download it again as the platform writes it (with the mark), or save it as CSV (UTF-8)',
    });
  });

  it('still calls bytes with NUL in them binary when they are no UTF-16 text', () => {
    expect(decodeCsvText(Buffer.from('txid\nA-1\u0000\n'), { utf16WithMark: true })).toEqual({ error: 'it holds NUL bytes (the first at byte 9), as binary files do; save the report as CSV (UTF-8) and import that file' });
  });

  it('refuses UTF-16 cut short, with a broken character, or holding a control character', () => {
    expect(decodeCsvText(utf16(text, 'le').subarray(0, 7), { utf16WithMark: true })).toEqual({ error: expect.stringMatching(/^it is UTF-16 text with an odd number of bytes/) });
    expect(decodeCsvText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0x3d, 0xd8, 0x41, 0x00])]), { utf16WithMark: true })).toEqual({ error: expect.stringMatching(/^it is UTF-16 text holding a broken character/) });
    expect(decodeCsvText(utf16('a\r\nb\u001b[2J\r\n', 'be'), { utf16WithMark: true })).toEqual({
      error: 'line 2 holds the control character 0x1b, which CSV text never does; save the report as CSV (UTF-8) and import that file',
    });
  });

  it('reads UTF-8 as before', () => {
    expect(decodeCsvText(Buffer.from('\uFEFFday,cost\n'), { utf16WithMark: true })).toEqual({ text: '\uFEFFday,cost\n' });
  });
});
