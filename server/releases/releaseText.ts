import { amountText, counted } from '../dayCounts/reportNumbers';
import type { Interval } from './intervals';
import { windowDays, type ReleaseWindow } from './releaseReport';

/** How /admin and npm run stats write a release's figures, so both say the same. */

/** A proportion as a percentage with one decimal: a week's click-through differs in tenths. */
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** "10.0% (4.3%–21.4%)"; "–" with no page views. */
export function clickThroughText({ clickThrough, clickThroughInterval }: Pick<ReleaseWindow, 'clickThrough' | 'clickThroughInterval'>): string {
  if (clickThrough === null) return '–';
  return clickThroughInterval ? `${percent(clickThrough)} (${percent(clickThroughInterval.low)}–${percent(clickThroughInterval.high)})` : percent(clickThrough);
}

const amount = (value: number, currency: string) => amountText(value, currency).replace(` ${currency}`, '');

/** "8.00 USD (1.45–24.98)"; "–" with no clicks (with no payout known, no interval). */
export function earningsPerClickText({ earningsPerClick, earningsPerClickInterval }: Pick<ReleaseWindow, 'earningsPerClick' | 'earningsPerClickInterval'>, currency: string): string {
  if (earningsPerClick === null) return '–';
  const interval: Interval | null = earningsPerClickInterval;
  return `${amountText(earningsPerClick, currency)}${interval ? ` (${amount(interval.low, currency)}–${amount(interval.high, currency)})` : ''}`;
}

/** "7 days from it", "3 days from it so far (today included)", "no day after it yet". */
export function afterWindowText(after: ReleaseWindow): string {
  if (after.days === 0) return 'no day after it yet';
  return after.days < windowDays ? `${counted(after.days, 'day')} from it so far (today included)` : `${counted(after.days, 'day')} from it`;
}
