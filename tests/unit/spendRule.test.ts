import fc from 'fast-check';
import { decideSpend, discoveryCut, falseDiscoveryRate, judgeSpend, leastSpend, type SpendFacts, type SpendJudgement } from '../../server/alerts/rules/spendDecision';
import { arrivedOf, campaignSubject, spendRule, spendWindow, spendWindowDays, type SpendLook } from '../../server/alerts/rules/spendRule';
import { untrackedRule } from '../../server/alerts/rules/untrackedRule';
import type { SaleHistory } from '../../server/costs/saleHistory';

/** google over the 56 closed days to 2026-11-20: 6,400.00 USD for 5,600 visitors and 80 sales worth 3,200.00. */
const losing: SpendFacts = {
  subject: 'google',
  currency: 'USD',
  from: '2026-09-26',
  to: '2026-11-20',
  cost: 6400,
  revenue: 3200,
  profit: -3200,
  visitors: 5600,
  conversions: 80,
  chanceProfitable: 0,
  verdict: 'losing',
  visitorsToKnow: null,
  arrived: 0.95,
};
const facts = (fields: Partial<SpendFacts>): SpendFacts => ({ ...losing, ...fields });
/** Payouts of 40 that vary as much as an exponential's, nothing refunded. */
const history: SaleHistory = { payoutMicros: 40_000_000, payoutSpread: 1, delaysDays: [], refundShare: 0 };
const quiet = (index: number): SpendJudgement => ({ subject: `quiet ${index}`, kind: 'judged', pValue: 1, completedReturn: 0, clear: false });
const spendOf = (judgements: SpendJudgement[], subject: string) => decideSpend(judgements).find((row) => row.rule === 'spend' && row.subject === subject);

describe('the spend rule', () => {
  it('judges the 56 closed UTC days ending yesterday', () => {
    expect(spendWindowDays).toBe(56);
    expect(spendWindow(Date.parse('2026-11-21T20:00:00Z'))).toEqual({ from: '2026-09-26', to: '2026-11-20' });
    expect(spendWindow(Date.parse('2026-11-21T00:00:00Z'))).toEqual({ from: '2026-09-26', to: '2026-11-20' });
    expect(spendWindow(Date.parse('2026-11-20T23:59:59.999Z'))).toEqual({ from: '2026-09-25', to: '2026-11-19' });
  });

  it('calls a clear loss that /admin also calls losing, alone', () => {
    const judgement = judgeSpend(losing, history);
    expect(judgement).toMatchObject({ subject: 'google', kind: 'judged', clear: false });
    expect(judgement.kind === 'judged' && judgement.pValue).toBeCloseTo(0.0016464, 7); // worked by hand: log Λ = 6.409
    expect(judgement.kind === 'judged' && judgement.completedReturn).toBeCloseTo(3200 / (6400 * 0.95) - 1, 10);
    expect(decideSpend([judgement])).toEqual([
      { rule: 'untracked', subject: 'google', wrong: false },
      { rule: 'spend', subject: 'google', wrong: true },
    ]);
  });

  it('holds the same loss to the fleet: among 199 campaigns with nothing to say it waits (p 0.0016 > 20% ÷ 200)', () => {
    expect(falseDiscoveryRate).toBe(0.2);
    const fleet = [judgeSpend(losing, history), ...Array.from({ length: 199 }, (_, index) => quiet(index))];
    expect(spendOf(fleet, 'google')).toBeUndefined();
    // A much clearer loss passes the fleet's line.
    const clearer = judgeSpend(facts({ revenue: 2200, profit: -4200 }), history);
    expect(spendOf([clearer, ...fleet.slice(1)], 'google')).toEqual({ rule: 'spend', subject: 'google', wrong: true });
  });

  it('never says losing money while /admin reads anything else for the same days', () => {
    for (const verdict of ['too-early', 'paying', null] as const) {
      const judgement = judgeSpend(facts({ verdict, visitorsToKnow: 4200 }), history);
      expect(judgement.kind === 'judged' && judgement.pValue).toBe(1);
      expect(spendOf([judgement], 'google')).toBeUndefined();
    }
  });

  it('counts the sales still to come: half the revenue with half the sales in is break-even, and closes an open alert', () => {
    const young = judgeSpend(facts({ revenue: 3200, arrived: 0.5, verdict: 'too-early' }), history);
    expect(young).toEqual({ subject: 'google', kind: 'judged', pValue: 1, completedReturn: 0, clear: true });
    expect(spendOf([young], 'google')).toEqual({ rule: 'spend', subject: 'google', wrong: false });
  });

  it('keeps an open alert open while still at a loss but no longer called: not closed at the first sale', () => {
    const between = judgeSpend(facts({ revenue: 5800, profit: -600, verdict: 'too-early' }), history);
    expect(between).toMatchObject({ kind: 'judged', pValue: 1, clear: false });
    expect(spendOf([between], 'google')).toBeUndefined();
  });

  it('says nothing under the least spend (and closes), nor without a payout to reckon the spread with', () => {
    expect(leastSpend).toBe(50);
    expect(judgeSpend(facts({ cost: 49.99 }), history)).toEqual({ subject: 'google', kind: 'small' });
    expect(judgeSpend(facts({ cost: null }), history)).toEqual({ subject: 'google', kind: 'small' });
    expect(spendOf([{ subject: 'google', kind: 'small' }], 'google')).toEqual({ rule: 'spend', subject: 'google', wrong: false });
    expect(judgeSpend(losing, { ...history, payoutMicros: undefined })).toEqual({ subject: 'google', kind: 'unjudged' });
  });

  it('gives spend with no visitor, or sales only in another currency, the untracked alert and never a loss', () => {
    const unmatched = judgeSpend(facts({ visitors: 0, conversions: 0, revenue: 0, profit: -6400 }), history);
    expect(unmatched).toEqual({ subject: 'google', kind: 'untracked', reason: 'no-visitors' });
    expect(decideSpend([unmatched])).toEqual([{ rule: 'untracked', subject: 'google', wrong: true }]);
    const elsewhere = judgeSpend(facts({ conversions: 30, revenue: 0, profit: -6400 }), history);
    expect(elsewhere).toEqual({ subject: 'google', kind: 'untracked', reason: 'other-currency' });
    const look = { window: { from: '2026-09-26', to: '2026-11-20' }, currency: 'USD' } as SpendLook;
    expect(untrackedRule.alertText(facts({ visitors: 0 }), unmatched)).toBe(
      'google cost 6,400.00 USD in the 56 days 2026-09-26 to 2026-11-20 (UTC) but no visitor is recorded for it: spend not matched to any visits. ' +
        "Check the campaign's utm tags (utm_source, utm_campaign) against its name in the cost report.",
    );
    expect(untrackedRule.alertText(facts({ conversions: 30, revenue: 0 }), elsewhere)).toContain('30 conversions, none of them paid in USD');
    expect(untrackedRule.recoveryText(losing, look, 'google')).toBe("google's spend is matched to visits again: 5,600 visitors in the 56 days 2026-09-26 to 2026-11-20.");
    expect(untrackedRule.title('google')).toBe('spend not matched to visits on google');
  });

  it('writes the alert and recovery in words an operator acts on', () => {
    const judgement = judgeSpend(losing, history);
    expect(spendRule.title(campaignSubject('google', 'spring-auctions'))).toBe('losing money on google / spring-auctions');
    expect(spendRule.alertText(losing, judgement)).toBe(
      'google cost 6,400.00 USD in the 56 days 2026-09-26 to 2026-11-20 (UTC) and brought 5,600 visitors and 80 conversions worth 3,200.00 USD ' +
        '(95% of its sales are in by the site\'s delays; completed, a return of -47%). /admin\'s verdict for these days (/admin?from=2026-09-26&to=2026-11-20) reads "losing money", ' +
        'and it stands among every source and campaign watched (held to a false-discovery rate of 20%). Lower its bids or pause it on the ad platform.',
    );
    const look = { window: { from: '2026-09-26', to: '2026-11-20' }, currency: 'USD' } as SpendLook;
    expect(spendRule.recoveryText(undefined, look, 'google')).toBe('google has no cost in USD in the 56 days 2026-09-26 to 2026-11-20 any more: nothing left to lose.');
    expect(spendRule.recoveryText(facts({ cost: 40 }), look, 'google')).toBe('google cost 40.00 USD in the 56 days 2026-09-26 to 2026-11-20, under the 50.00 USD the rule watches.');
  });

  it('weighs the sales arrived by each day’s visitors: a campaign launched yesterday is judged on a young day', () => {
    // Aged at the start of today: yesterday's visitors half a day ago.
    const slow = { delaysDays: [] };
    expect(arrivedOf([], slow, '2026-11-21')).toBe(0);
    const young = arrivedOf([{ day: '2026-11-20', visitors: 200 }], slow, '2026-11-21');
    expect(young).toBeCloseTo(1 - Math.exp(-0.5 / 7), 10);
    const mixed = arrivedOf([{ day: '2026-11-20', visitors: 200 }, { day: '2026-10-21', visitors: 600 }], slow, '2026-11-21');
    expect(mixed).toBeCloseTo((200 * young + 600 * (1 - Math.exp(-30.5 / 7))) / 800, 10);
  });

  it('cuts as Benjamini and Hochberg do', () => {
    expect(discoveryCut([0.01, 0.04, 0.5], 0.1)).toBe(0.04);
    expect(discoveryCut([0.05, 0.5], 0.1)).toBe(0.05);
    expect(discoveryCut([0.06, 0.5], 0.1)).toBe(-1);
    expect(discoveryCut([], 0.1)).toBe(-1);
    expect(discoveryCut([Number.NaN, 0.01], 0.1)).toBe(0.01);
  });

  it('never throws, and calls a loss only where /admin reads losing money and the least spend is there', () => {
    const anyNumber = fc.oneof(fc.double(), fc.constantFrom(0, -1, 49.99, 50, 1e12, Number.NaN, Number.POSITIVE_INFINITY));
    const verdict = fc.constantFrom('losing' as const, 'paying' as const, 'too-early' as const, null);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.option(anyNumber, { nil: null }), anyNumber, anyNumber, anyNumber, anyNumber, verdict), { maxLength: 8 }), (rows) => {
        const all = rows.map(([cost, revenue, visitors, conversions, arrived, page], index) => facts({ subject: String(index), cost, revenue, visitors, conversions, arrived, verdict: page }));
        for (const decision of decideSpend(all.map((row) => judgeSpend(row, history)))) {
          if (decision.rule !== 'spend' || !decision.wrong) continue;
          const row = all[Number(decision.subject)]!;
          expect(row.verdict).toBe('losing');
          expect(row.cost! >= leastSpend && row.visitors > 0).toBe(true);
        }
      }),
    );
  });
});
