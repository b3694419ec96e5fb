import fc from 'fast-check';
import { table } from '../../server/lib/textTable';
import { terminalWidth } from '../../server/lib/terminalWidth';

describe('terminalWidth', () => {
  it.each([
    ['google', 6],
    ['', 0],
    ['東京セール', 10],
    ['봄 캠페인', 9],
    ['ｶﾀｶﾅ', 4],
    ['ＡＢＣ', 6],
    ['sale 🔥', 7],
    ['👍🏽', 2],
    ['👨‍👩‍👧', 2],
    ['🇯🇵 spring', 9],
    ['1️⃣', 2],
    ['café', 4],
    ['cafe\u0301', 4],
    ['Z\u0351\u0362a\u0328\u0334lgo', 5],
    ['a\u200bb', 2],
    ['naïve ☺', 7],
  ])('gives %j %i columns', (text, width) => {
    expect(terminalWidth(text)).toBe(width);
  });
});

/** Names as utm values may be: ASCII, CJK, Hangul, fullwidth forms, emoji (with skin tones and joiners) and combining marks. */
const piece = fc.constantFrom(
  'a', 'Z', '7', ' ', '-', '_', '.',
  '東', '京', '夏', 'セ', 'ー', 'ル', '봄', '캠', '페', '인', 'Ａ', '１',
  '🔥', '🚗', '👍🏽', '👨‍👩‍👧', '🇯🇵', '✅', '1️⃣',
  'e\u0301', 'a\u0308', 'n\u0303', 'o\u0328\u0304', 'ก\u0e34',
);
const name = fc.array(piece, { minLength: 1, maxLength: 12 }).map((pieces) => pieces.join(''));

/** A piece's own width as the generator knows it: the expected columns, independently of terminalWidth. */
const pieceWidth = (piece: string): number => (/^[\x20-\x7e]$/.test(piece) || /^\p{Script=Latin}\p{M}+$/u.test(piece) || /^\p{Script=Thai}/u.test(piece) ? 1 : 2);

describe('table', () => {
  it('lines every column up in a terminal\'s columns, whatever the names hold', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.nat({ max: 10_000_000 })), { minLength: 1, maxLength: 8 }), (rows) => {
        const cells = [['Campaign', 'Visitors', 'Clicks'], ...rows.map(([pieces, count]) => [pieces.join(''), String(count), String(count % 977)])];
        const lines = table(cells, 1).split('\n');
        expect(lines).toHaveLength(cells.length);
        const widthOf = (index: number) => (index === 0 ? 'Campaign'.length : rows[index - 1]![0].reduce((sum, part) => sum + pieceWidth(part), 0));
        const nameColumns = Math.max(...cells.map((_, index) => widthOf(index)));
        const rests = lines.map((line, index) => {
          // The name, padded to the widest name's columns, then the two spaces between columns.
          const lead = cells[index]![0]! + ' '.repeat(nameColumns - widthOf(index) + 2);
          expect(line.startsWith(lead)).toBe(true);
          return line.slice(lead.length);
        });
        // After it every line holds the same columns: as long as the heading's, each ending in its last figure.
        for (const [index, rest] of rests.entries()) {
          expect(rest).toHaveLength(rests[0]!.length);
          expect(rest.endsWith(cells[index]![2]!)).toBe(true);
          expect(terminalWidth(lines[index]!)).toBe(terminalWidth(lines[0]!));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('still pads plain ASCII by its length, and multi-line cells on lines of their own', () => {
    expect(table([['Source', 'Revenue'], ['google', '1.00 USD\n2.00 EUR']], 1)).toBe('Source   Revenue\ngoogle  1.00 USD\n        2.00 EUR');
  });

  it('keeps the columns of a report whose name is wider than its heading in CJK', () => {
    expect(table([['Campaign', 'Visitors'], ['東京セール', '12'], ['spring', '3']], 1).split('\n')).toEqual(['Campaign    Visitors', '東京セール        12', 'spring             3']);
  });
});
