import { amountText, countText, shortAmountText, shortCountText } from '../lib/numberFormat';

/** A short form with its exact figure one step away: a tooltip, and the text screen readers may read out. */
const Abbreviated = ({ short, exact }: { short: string | null; exact: string }) => (short === null ? exact : <abbr title={exact}>{short}</abbr>);

/** A count where space is tight: "7M" (titled "6,999,970") from a million on, else the exact figure. */
export const ShortCount = ({ count }: { count: number }) => <Abbreviated short={shortCountText(count)} exact={countText(count)} />;

/** An amount where space is tight: "45.3K USD" (titled "45,312.00 USD") from ten thousand on, else the exact amount. */
export const ShortAmount = ({ amount, currency }: { amount: number; currency: string }) => (
  <Abbreviated short={shortAmountText(amount, currency)} exact={amountText(amount, currency)} />
);
