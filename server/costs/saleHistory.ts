/**
 * What the site's own past sales say about the sales still to come (issue 41), for the losing-money alert:
 * how late sales arrive after their click, how much payouts vary, and what share is later refunded or
 * charged back. Pure: the figures in, the summary out; server/alerts/rules/spendHistory.ts reads them.
 *
 * Each figure is pulled towards a cautious default while the history is short, as a prior worth a fixed
 * number of sales: a site with ten sales is judged almost as if its sales came a week late and its
 * payouts varied as much as an exponential's, so that a thin history never makes the alert bolder.
 */

export interface SaleHistory {
  /** The mean payout of sales paid above 0 in the main currency, in micros; undefined with none. */
  payoutMicros: number | undefined;
  /** The payouts' squared coefficient of variation (variance ÷ mean²), prior included. */
  payoutSpread: number;
  /** Click-to-sale delays in days, sorted ascending. */
  delaysDays: readonly number[];
  /** The share of sales later refunded or charged back, 0 to 1, prior included. */
  refundShare: number;
}

/** Until the site has this many delays of its own, the default delay weighs as much as they do. */
export const delayPriorSales = 50;
/** The default delay, while the history is short: exponential with this mean, in days (a slow network). */
export const defaultDelayMeanDays = 7;
/** The prior of the payouts' spread: as many sales as this, with a squared coefficient of variation of 1. */
export const spreadPriorSales = 20;
export const defaultPayoutSpread = 1;
/** The prior of the refund share: as many sales as this, 5% of them refunded. */
export const refundPriorSales = 50;
export const defaultRefundShare = 0.05;

const isAmount = (value: number) => Number.isFinite(value) && value > 0;

/** The history from its raw figures: payouts (micros, only those above 0 count), delays (days) and refunds among sales. */
export function saleHistory(raw: { payoutsMicros: readonly number[]; delaysDays: readonly number[]; sales: number; refunded: number }): SaleHistory {
  const payouts = raw.payoutsMicros.filter(isAmount);
  const n = payouts.length;
  const mean = n > 0 ? payouts.reduce((sum, value) => sum + value, 0) / n : undefined;
  const observedSpread = mean !== undefined && n > 1 ? payouts.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1) / mean ** 2 : defaultPayoutSpread;
  const payoutSpread = (n * observedSpread + spreadPriorSales * defaultPayoutSpread) / (n + spreadPriorSales);
  const delaysDays = raw.delaysDays.filter((value) => Number.isFinite(value) && value >= 0).sort((a, b) => a - b);
  const sales = Number.isFinite(raw.sales) && raw.sales > 0 ? raw.sales : 0;
  const refunded = Number.isFinite(raw.refunded) ? Math.min(sales, Math.max(0, raw.refunded)) : 0;
  const refundShare = (refunded + refundPriorSales * defaultRefundShare) / (sales + refundPriorSales);
  return { payoutMicros: mean, payoutSpread, delaysDays, refundShare };
}

/**
 * The share of a day's sales that has arrived by `ageDays` after its clicks: the history's share of delays
 * up to that age, blended with the default delay's by their weights. 0 at age 0 or less, below 1 always
 * while the default has weight.
 */
export function arrivedShare(history: Pick<SaleHistory, 'delaysDays'>, ageDays: number): number {
  if (!(ageDays > 0)) return 0;
  const delays = history.delaysDays;
  const n = delays.length;
  let low = 0;
  let high = n;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (delays[middle]! <= ageDays) low = middle + 1;
    else high = middle;
  }
  const fallback = 1 - Math.exp(-ageDays / defaultDelayMeanDays);
  return (low + delayPriorSales * fallback) / (n + delayPriorSales);
}
