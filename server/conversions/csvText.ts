import { isUtf8 } from 'node:buffer';

/** A file's text, or why it is not CSV text: one phrase, which never quotes the file's own bytes. */
export type CsvText = { text: string; error?: undefined } | { error: string };

/** Files an operator may pick by mistake, known by their first bytes. */
const signatures: ReadonlyArray<{ bytes: readonly number[]; what: string }> = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive, as an .xlsx or .ods spreadsheet is' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: 'an old Office document, as an .xls spreadsheet is' },
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip-compressed file' },
];

/** UTF-16 byte-order marks: with one the encoding is certain. */
const utf16Marks: ReadonlyArray<{ bytes: readonly number[]; order: 'le' | 'be' }> = [
  { bytes: [0xff, 0xfe], order: 'le' },
  { bytes: [0xfe, 0xff], order: 'be' },
];

export interface CsvTextOptions {
  /**
   * Decode UTF-16 with a byte-order mark (Google Ads' "Excel CSV" download is UTF-16LE with one, and
   * tab-separated) instead of refusing it. Without a mark the byte order is a guess, so such a file is
   * still refused, saying so.
   */
  utf16WithMark?: boolean;
}

const saveAsCsv = 'save the report as CSV (UTF-8) and import that file';
const saveAsUtf16OrCsv = 'download it again as the platform writes it (with the mark), or save it as CSV (UTF-8)';

/** UTF-16 code units of either byte order as text; unpaired surrogates make it no text. */
function decodeUtf16(bytes: Buffer, order: 'le' | 'be'): CsvText {
  if (bytes.length % 2 !== 0) return { error: `it is UTF-16 text with an odd number of bytes, so it was cut short; ${saveAsCsv}` };
  const littleEndian = order === 'le' ? bytes : Buffer.from(bytes).swap16();
  try {
    return { text: new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(littleEndian) };
  } catch {
    return { error: `it is UTF-16 text holding a broken character (an unpaired surrogate); ${saveAsCsv}` };
  }
}

/**
 * Text in UTF-16 without a mark: in its first 256 units, half or more have a NUL high byte (tabs, digits,
 * Latin letters) at one parity of byte and hardly any NUL at the other. Binary files have NULs at both.
 */
function looksLikeUtf16(bytes: Buffer): boolean {
  const units = Math.floor(Math.min(bytes.length, 512) / 2);
  if (units < 2) return false;
  const zeros = [0, 0];
  for (let index = 0; index < units * 2; index += 1) if (bytes[index] === 0) zeros[index % 2]! += 1;
  const [even, odd] = zeros as [number, number];
  return (even >= units / 2 && odd <= units / 10) || (odd >= units / 2 && even <= units / 10);
}

/** The line (1 for the first) of a position in the text, counting CRLF, LF and CR as csvRecords.ts does. */
function lineAt(text: string, index: number): number {
  return (text.slice(0, index).match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

/**
 * A network's CSV report as text, or why the file is not CSV text: the import must refuse a
 * spreadsheet, an image or other bytes before it reads a line, rather than report thousands of
 * rejected "lines" of binary and echo their bytes to the terminal. CSV text here is UTF-8 (with or
 * without a byte-order mark), or with utf16WithMark UTF-16 whose byte-order mark makes it certain,
 * holding no control character but tab, CR and LF. Files of another encoding are refused rather
 * than guessed at: a txid read with the wrong encoding would never match the same sale's postback.
 */
export function decodeCsvText(bytes: Uint8Array, options: CsvTextOptions = {}): CsvText {
  const starts = (signature: readonly number[]) => signature.every((byte, index) => bytes[index] === byte);
  const known = signatures.find(({ bytes: signature }) => starts(signature));
  if (known) return { error: `it is ${known.what}; ${saveAsCsv}` };
  const mark = utf16Marks.find(({ bytes: signature }) => starts(signature));
  if (mark && !options.utf16WithMark) return { error: `it is UTF-16 text; ${saveAsCsv}` };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mark) return checkedText(decodeUtf16(buffer.subarray(2), mark.order));
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    if (options.utf16WithMark && looksLikeUtf16(buffer)) {
      return { error: `it looks like UTF-16 text without a byte-order mark, whose byte order cannot be known for certain; ${saveAsUtf16OrCsv}` };
    }
    return { error: `it holds NUL bytes (the first at byte ${nul + 1}), as binary files do; ${saveAsCsv}` };
  }
  if (!isUtf8(buffer)) {
    // LF never occurs inside a multi-byte UTF-8 character, so the file can be checked line by line.
    let line = 1;
    for (let start = 0; start < buffer.length; line += 1) {
      const end = buffer.indexOf(0x0a, start);
      if (!isUtf8(buffer.subarray(start, end === -1 ? buffer.length : end))) break;
      start = end === -1 ? buffer.length : end + 1;
    }
    return { error: `it is not UTF-8 text (line ${line} holds bytes that are not UTF-8, as a file saved as Windows-1252 or Latin-1 does); ${saveAsCsv}` };
  }
  return checkedText({ text: buffer.toString('utf8') });
}

/** Text holding no control character but tab, CR and LF, or the line of the first. */
function checkedText(decoded: CsvText): CsvText {
  if (decoded.error !== undefined) return decoded;
  const { text } = decoded;
  const control = /[^\P{Cc}\t\r\n]/u.exec(text);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).padStart(2, '0');
    return { error: `line ${lineAt(text, control.index)} holds the control character 0x${code}, which CSV text never does; ${saveAsCsv}` };
  }
  return { text };
}
