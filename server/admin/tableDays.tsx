import type { ReactNode } from 'react';
import { countText } from '../lib/numberFormat';
import type { FunnelReport } from '../funnelReport/funnelReport';
import { Caption, ScrollBox } from './ScrollBox';

/**
 * The day-by-day tables show at most this many days, the newest: a year of rows (and a year of each day's
 * sources) made /admin over 600 KB and a quarter of a second of rendering, for a table no one reads that
 * far. The charts still show every day; npm run stats -- --csv or --json has them all.
 */
export const maxTableDays = 31;

type Day = FunnelReport['days'][number];

/** A day with views, clicks or conversions: the days a table shows (the report lists sources for the newest of them, see adminHtml.tsx). */
const hasAnything = ({ all }: Day): boolean => all.views > 0 || all.clicks > 0 || all.conversions > 0;

/** The newest days with views, clicks or conversions, at most maxTableDays, newest first; and how many more there were. */
export function tableDays(reportDays: FunnelReport['days']): { shown: Day[]; more: number } {
  const days = reportDays.toReversed().filter(hasAnything);
  return { shown: days.slice(0, maxTableDays), more: Math.max(0, days.length - maxTableDays) };
}

/**
 * A table of days in its scroll box: the caption says which days (newest first, at most maxTableDays,
 * the words after it say what else), and a line under it says how many older days were left out.
 */
export function DaysTable({ label, caption, more, children }: { label: string; caption: ReactNode; more: number; children: ReactNode }) {
  return (
    <>
      <ScrollBox label={label}>
        <table>
          <Caption>
            {label} (UTC), newest first{more > 0 ? ` (the newest ${maxTableDays})` : ''}
            {caption}
          </Caption>
          {children}
        </table>
      </ScrollBox>
      {more > 0 && <p className="muted">{`${countText(more)} older ${more === 1 ? 'day is' : 'days are'} not shown here: npm run stats -- --csv or --json lists every day.`}</p>}
    </>
  );
}
