import { silenceLine } from '../../server/alerts/rules/silenceRule';
import { runSilenceSite } from '../support/silenceSite';

/**
 * The views and clicks silence rules held to issue 41's budget: a small site whose views come at random
 * (Poisson) at a rate that follows the hours of the day, run through the real silenceVerdict at a look every
 * 5 minutes (tests/support/silenceSite.ts). Seeded: the counts below are exact and cannot flake;
 * docs/alerts.md quotes them.
 */

/** Views an hour at each UTC hour: quiet nights, busy evenings (24 at the peak with scale 2). */
const smallSite = [3, 2, 2, 1, 1, 1, 2, 3, 5, 6, 7, 8, 8, 8, 9, 10, 11, 12, 12, 11, 9, 7, 5, 4];
const minute = 60_000;

describe('the silence rules, simulated at their real cadence', () => {
  it.each([1, 2, 4])('draw no false alert in 16 weeks on a steady site (peak 12 × %i an hour); the budget is 2', (scale) => {
    expect(silenceLine).toBe(11.75);
    const run = runSilenceSite({ seed: 41, days: 14 + 16 * 7, perHour: smallSite.map((count) => count * scale) });
    expect(run.looks).toBe(16 * 7 * 288);
    // The two rules share one alert per 8 weeks: one rule's figure must stay within 2 in 16 weeks. Measured: none
    // (the line of ln 100 ≈ 4.6 before issue 41 drew 8, 9 and 7 with these seeds and scales).
    expect(run.openings.length).toBeLessThanOrEqual(2);
    expect(run.openings).toEqual([]);
  });

  it('alert a site gone down within 65 minutes in a busy hour, and at the first usually busy hour after a quiet one', () => {
    const perHour = smallSite.map((count) => count * 2);
    const delays = [3, 9, 14, 18].map((hour) => {
      const stopAt = ((40 * 24 + hour) * 60 + 17) * minute;
      const run = runSilenceSite({ seed: 43, days: 42, perHour, stopAt });
      expect(run.openings).toHaveLength(1);
      return Math.round((run.openings[0]! - stopAt) / minute);
    });
    // Stopped at 03:17, 09:17, 14:17 and 18:17 UTC: at 03:17 the hours are quiet (2 to 6 an hour) until the hour
    // up to about 10:00 usually holds more than 11.75.
    expect(delays).toEqual([408, 63, 63, 63]);
  });
});
