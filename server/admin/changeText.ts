import { countText, signedPercentText } from '../lib/numberFormat';

/**
 * A headline figure's change against the previous period as /admin writes it: "+12% vs the previous 30
 * days". The sign says the direction in words' stead; the colour only repeats whether it is good news
 * (`tone`: more spend is not, `higherIsBetter` false). No change (null) when the previous period had
 * nothing to compare with.
 */
export function changeText(change: number | null, previousDays: number, higherIsBetter = true): { text: string; tone: 'better' | 'worse' | 'same' } | undefined {
  if (change === null) return undefined;
  const text = signedPercentText(change);
  const rose = text.startsWith('+');
  const tone = text === '0%' ? 'same' : rose === higherIsBetter ? 'better' : 'worse';
  return { text: `${text} vs the previous ${counted(previousDays)}`, tone };
}

const counted = (days: number) => (days === 1 ? 'day' : `${countText(days)} days`);
