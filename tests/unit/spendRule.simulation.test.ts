import { runFleet, type CampaignKind, type FleetRun } from '../support/spendFleet';

/**
 * The losing-money and untracked alerts held to issue 41's budget: fleets of 200 generated campaigns run
 * through the real decision (tests/support/spendFleet.ts: spendDecision.ts's judgeSpend and decideSpend, the
 * window and arrived share of spendRule.ts, /admin's costVerdict) at a look every 5 minutes, under the
 * issue's hard conditions: sales arriving a mean of 3 days after their click, payouts with a coefficient
 * of variation of 1 (exponential, mean 40), a quarter of the campaigns on a fixed daily cost, launches
 * spread over the first 8 weeks. Seeded: every run draws the same campaigns and looks, so the figures
 * below are exact, not estimates that could flake; docs/costs-verdict.md quotes them.
 */

const seed = 41;
const conditions = { payout: 40, payoutCv: 1, delayMeanDays: 3 };

/** 200 campaigns of one return, launched over the first 56 days, and 5 whose spend matches no visit. */
function fleetOf(trueReturn: number): CampaignKind[] {
  return [
    { count: 100, trueReturn, visitorsPerDay: 200, launch: [0, 56] },
    { count: 50, trueReturn, visitorsPerDay: 25, launch: [0, 56] },
    { count: 50, trueReturn, visitorsPerDay: 200, fixedDaily: true, launch: [0, 56] },
    { count: 5, trueReturn, visitorsPerDay: 200, untracked: true, launch: [0, 56] },
  ];
}

const losingMoney = (run: FleetRun, kinds: readonly number[]) => run.openings.filter((opening) => opening.rule === 'spend' && kinds.includes(opening.kind));

/** Every losing-money alert opened while /admin's verdict for the same campaign and days read "losing money". */
function expectPageAgrees(run: FleetRun): void {
  const spend = run.openings.filter((opening) => opening.rule === 'spend');
  expect(spend.filter((opening) => opening.pageVerdict !== 'losing')).toEqual([]);
}

/** The untracked campaigns (kind 3) each raised the untracked alert, and none a losing-money alert; no tracked one did. */
function expectUntrackedApart(run: FleetRun): void {
  const untracked = run.openings.filter((opening) => opening.rule === 'untracked');
  expect(new Set(untracked.map((opening) => opening.campaign)).size).toBe(5);
  expect(untracked.every((opening) => opening.kind === 3)).toBe(true);
  expect(losingMoney(run, [3])).toEqual([]);
}

describe('the spend rule, simulated at its real cadence over fleets of 200 campaigns', () => {
  it('break-even campaigns: at most one false "losing money" per 4 weeks (16 weeks simulated)', () => {
    const run = runFleet({ seed, days: 16 * 7, kinds: fleetOf(0), ...conditions });
    expect(run.looks).toBe(16 * 7 * 288);
    const falseAlarms = losingMoney(run, [0, 1, 2]).length;
    // Budget: 16 weeks ÷ 4 = 4 alerts at most.
    expect(falseAlarms).toBeLessThanOrEqual(4);
    expect(falseAlarms).toBe(measured.breakEvenFalseAlarms);
    expectPageAgrees(run);
    expectUntrackedApart(run);
  });

  it('campaigns earning 10% over cost: at most one false "losing money" per 12 weeks (24 weeks simulated)', () => {
    const run = runFleet({ seed: seed + 1, days: 24 * 7, kinds: fleetOf(0.1), ...conditions });
    const falseAlarms = losingMoney(run, [0, 1, 2]).length;
    expect(falseAlarms).toBeLessThanOrEqual(2);
    expect(falseAlarms).toBe(measured.earningFalseAlarms);
    expectPageAgrees(run);
    expectUntrackedApart(run);
  });

  it('campaigns losing 30% among 150 that break even: how soon they are alerted', () => {
    const run = runFleet({
      seed: seed + 2,
      days: 84,
      kinds: [
        { count: 150, trueReturn: 0, visitorsPerDay: 200, launch: 0 },
        { count: 25, trueReturn: -0.3, visitorsPerDay: 200, launch: 0 },
        { count: 25, trueReturn: -0.3, visitorsPerDay: 25, launch: 0 },
      ],
      ...conditions,
    });
    expectPageAgrees(run);
    expect(losingMoney(run, [0])).toEqual([]);
    // Flapping: an alert that closed and opened again about the same campaign.
    const alerts = losingMoney(run, [1, 2]);
    expect(alerts.length - new Set(alerts.map((opening) => opening.campaign)).size).toBe(measured.reopened);
    const firstAlert = new Map<number, number>();
    for (const opening of losingMoney(run, [1, 2])) if (!firstAlert.has(opening.campaign)) firstAlert.set(opening.campaign, opening.ageDays);
    const shareWithin = (kind: number, days: number) => {
      const ages = run.campaigns.flatMap((campaign, index) => (campaign.kind === kind ? [firstAlert.get(index) ?? Infinity] : []));
      return ages.filter((age) => age <= days).length / ages.length;
    };
    const shares = { within7at200: shareWithin(1, 7), within28at200: shareWithin(1, 28), within56at200: shareWithin(1, 56), within84at200: shareWithin(1, 84), within28at25: shareWithin(2, 28), within84at25: shareWithin(2, 84) };
    // The issue asks for 90% within 7 days at 200 a day and 80% within 28 days at 25 a day: no valid test can
    // at these rates (docs/costs-verdict.md works out why); these are the figures the rule reaches.
    expect(shares).toEqual(measured.power);
  });
});

/** The figures measured with these seeds (deterministic), as docs/costs-verdict.md states them. */
const measured = {
  breakEvenFalseAlarms: 0,
  earningFalseAlarms: 0,
  reopened: 0,
  power: { within7at200: 0, within28at200: 0.04, within56at200: 0.6, within84at200: 0.92, within28at25: 0, within84at25: 0 },
};
