import fc from 'fast-check';
import { chanceOfNone, expectedThreshold, formatChance, noneIsUnlikely } from '../../server/alerts/rules/chanceOfNone';
import { noOutage, outageStep, outageSpanMs, type OutageWatch } from '../../server/alerts/rules/databaseRule';
import { linkVerdict } from '../../server/alerts/rules/linkRule';
import { clickCap, conversionRate, maxClickCap, salesVerdict } from '../../server/alerts/rules/salesRule';
import { dayCountCap, silenceLine, silenceVerdict } from '../../server/alerts/rules/silenceRule';
import type { LinkCheckResult } from '../../server/linkHealth/checkLink';

/** Any number a database or a bug could hand over: huge, negative, fractional, NaN, infinite. */
const anyNumber = fc.oneof(fc.nat({ max: 1_000_000 }), fc.double(), fc.constantFrom(0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER));
const anyMoment = fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(Number.NaN, -1));

describe('the alert rules', () => {
  it('never throw, whatever counts they are given, and alert only past ln 100 sales expected', () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: undefined }), (windowSales, windowClicks, clicksSince, lastSaleAt) => {
        const verdict = salesVerdict({ placement: 'hero', lastSaleAt, windowSales, windowClicks, clicksSince });
        const rate = conversionRate({ windowSales, windowClicks });
        if (verdict?.wrong) expect(clicksSince * rate!).toBeGreaterThan(expectedThreshold);
        if (rate !== undefined) {
          expect(rate).toBeGreaterThan(0);
          expect(rate).toBeLessThanOrEqual(1);
          expect(Number.isSafeInteger(clickCap(rate)) && clickCap(rate) <= maxClickCap).toBe(true);
        }
      }),
    );
  });

  it('silence: never throw, and alert only with none in the span and a usual hour past the line', () => {
    fc.assert(
      fc.property(anyNumber, fc.array(anyNumber, { maxLength: 20 }), anyMoment, (recent, earlier, now) => {
        const verdict = silenceVerdict('views', { recent, earlier }, now);
        if (verdict?.wrong) {
          expect(recent > 0).toBe(false);
          expect(earlier.length).toBeGreaterThan(0);
          const counts = earlier.map((value) => (Number.isFinite(value) && value > 0 ? Math.min(value, dayCountCap) : 0));
          expect(counts.reduce((sum, value) => sum + value, 0) / counts.length).toBeGreaterThan(silenceLine);
        }
      }),
    );
  });

  it('database: never throw, alert only past the span, and record only an outage followed', () => {
    const watches: fc.Arbitrary<OutageWatch> = fc.record({ downSince: fc.option(anyMoment, { nil: undefined }), alerted: fc.boolean() });
    fc.assert(
      fc.property(watches, fc.option(anyMoment, { nil: undefined }), anyMoment, (watch, downSince, now) => {
        const { watch: next, step } = outageStep(watch, downSince, now, { instance: 'web-1 pid 1', database: 'CLICKS_DB x' });
        if (step.action === 'alert') expect(now - next.downSince!).toBeGreaterThan(outageSpanMs);
        if (step.action === 'record') expect(watch.downSince).toBeDefined();
        if (downSince === undefined && step.action !== 'record') expect(next).toEqual(noOutage);
      }),
    );
  });

  it('link: never throw on any history of checks', () => {
    const check = fc.record({
      checkedAt: fc.date({ noInvalidDate: true }),
      url: fc.constant('https://partner.example.net/'),
      finalUrl: fc.constant('https://partner.example.net/'),
      status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
      redirects: fc.nat(),
      ms: fc.nat(),
      verdict: fc.constantFrom<LinkCheckResult['verdict']>('ok', 'broken', 'blocked', 'error'),
    });
    fc.assert(fc.property(fc.array(check, { maxLength: 60 }), (history) => void linkVerdict(history as LinkCheckResult[])));
  });

  it('put the 1% line where the issue does: 229 clicks at 2% stay quiet, 231 alert', () => {
    expect(noneIsUnlikely(229 * 0.02)).toBe(false);
    expect(noneIsUnlikely(231 * 0.02)).toBe(true);
    expect(chanceOfNone(231 * 0.02)).toBeLessThan(0.01);
    expect(chanceOfNone(229 * 0.02)).toBeGreaterThan(0.01);
  });
});

describe('formatChance', () => {
  it('writes a chance as a person reads it, and a vanishing one as a bound rather than its digits', () => {
    expect(formatChance(0.0099)).toBe('0.99%');
    expect(formatChance(0.000012)).toBe('0.0012%');
    expect(formatChance(Math.exp(-65))).toBe('under 0.0001%');
    expect(formatChance(0)).toBe('under 0.0001%');
  });
});
