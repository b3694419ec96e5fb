import fc from 'fast-check';
import { campaignSubject, leastSpend, spendRule, spendVerdict, spendWindow, unlikelyProfit, type SpendFacts } from '../../server/alerts/rules/spendRule';

/** google over the 14 days to 2026-11-21: 600.00 USD for 200 visitors and 3 sales of 40.00. */
const losing: SpendFacts = {
  subject: 'google',
  currency: 'USD',
  from: '2026-11-08',
  to: '2026-11-21',
  cost: 600,
  revenue: 120,
  profit: -480,
  visitors: 200,
  conversions: 3,
  chanceProfitable: 0.0001,
  verdict: 'losing',
  visitorsToKnow: null,
};

const facts = (fields: Partial<SpendFacts>): SpendFacts => ({ ...losing, ...fields });

describe('the spend rule', () => {
  it('judges the 14 UTC days ending on now’s day, that day included', () => {
    expect(spendWindow(Date.parse('2026-11-21T20:00:00Z'))).toEqual({ from: '2026-11-08', to: '2026-11-21' });
    expect(spendWindow(Date.parse('2026-11-21T00:00:00Z'))).toEqual({ from: '2026-11-08', to: '2026-11-21' });
    expect(spendWindow(Date.parse('2026-11-20T23:59:59.999Z'))).toEqual({ from: '2026-11-07', to: '2026-11-20' });
  });

  it('alerts for a spend of at least 50 with a chance of profit under 5%, in words an operator acts on', () => {
    expect(leastSpend).toBe(50);
    expect(unlikelyProfit).toBe(0.05);
    const verdict = spendVerdict(losing);
    expect(verdict).toEqual({ rule: 'spend', subject: 'google', wrong: true, summary: expect.any(String) });
    expect(verdict?.wrong && verdict.summary).toBe(
      'google cost 600.00 USD in the 14 days 2026-11-08 to 2026-11-21 (UTC, today included) and brought 200 visitors and 3 conversions worth 120.00 USD: a loss of 480.00 USD. ' +
        'The chance that it earns more than it costs is 0.010%, under 5% (the verdict on /admin, which waits for firmer evidence, reads "losing money"). ' +
        'Lower its bids or pause it on the ad platform; if sales seem missing, check that its ads carry their utm tags.',
    );
    expect(spendRule.title('google / spring-auctions')).toBe('losing money on google / spring-auctions');
    expect(campaignSubject('google', 'spring-auctions')).toBe('google / spring-auctions');
  });

  it('draws the line at a chance of 5%: just under alerts, 5% itself does not', () => {
    expect(spendVerdict(facts({ chanceProfitable: 0.0499 }))?.wrong).toBe(true);
    expect(spendVerdict(facts({ chanceProfitable: 0.05 }))).toBeUndefined();
    expect(spendVerdict(facts({ chanceProfitable: 0.3 }))).toBeUndefined();
    expect(spendVerdict(facts({ chanceProfitable: 0 }))?.wrong).toBe(true);
  });

  it('says nothing in between: a chance of 5% or more with a loss leaves an open incident open and opens none', () => {
    const between = spendVerdict(facts({ chanceProfitable: 0.2, revenue: 550, profit: -50, verdict: 'too-early', visitorsToKnow: 4200 }));
    expect(between).toBeUndefined();
  });

  it('draws the least spend at 50: 49.99 is fine, 50 is watched', () => {
    expect(spendVerdict(facts({ cost: 50, revenue: 0, profit: -50 }))?.wrong).toBe(true);
    const under = spendVerdict(facts({ cost: 49.99, revenue: 0, profit: -49.99 }));
    expect(under).toEqual({
      rule: 'spend',
      subject: 'google',
      wrong: false,
      recovery: 'google cost 49.99 USD in the 14 days 2026-11-08 to 2026-11-21, under the 50.00 USD the rule watches.',
    });
  });

  it('recovers once it pays for itself over the window', () => {
    expect(spendVerdict(facts({ revenue: 600, profit: 0, chanceProfitable: 0.5 }))).toEqual({
      rule: 'spend',
      subject: 'google',
      wrong: false,
      recovery: 'google pays for itself again: 600.00 USD earned for 600.00 USD spent in the 14 days 2026-11-08 to 2026-11-21.',
    });
    expect(spendVerdict(facts({ revenue: 1000, profit: 400, chanceProfitable: 0.97 }))?.wrong).toBe(false);
  });

  it('gives no verdict without a chance to reckon (no payout known), above the least spend', () => {
    expect(spendVerdict(facts({ revenue: 0, profit: -600, conversions: 0, chanceProfitable: null, verdict: 'too-early' }))).toBeUndefined();
    expect(spendVerdict(facts({ chanceProfitable: Number.NaN }))).toBeUndefined();
  });

  it('never alerts on a cost in another currency only (null in the main one), and closes an incident whose spend left it', () => {
    const other = spendVerdict(facts({ cost: null, revenue: 0, profit: null, chanceProfitable: null, verdict: null }));
    expect(other).toEqual({ rule: 'spend', subject: 'google', wrong: false, recovery: 'google has no cost in USD in the 14 days 2026-11-08 to 2026-11-21 any more: nothing left to lose.' });
  });

  it('names a campaign by its source and name, and writes a too-early verdict in its words', () => {
    const verdict = spendVerdict(facts({ subject: 'google / spring-auctions', chanceProfitable: 0.021, verdict: 'too-early', visitorsToKnow: 6500 }));
    expect(verdict?.wrong && verdict.summary).toMatch(/^google \/ spring-auctions cost 600\.00 USD/);
    expect(verdict?.wrong && verdict.summary).toContain('is 2.10%, under 5% (the verdict on /admin, which waits for firmer evidence, reads "too early: about 6,500 more visitors to know")');
  });

  it('never throws, and alerts only at the least spend, a loss and a chance under 5%', () => {
    const anyNumber = fc.oneof(fc.double(), fc.constantFrom(0, -1, 49.99, 50, Number.NaN, Number.POSITIVE_INFINITY));
    fc.assert(
      fc.property(fc.option(anyNumber, { nil: null }), anyNumber, fc.option(anyNumber, { nil: null }), fc.option(anyNumber, { nil: null }), (cost, revenue, profit, chanceProfitable) => {
        const verdict = spendVerdict(facts({ cost, revenue, profit, chanceProfitable }));
        if (verdict?.wrong) {
          expect(cost! >= leastSpend).toBe(true);
          expect(chanceProfitable! < unlikelyProfit).toBe(true);
          expect(profit === null || !(profit >= 0)).toBe(true);
        }
      }),
    );
  });
});
