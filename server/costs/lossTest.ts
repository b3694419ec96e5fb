/**
 * Whether a source or campaign loses money, decided on its revenue rather than its count of sales (issue
 * 41): the always-valid test the losing-money alert uses beside /admin's verdict (costVerdict.ts).
 *
 * Revenue so far R is compared with what a campaign that breaks even would have brought by now: its cost C
 * times `arrived`, the share of its days' sales that has come in (late sales, saleHistory.ts), less the
 * share later refunded. Under break-even each visitor's revenue has mean c·arrived and, with payouts of mean
 * p and squared coefficient of variation s, variance about c·arrived·p·(1 + s): a compound model, so a
 * first sale of 8 against a mean of 40 is noise of the right size rather than a new payout. The test is
 * the mixture sequential probability ratio test of costVerdict.ts on the totals (the ratio is the same on
 * totals as on means), with the mixture width lift·C·arrived: by Ville's inequality a campaign that breaks
 * even has Λ ≥ 1/α at some look with chance at most α. One-sided: only a loss is called.
 */

export interface LossFigures {
  /** What the visitors cost, in micros; the test needs a cost above 0. */
  costMicros: number;
  /** What their sales paid so far, in micros of the same currency (refunds already taken off). */
  revenueMicros: number;
  /** The share of their eventual sales that has arrived, above 0 and at most 1. */
  arrived: number;
  /** The share of sales still to be refunded or charged back, 0 to 1. */
  refundShare: number;
  /** The payout to reckon the spread with (the site's mean payout), in micros. */
  payoutMicros: number;
  /** The payouts' squared coefficient of variation. */
  payoutSpread: number;
}

export interface LossTest {
  /** The always-valid p-value of a loss, min(1, 1/Λ); 1 when revenue is at or above break-even's. */
  pValue: number;
  /** Revenue ÷ what break-even would have brought by now − 1: the return, completed for the sales still to come. */
  completedReturn: number;
}

/** The return worth telling, as in costVerdict: a loss of about 30%. */
export const lossLift = 0.3;

/** The test, or undefined for figures it cannot judge (no cost, no sale expected yet, no payout known). */
export function lossTest(figures: LossFigures, lift = lossLift): LossTest | undefined {
  const { costMicros, revenueMicros, arrived, refundShare, payoutMicros, payoutSpread } = figures;
  const numbers = [costMicros, revenueMicros, arrived, refundShare, payoutMicros, payoutSpread];
  if (!numbers.every(Number.isFinite) || !(costMicros > 0) || !(arrived > 0) || !(payoutMicros > 0) || !(lift > 0)) return undefined;
  const kept = 1 - Math.min(1, Math.max(0, refundShare));
  const expected = costMicros * Math.min(1, arrived);
  const revenue = Math.max(0, revenueMicros) * kept;
  if (!(expected > 0) || !(kept > 0)) return undefined;
  const completedReturn = revenue / expected - 1;
  const difference = revenue - expected;
  if (difference >= 0) return { pValue: 1, completedReturn };
  const variance = expected * payoutMicros * (1 + Math.max(0, payoutSpread));
  const tau2 = (lift * expected) ** 2;
  const logRatio = 0.5 * Math.log(variance / (variance + tau2)) + (tau2 * difference ** 2) / (2 * variance * (variance + tau2));
  return { pValue: Math.min(1, Math.exp(-logRatio)), completedReturn };
}
