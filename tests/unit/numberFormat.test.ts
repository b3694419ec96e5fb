import fc from 'fast-check';
import { amountText, countText, decimalText, percentText, reportLocale, shortAmountText, shortCountText } from '../../server/lib/numberFormat';
import { counted, decimalRateFrom, rate, revenueText, share } from '../../server/dayCounts/reportNumbers';

/** "1.25M" → 1,250,000: the short form read back, to compare with what it stands for. */
function readShort(text: string): number {
  const match = /^(-?[\d.]+)([KMBT]?)$/.exec(text);
  if (!match) throw new Error(`not a short form: "${text}"`);
  return Number(match[1]) * { '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[match[2] as '' | 'K' | 'M' | 'B' | 'T'];
}

const grouped = /^-?\d{1,3}(,\d{3})*$/;

describe('numbers written for people', () => {
  it('writes in en-US, the one locale every report uses', () => {
    expect(reportLocale).toBe('en-US');
  });

  describe('countText', () => {
    it.each([
      [0, '0'],
      [999, '999'],
      [1000, '1,000'],
      [27398, '27,398'],
      [6999970, '6,999,970'],
      [-1234, '-1,234'],
      [-0, '0'],
    ])('writes %p as "%s"', (count, text) => {
      expect(countText(count)).toBe(text);
    });

    it('groups every whole number in thousands and reads back as the same number', () => {
      fc.assert(
        fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (count) => {
          const text = countText(count);
          expect(text).toMatch(grouped);
          expect(Number(text.replaceAll(',', ''))).toBe(count === 0 ? 0 : count);
        }),
      );
    });
  });

  describe('amountText', () => {
    it.each([
      [1250000, 'USD', '1,250,000.00 USD'],
      [12.5, 'USD', '12.50 USD'],
      [0, 'EUR', '0.00 EUR'],
      [-480, 'USD', '-480.00 USD'],
      [-0.001, 'USD', '0.00 USD'],
      [1500, 'JPY', '1,500 JPY'],
      [1234.5, 'BHD', '1,234.500 BHD'],
    ])('writes %p %s as "%s"', (amount, currency, text) => {
      expect(amountText(amount, currency)).toBe(text);
    });

    it('keeps the amount-then-code shape, grouped, within half a cent of the amount', () => {
      fc.assert(
        fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (amount) => {
          const text = amountText(amount, 'USD');
          expect(text).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2} USD$/);
          expect(Math.abs(Number(text.replace(' USD', '').replaceAll(',', '')) - amount)).toBeLessThanOrEqual(0.005 + Math.abs(amount) * 1e-15);
        }),
      );
    });

    it('writes revenue in several currencies side by side, each with its code', () => {
      expect(revenueText({ revenueByCurrency: { USD: 1250000, EUR: 4 } })).toBe('1,250,000.00 USD + 4.00 EUR');
      expect(revenueText({ revenueByCurrency: { USD: 2500 } }, { per: 1000 })).toBe('2.50 USD');
      expect(decimalText(1234.5678, 1)).toBe('1,234.6');
    });
  });

  describe('short forms', () => {
    it('writes a count short from a million on, and leaves the rest to its exact form', () => {
      expect(shortCountText(999_999)).toBeNull();
      expect(shortCountText(1_000_000)).toBe('1M');
      expect(shortCountText(1_250_000)).toBe('1.25M');
      expect(shortCountText(6_999_970)).toBe('7M');
      expect(shortCountText(45_312_000)).toBe('45.3M');
      expect(shortCountText(2_340_000_000)).toBe('2.34B');
    });

    it('writes an amount short from ten thousand on, with its code', () => {
      expect(shortAmountText(9_999.99, 'USD')).toBeNull();
      expect(shortAmountText(45_312, 'USD')).toBe('45.3K USD');
      expect(shortAmountText(1_250_000, 'EUR')).toBe('1.25M EUR');
      expect(shortAmountText(-45_312, 'USD')).toBe('-45.3K USD');
    });

    it('stands for its figure to three significant digits, in five characters at most below a trillion', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1_000_000, max: 999_000_000_000 }), (count) => {
          const short = shortCountText(count)!;
          expect(short.length).toBeLessThanOrEqual(5);
          expect(Math.abs(readShort(short) - count) / count).toBeLessThanOrEqual(0.005);
        }),
      );
    });
  });

  describe('rate: the precision its sample supports', () => {
    it.each([
      [0, 50, '0%'],
      [3, 41, '7%'],
      [1, 99, '1%'],
      [98, 99, '99%'],
      [99, 99, '100%'],
      [0, 100, '0%'],
      [23, 1000, '2.3%'],
      [27, 1000, '2.7%'],
      [270, 1000, '27%'],
      [1, 5000, '<0.1%'],
      [999, 1000, '>99%'],
      [150, 100, '150%'],
      [5, 0, '–'],
    ])('writes %p of %p as "%s"', (part, whole, text) => {
      expect(rate(part, whole)).toBe(text);
    });

    it(`writes whole percent under ${decimalRateFrom} in the whole, and one decimal only below 10% from there`, () => {
      expect(decimalRateFrom).toBe(100);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }).chain((whole) => fc.tuple(fc.integer({ min: 0, max: whole }), fc.constant(whole))),
          ([part, whole]) => {
            const text = rate(part, whole);
            const percent = (part / whole) * 100;
            expect(text).toMatch(/^[<>]?\d+(\.\d)?%$/);
            expect(text.includes('.')).toBe(part > 0 && whole >= decimalRateFrom && percent < 10);
            // Something is never nothing, and a part is never the whole.
            expect(text === '0%').toBe(part === 0);
            expect(text === '100%').toBe(part === whole);
            // Within half its last digit of the true rate, unless it says it is past a bound.
            if (!/^[<>]/.test(text)) expect(Math.abs(Number(text.slice(0, -1)) - percent)).toBeLessThanOrEqual(text.includes('.') ? 0.05 + 1e-9 : 0.5 + 1e-9);
          },
        ),
      );
    });
  });

  it('writes a share in whole percent, grouped, with no sign on nothing', () => {
    expect(share(1, 4)).toBe('25%');
    expect(share(12.5, 1)).toBe('1,250%');
    expect(share(-0.5, 1)).toBe('-50%');
    expect(share(-0.001, 1)).toBe('0%');
    expect(share(3, 0)).toBe('–');
    expect(percentText(0.0234, 1)).toBe('2.3%');
  });

  it('counts things in words with the count grouped', () => {
    expect(counted(1, 'click')).toBe('1 click');
    expect(counted(2500, 'conversion')).toBe('2,500 conversions');
    expect(counted(1_000_000, 'day')).toBe('1,000,000 days');
  });

  it('makes each format once, however many figures it writes', () => {
    // Each kind once first, as the page's first figures make them.
    countText(1);
    amountText(1, 'USD');
    rate(1, 5000);
    rate(1000, 5000);
    shortCountText(2_000_000);
    const made = jest.spyOn(Intl, 'NumberFormat');
    try {
      for (let figure = 0; figure < 5000; figure += 1) {
        countText(figure * 997);
        amountText(figure * 3.7, 'USD');
        rate(figure, 5000);
        share(figure, 5000);
        shortCountText(figure * 1_000_003);
      }
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});
