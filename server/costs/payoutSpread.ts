/**
 * The site's payouts as /admin's verdict reckons with them (issue 41 item 3; server/costs/costVerdict.ts):
 * their mean and their spread (squared coefficient of variation), from the count, sum and sum of squares
 * of the sales paid above 0 in one currency. Pure: the sums in, the model out.
 *
 * While the site has few paid sales its spread is not known, and a few alike payouts would read as none:
 * until `spreadFloorSales` of them, the spread is at least that of an exponential (1), so that a thin
 * history never makes the verdict bolder. Past them, the spread the payouts show, fixed commissions
 * included (0).
 *
 * The mean is not known either: a site whose first sale paid 8 of payouts averaging 40 would judge every
 * campaign's revenue against a spread five times too narrow. The verdict reckons with the mean raised by
 * `meanMargin` standard errors, mean · (1 + meanMargin · √(spread ÷ sales)): three times the one payout of a
 * first sale, 1.28 times the mean at 50 sales of spread 1, within 3% of it at 5,000. A larger payout only
 * widens the verdict's spread (costVerdict.ts), so the margin errs on the side of "too early".
 */

/** Until this many paid sales, the spread is taken as at least `spreadFloor`. */
export const spreadFloorSales = 50;
/** The least spread while the sales are few: an exponential's (coefficient of variation 1). */
export const spreadFloor = 1;
/** How many standard errors the mean payout is raised by. */
export const meanMargin = 2;

/** Sales paid above 0 in one currency: how many, their payouts' sum in micros, and the sum of their squares in units² (40.00 is 40). */
export interface PaidSums {
  sales: number;
  micros: number;
  /** Undefined when the payouts are known only by their sum (folded past retention): the spread is then the floor, however many. */
  squares?: number | undefined;
}

export interface PayoutModel {
  /** The mean payout in micros; undefined without a paid sale. */
  meanMicros: number | undefined;
  /** The payout the verdict reckons with: the mean raised by meanMargin standard errors; undefined without a paid sale. */
  reckonedMicros: number | undefined;
  /** The squared coefficient of variation the verdict assumes, floor included. */
  spread: number;
}

/** The model from the sums; sums that make no sense (negative, not finite) count as no sale. */
export function payoutModel({ sales, micros, squares }: PaidSums): PayoutModel {
  if (![sales, micros, squares ?? 0].every(Number.isFinite) || !(sales >= 1) || !(micros > 0)) return { meanMicros: undefined, reckonedMicros: undefined, spread: spreadFloor };
  const meanMicros = micros / sales;
  const meanUnits = meanMicros / 1_000_000;
  // The sample variance; rounding of the sums may leave it a hair under 0 for payouts all alike.
  const variance = sales > 1 && squares !== undefined ? Math.max(0, (squares - sales * meanUnits * meanUnits) / (sales - 1)) : 0;
  const observed = variance / (meanUnits * meanUnits);
  const spread = sales < spreadFloorSales || squares === undefined ? Math.max(spreadFloor, observed) : observed;
  return { meanMicros, reckonedMicros: meanMicros * (1 + meanMargin * Math.sqrt(spread / sales)), spread };
}
