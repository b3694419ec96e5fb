import fc from 'fast-check';
import { byBytes, byValueOrder, type DayCountRow } from '../../server/dayCounts/dimensions';

/**
 * The day counts' order in JavaScript: the open days are ranked here and the closed ones in the database,
 * so both must order text as SQLite and PostgreSQL's "C" collation do, by its UTF-8 bytes.
 */
describe('byBytes', () => {
  const bytesOrder = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

  it('orders any two strings as their UTF-8 bytes are ordered', () => {
    // Full Unicode, astral characters included, and strings sharing long prefixes.
    const text = fc.string({ unit: 'grapheme', maxLength: 8 });
    fc.assert(
      fc.property(text, text, text, (prefix, a, b) => {
        expect(Math.sign(byBytes(prefix + a, prefix + b))).toBe(bytesOrder(prefix + a, prefix + b));
      }),
      { numRuns: 2_000 },
    );
  });

  it('puts U+E000..U+FFFF before the characters past U+FFFF, where UTF-16 units put them after', () => {
    const privateUse = '\ue000';
    const emoji = '\u{1f697}';
    expect(privateUse < emoji).toBe(false);
    expect(byBytes(privateUse, emoji)).toBeLessThan(0);
    expect(byBytes('\uffff', '\u{10000}')).toBeLessThan(0);
    expect(byBytes('a', 'a')).toBe(0);
    expect(byBytes('a', 'ab')).toBeLessThan(0);
  });
});

describe('byValueOrder', () => {
  const row = (value: string, visitors: number, clicks: number): DayCountRow => ({ day: '2026-11-01', value, views: 0, visitors, clicks, clickers: 0, distinctValues: 1 });

  it('ranks by visitors, then clicks, the unknown value after named ones, then by bytes', () => {
    const rows = [row('b', 5, 1), row('', 5, 1), row('a', 5, 1), row('c', 5, 2), row('z', 9, 0), row('\u{1f697}', 5, 1), row('\ue000', 5, 1)];
    expect(rows.sort(byValueOrder).map((r) => r.value)).toEqual(['z', 'c', 'a', 'b', '\ue000', '\u{1f697}', '']);
  });
});
