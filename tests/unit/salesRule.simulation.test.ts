import { expectedToAlert, salesBudgetDays } from '../../server/alerts/rules/salesRule';
import { dayMs } from '../../server/lib/utcDay';
import { runSalesSite } from '../support/salesSite';

/**
 * The sales-silent rule held to issue 41's budget: a site with six placements from 500 down to 25 clicks a
 * day, 2% of which become sales arriving a mean of 3 days after the click, run through the real
 * salesVerdict at a look every 5 minutes (tests/support/salesSite.ts). Seeded: every run draws the same
 * clicks and sales, so the counts below are exact; docs/alerts.md quotes them.
 */

const clicksPerDay = [500, 200, 100, 50, 50, 25];
const site = { clicksPerDay, rate: 0.02, delayMeanDays: 3, warmUpDays: 30 };

/** The days the docs state a stop takes to alert: the line over the placement's sales a day (its window holds 30 days of them). */
const statedDays = (clicks: number) => expectedToAlert(clicks * 0.02 * 30) / (clicks * 0.02);

describe('the sales rule, simulated at its real cadence', () => {
  it('stays within one false alert per 8 weeks on a steady site (24 weeks simulated)', () => {
    const weeks = 24;
    const run = runSalesSite({ seed: 41, days: 30 + weeks * 7, ...site });
    expect(run.looks).toBe(weeks * 7 * 288);
    expect(salesBudgetDays).toBe(56);
    expect(run.openings.length).toBeLessThanOrEqual(weeks / 8);
    // Measured with this seed: none. The rule before issue 41 (a line of ln 100 for every placement) opened 22 in 16 weeks.
    expect(run.openings).toEqual([]);
  });

  it('alerts a real stop of sales on every placement within the time docs/alerts.md states', () => {
    const stopDay = 100;
    const run = runSalesSite({ seed: 43, days: 130, ...site, stopAt: stopDay * dayMs });
    expect(run.openings.filter((opening) => opening.at < stopDay * dayMs)).toEqual([]);
    clicksPerDay.forEach((clicks, placement) => {
      const opening = run.openings.find((row) => row.placement === placement);
      expect(opening).toBeDefined();
      const days = (opening!.at - stopDay * dayMs) / dayMs;
      // The stated time is the expected wait; the clicks that actually come and the month's rate read move it,
      // by a fifth at most as docs/alerts.md says (measured: at most 5% over, with this seed).
      expect(days).toBeLessThanOrEqual(1.2 * statedDays(clicks));
    });
    expect(clicksPerDay.map((clicks) => Math.round(statedDays(clicks) * 10) / 10)).toEqual([1, 2.1, 3.9, 7.2, 7.2, 13]);
  });
});
